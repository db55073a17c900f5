/**
 * The Connected accounts section: the user's OAuth accounts (provider mark,
 * name, the account's e-mail), each with "Disconnect" (asked once more; the
 * service refuses to remove the last way to sign in, and its reason shows),
 * and "Connect <provider>" for each enabled provider not connected yet.
 */
import type { ConnectedAccount, CurrentUser, EnabledOAuthProvider, Project } from '@latchkey/js';
import { useState } from 'react';
import { OutcomeNotice } from '../form/alert.js';
import { BusyButton } from '../form/submit-button.js';
import { type Outcome, useFormAction } from '../form/use-form-action.js';
import { useLabels } from '../internal/text.js';
import { useAppData } from '../internal/use-app-data.js';
import { ProviderMark, providerName } from '../oauth/provider-marks.js';
import { useUser } from '../use-user.js';
import { accountSettingsLabels } from './account-settings-labels.js';
import { SettingsActions, SettingsBlock } from './settings-parts.js';

/**
 * Whether the section has anything to show: the project enables a provider,
 * or the user has a connected account.
 *
 * @example
 * ```ts
 * connectedAccountsRelevant(user, project); // false: hide the section
 * ```
 */
export function connectedAccountsRelevant(user: CurrentUser, project: Project | undefined): boolean {
  return user.oauthProviders.length > 0 || (project?.config.oauthProviders.length ?? 0) > 0;
}

/** The Connected accounts section's content. */
export function ConnectedAccountsSection() {
  const labels = useLabels(accountSettingsLabels);
  const user = useUser({ or: 'redirect' });
  const project = useAppData('project', { suspend: false });
  const enabled: readonly EnabledOAuthProvider[] = project.status === 'ready' ? project.data.config.oauthProviders : [];
  const nameOf = (id: string) => providerName(enabled.find((provider) => provider.id === id) ?? { id });
  const connect = useFormAction();
  // A disconnected account's row goes away: its outcome shows under the list.
  const [gone, setGone] = useState<Outcome>(null);
  const notConnected = enabled.filter((provider) => !user.oauthProviders.some((link) => link.id === provider.id));
  const accounts = user.oauthProviders;
  return (
    <>
      <SettingsBlock className="lk-settings-block-wide" title={labels.accountConnectedListTitle}>
        {accounts.length === 0 ? (
          <p className="lk-settings-empty">{labels.accountConnectedEmpty}</p>
        ) : (
          <ul className="lk-email-list" aria-label={labels.accountConnectedListTitle}>
            {accounts.map((account) => (
              <ConnectedRow
                key={account.id}
                user={user}
                account={account}
                name={nameOf(account.id)}
                onGone={(text) => setGone({ kind: 'success', text })}
              />
            ))}
          </ul>
        )}
        <OutcomeNotice outcome={gone} />
      </SettingsBlock>
      {notConnected.length > 0 ? (
        <SettingsBlock title={labels.accountConnectedAddTitle}>
          <div className="lk-oauth-buttons">
            {notConnected.map((provider) => (
              <button
                key={provider.id}
                type="button"
                className="lk-button lk-button-secondary lk-oauth-button"
                disabled={connect.busy}
                onClick={() => void connect.run(() => user.linkConnectedAccount(provider.id).then(() => null))}
              >
                <ProviderMark id={provider.id} />
                <span>{labels.accountConnect({ provider: providerName(provider) })}</span>
              </button>
            ))}
          </div>
          <OutcomeNotice outcome={connect.outcome} />
        </SettingsBlock>
      ) : null}
    </>
  );
}

/** One connected account, with "Disconnect" asked once more. */
function ConnectedRow(props: {
  user: CurrentUser;
  account: Pick<ConnectedAccount, 'id' | 'email'>;
  name: string;
  onGone: (text: string) => void;
}) {
  const labels = useLabels(accountSettingsLabels);
  const { account, name } = props;
  const [asking, setAsking] = useState(false);
  const { busy, outcome, run } = useFormAction();
  const disconnect = async () => {
    const done = await run(async () => {
      await props.user.unlinkConnectedAccount(account.id);
      props.onGone(labels.accountDisconnected({ provider: name }));
      return null;
    });
    if (!done) setAsking(false);
  };
  return (
    <li className="lk-email-row lk-connected-account">
      <div className="lk-email-summary">
        <span className="lk-email-identity">
          <ProviderMark id={account.id} size={22} />
          <span className="lk-email-address">{name}</span>
          <span className="lk-connected-email">{account.email ?? labels.accountConnectedNoEmail}</span>
        </span>
        {asking ? null : (
          <button
            type="button"
            className="lk-button lk-button-secondary lk-button-small"
            onClick={() => setAsking(true)}
          >
            {labels.accountDisconnect}
          </button>
        )}
      </div>
      {asking ? (
        <div className="lk-confirm">
          <p className="lk-confirm-text">
            <strong>{labels.accountDisconnectConfirm({ provider: name })}</strong>
          </p>
          <SettingsActions onCancel={() => setAsking(false)}>
            <BusyButton type="button" variant="danger" block={false} busy={busy} onClick={disconnect}>
              {labels.accountDisconnect}
            </BusyButton>
          </SettingsActions>
        </div>
      ) : null}
      <OutcomeNotice outcome={outcome} />
    </li>
  );
}
