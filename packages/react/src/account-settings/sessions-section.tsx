/**
 * The Sessions section: every session of the signed-in user (browser and OS,
 * country, when it was opened and last used, "This device"), each other one
 * ended after a confirmation, and "Sign out everywhere else". An ended
 * session's device is signed out at once (the service's revocation).
 */
import { sessionsQuery, type UserSession } from '@latchkey/js';
import { useEffect, useId, useRef, useState } from 'react';
import { OutcomeNotice } from '../form/alert.js';
import { BusyButton } from '../form/submit-button.js';
import { useFormAction } from '../form/use-form-action.js';
import { useLabels } from '../internal/text.js';
import { useQuery } from '../internal/use-app-data.js';
import { useApp } from '../provider.js';
import { useUser } from '../use-user.js';
import { accountSettingsLabels } from './account-settings-labels.js';
import { ConfirmRemove, SettingsBlock, SettingsList, SettingsRow } from './settings-parts.js';

/** A date and time as the person's browser writes them. */
export const dateTimeFormat = (date: Date) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);

/** A country's name in the person's language, from its ISO 3166 code (the code itself where the browser has none). */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(undefined, { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The Sessions section's content. */
export function SessionsSection() {
  const app = useApp();
  const labels = useLabels(accountSettingsLabels);
  useUser({ or: 'redirect' });
  // Read again each time the section is shown: sessions opened or ended elsewhere appear.
  useEffect(() => {
    void app.invalidate(sessionsQuery).catch(() => {});
  }, [app]);
  const state = useQuery(sessionsQuery, { suspend: false });
  const others = state.status === 'ready' ? state.data.filter((session) => !session.isCurrent).length : 0;
  // Once offered, "Sign out everywhere else" stays, so its outcome shows after the other sessions went.
  const [offered, setOffered] = useState(false);
  if (others > 0 && !offered) setOffered(true);
  return (
    <>
      <SettingsBlock className="lk-settings-block-wide" title={labels.accountSessionsListTitle}>
        <SettingsList
          state={state}
          reload={() => app.load(sessionsQuery)}
          label={labels.accountSessionsListTitle}
          loading={labels.accountSessionsLoading}
          failed={labels.accountSessionsLoadFailed}
          empty={labels.accountSessionsEmpty}
        >
          {(sessions, onRemoved) =>
            sessions.map((session) => <SessionRow key={session.id} session={session} onRemoved={onRemoved} />)
          }
        </SettingsList>
      </SettingsBlock>
      {others > 0 || offered ? (
        <SettingsBlock title={labels.accountSessionOthersTitle} description={labels.accountSessionOthersDescription}>
          <SignOutOthers />
        </SettingsBlock>
      ) : null}
    </>
  );
}

function SessionRow({ session, onRemoved }: { session: UserSession; onRemoved: () => void }) {
  const labels = useLabels(accountSettingsLabels);
  const nameId = useId();
  const action = useFormAction();
  const [confirming, setConfirming] = useState(false);
  const endRef = useRef<HTMLButtonElement>(null);
  const device = labels.accountDevice({ browser: session.browser, os: session.os });
  const end = async () => {
    const done = await action.run(async () => {
      await session.revoke();
      return null;
    });
    if (done) onRemoved();
    else {
      setConfirming(false);
      requestAnimationFrame(() => endRef.current?.focus());
    }
  };
  return (
    <SettingsRow
      busy={action.busy}
      name={device}
      nameId={nameId}
      details={
        <>
          {session.isCurrent ? (
            <span className="lk-badges">
              <span className="lk-badge lk-badge-primary">{labels.accountSessionThisDevice}</span>
            </span>
          ) : null}
          <span className="lk-passkey-dates">
            {[
              session.country ? countryName(session.country) : null,
              labels.accountSessionCreated({ date: dateTimeFormat(session.createdAt) }),
              labels.accountSessionLastActive({ date: dateTimeFormat(session.lastUsedAt) }),
            ]
              .filter(Boolean)
              .join(', ')}
          </span>
        </>
      }
      controls={
        session.isCurrent || confirming ? null : (
          <button
            type="button"
            ref={endRef}
            className="lk-button lk-button-secondary lk-button-small"
            aria-label={labels.accountSessionEndFor({ device })}
            onClick={() => {
              action.setOutcome(null);
              setConfirming(true);
            }}
          >
            {labels.accountSessionEnd}
          </button>
        )
      }
    >
      {confirming ? (
        <ConfirmRemove
          question={labels.accountSessionEndConfirm({ device })}
          submit={labels.accountSessionEndSubmit}
          busy={action.busy}
          onConfirm={end}
          onCancel={() => {
            setConfirming(false);
            requestAnimationFrame(() => endRef.current?.focus());
          }}
        />
      ) : (
        <OutcomeNotice outcome={action.outcome} />
      )}
    </SettingsRow>
  );
}

function SignOutOthers() {
  const labels = useLabels(accountSettingsLabels);
  const user = useUser({ or: 'redirect' });
  const action = useFormAction();
  const [confirming, setConfirming] = useState(false);
  const openRef = useRef<HTMLButtonElement>(null);
  if (confirming) {
    return (
      <ConfirmRemove
        question={labels.accountSessionOthersConfirm}
        submit={labels.accountSessionOthersSubmit}
        busy={action.busy}
        onConfirm={async () => {
          await action.run(async () => {
            await user.revokeOtherSessions();
            return labels.accountSessionOthersDone;
          });
          setConfirming(false);
        }}
        onCancel={() => {
          setConfirming(false);
          requestAnimationFrame(() => openRef.current?.focus());
        }}
      />
    );
  }
  return (
    <div className="lk-settings-form lk-settings-inline-form">
      <BusyButton
        type="button"
        ref={openRef}
        variant="danger"
        block={false}
        busy={false}
        onClick={() => {
          action.setOutcome(null);
          setConfirming(true);
        }}
      >
        {labels.accountSessionOthersSubmit}
      </BusyButton>
      <OutcomeNotice outcome={action.outcome} />
    </div>
  );
}
