/**
 * The Security activity section: the signed-in user's own security events
 * of the last 90 days, newest first (sign-ins and failed ones, changes of
 * password, e-mail addresses, connected accounts, passkeys and two-step
 * sign-in, sessions ended), each with when and from where as far as the
 * person can recognise it: browser and OS, country, network.
 */
import { type SecurityEvent, securityActivityQuery } from '@latchkey/js';
import { useEffect } from 'react';
import { useLabels } from '../internal/text.js';
import { useQuery } from '../internal/use-app-data.js';
import { useApp } from '../provider.js';
import { useUser } from '../use-user.js';
import { accountSettingsLabels } from './account-settings-labels.js';
import { countryName, dateTimeFormat } from './sessions-section.js';
import { SettingsBlock, SettingsList, SettingsRow } from './settings-parts.js';

/** The Security activity section's content. */
export function SecurityActivitySection() {
  const app = useApp();
  const labels = useLabels(accountSettingsLabels);
  useUser({ or: 'redirect' });
  // Read again each time the section is shown: events since it was last read appear.
  useEffect(() => {
    void app.invalidate(securityActivityQuery).catch(() => {});
  }, [app]);
  const state = useQuery(securityActivityQuery, { suspend: false });
  return (
    <SettingsBlock className="lk-settings-block-wide" title={labels.accountActivityListTitle}>
      <SettingsList
        state={state}
        reload={() => app.load(securityActivityQuery)}
        label={labels.accountActivityListTitle}
        loading={labels.accountActivityLoading}
        failed={labels.accountActivityLoadFailed}
        empty={labels.accountActivityEmpty}
      >
        {(events) => events.map((event) => <EventRow key={event.id} event={event} />)}
      </SettingsList>
    </SettingsBlock>
  );
}

function EventRow({ event }: { event: SecurityEvent }) {
  const labels = useLabels(accountSettingsLabels);
  const failed = event.type === 'sign_in.failed' || event.type === 'mfa.failed';
  const where = [
    labels.accountActivityAt({ date: dateTimeFormat(event.occurredAt) }),
    labels.accountDevice({ browser: event.browser, os: event.os }),
    event.country ? countryName(event.country) : null,
    event.ipAddress ? labels.accountActivityNetwork({ address: event.ipAddress }) : null,
  ];
  return (
    <SettingsRow
      name={labels.accountActivityEvent({ type: event.type })}
      className={failed && 'lk-activity-failed'}
      details={<span className="lk-passkey-dates">{where.filter(Boolean).join(', ')}</span>}
      controls={null}
    />
  );
}
