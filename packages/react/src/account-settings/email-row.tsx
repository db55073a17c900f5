/**
 * One address of the E-mails section: the address and its badges, a
 * "Verify" button while unverified, a menu of what else can be done to it,
 * the confirmation before removing it, and the outcome of the last action.
 */
import type { ContactChannel } from '@latchkey/js';
import { useId, useState } from 'react';
import { OutcomeNotice } from '../form/alert.js';
import { useFormAction } from '../form/use-form-action.js';
import { Icon } from '../internal/icon.js';
import { cx } from '../internal/root-props.js';
import { useLabels } from '../internal/text.js';
import { useMenu } from '../user-button/use-menu.js';
import { accountSettingsLabels } from './account-settings-labels.js';
import { ConfirmRemove, SettingsRow } from './settings-parts.js';

interface EmailRowProps {
  channel: ContactChannel;
  /** Called once the address is removed (its row, and the focus in it, is about to go). */
  onRemoved: () => void;
}

export function EmailRow({ channel, onRemoved }: EmailRowProps) {
  const labels = useLabels(accountSettingsLabels);
  const email = channel.value;
  const menuId = useId();
  const addressId = useId();
  const { open, close, buttonProps, menuProps } = useMenu();
  const { busy, outcome, run } = useFormAction();
  const [confirming, setConfirming] = useState(false);
  const triggerRef = buttonProps.ref;

  const act = (work: () => Promise<string | null>) => {
    close(true);
    return run(work);
  };
  const verify = () =>
    act(async () => {
      await channel.sendVerificationEmail();
      return labels.accountEmailVerificationSent({ email });
    });
  const makePrimary = () =>
    act(async () => {
      await channel.update({ isPrimary: true });
      return labels.accountEmailMadePrimary({ email });
    });
  const toggleSignIn = () => {
    const usedForAuth = !channel.usedForAuth;
    return act(async () => {
      await channel.update({ usedForAuth });
      return usedForAuth ? labels.accountEmailSignInOn({ email }) : labels.accountEmailSignInOff({ email });
    });
  };
  const cancelRemove = () => {
    setConfirming(false);
    triggerRef.current?.focus();
  };
  const remove = async () => {
    const done = await run(async () => {
      await channel.delete();
      return null;
    });
    if (done) onRemoved();
    else cancelRemove();
  };

  return (
    <SettingsRow
      className={confirming && 'lk-email-row-confirming'}
      busy={busy}
      name={email}
      nameId={addressId}
      details={
        <span className="lk-badges">
          {channel.isPrimary ? <span className="lk-badge lk-badge-primary">{labels.accountEmailPrimary}</span> : null}
          {channel.isVerified ? (
            <span className="lk-badge lk-badge-success">{labels.accountEmailVerified}</span>
          ) : (
            <span className="lk-badge lk-badge-warning">{labels.accountEmailUnverified}</span>
          )}
          {channel.usedForAuth ? <span className="lk-badge">{labels.accountEmailSignIn}</span> : null}
        </span>
      }
      controls={
        <>
          {channel.isVerified ? null : (
            <button
              type="button"
              className="lk-button lk-button-secondary lk-button-small"
              aria-disabled={busy || undefined}
              aria-describedby={addressId}
              onClick={verify}
            >
              {labels.accountEmailVerify}
            </button>
          )}
          <div className="lk-row-menu">
            <button
              type="button"
              className="lk-icon-button"
              aria-label={labels.accountEmailOptionsFor({ email })}
              aria-controls={open ? menuId : undefined}
              {...buttonProps}
            >
              <Icon name="more" size={20} />
            </button>
            {open ? (
              <div
                {...menuProps}
                role="menu"
                className="lk-menu"
                id={menuId}
                aria-label={labels.accountEmailOptionsFor({ email })}
              >
                {channel.isVerified ? null : (
                  <MenuItem onSelect={verify}>{labels.accountEmailSendVerification}</MenuItem>
                )}
                {/* The service makes only a verified address primary. */}
                {channel.isPrimary || !channel.isVerified ? null : (
                  <MenuItem onSelect={makePrimary}>{labels.accountEmailMakePrimary}</MenuItem>
                )}
                <MenuItem onSelect={toggleSignIn}>
                  {channel.usedForAuth ? labels.accountEmailStopSignIn : labels.accountEmailUseForSignIn}
                </MenuItem>
                <MenuItem
                  danger
                  onSelect={() => {
                    close(false);
                    setConfirming(true);
                  }}
                >
                  {labels.accountEmailRemove}
                </MenuItem>
              </div>
            ) : null}
          </div>
        </>
      }
    >
      {confirming ? (
        <ConfirmRemove
          question={labels.accountEmailRemoveConfirm({ email })}
          note={channel.usedForAuth ? labels.accountEmailRemoveWarning : null}
          submit={labels.accountEmailRemoveSubmit}
          busy={busy}
          onConfirm={remove}
          onCancel={cancelRemove}
        />
      ) : null}
      <OutcomeNotice outcome={outcome} />
    </SettingsRow>
  );
}

function MenuItem({ onSelect, danger, children }: { onSelect: () => void; danger?: boolean; children: string }) {
  return (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      className={cx('lk-menu-item', danger && 'lk-menu-item-danger')}
      onClick={onSelect}
    >
      {children}
    </button>
  );
}
