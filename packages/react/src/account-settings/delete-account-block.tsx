/**
 * Deleting one's own account, at the end of the Profile section when the
 * project lets users delete themselves (`clientUserDeletionEnabled`): a
 * button opens a form that asks for a phrase typed in full, then the account
 * is deleted, this device is signed out and the page goes where a sign-out goes.
 */
import { useEffect, useRef, useState } from 'react';
import { FormAlert } from '../form/alert.js';
import { Form, FormInputField } from '../form/form.js';
import { BusyButton } from '../form/submit-button.js';
import { useFormAction } from '../form/use-form-action.js';
import { useLabels } from '../internal/text.js';
import { useAppData } from '../internal/use-app-data.js';
import { useApp } from '../provider.js';
import { useUser } from '../use-user.js';
import { accountSettingsLabels } from './account-settings-labels.js';
import { SettingsActions, SettingsBlock } from './settings-parts.js';

/** The "Delete account" block, or nothing when the project does not let users delete themselves. */
export function DeleteAccountBlock() {
  const project = useAppData('project', { suspend: false });
  const labels = useLabels(accountSettingsLabels);
  const [open, setOpen] = useState(false);
  const openRef = useRef<HTMLButtonElement>(null);
  if (project.status !== 'ready' || !project.data.config.clientUserDeletionEnabled) return null;
  return (
    <SettingsBlock title={labels.accountDeleteTitle} description={labels.accountDeleteDescription}>
      {open ? (
        <DeleteAccountForm
          onCancel={() => {
            setOpen(false);
            requestAnimationFrame(() => openRef.current?.focus());
          }}
        />
      ) : (
        <button type="button" ref={openRef} className="lk-button lk-button-danger" onClick={() => setOpen(true)}>
          {labels.accountDeleteOpen}
        </button>
      )}
    </SettingsBlock>
  );
}

function DeleteAccountForm({ onCancel }: { onCancel: () => void }) {
  const app = useApp();
  const user = useUser({ or: 'redirect' });
  const labels = useLabels(accountSettingsLabels);
  const phrase = labels.accountDeletePhrase;
  const [typed, setTyped] = useState('');
  const action = useFormAction(['confirm'] as const);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the form opens
  useEffect(() => {
    action.focus('confirm');
  }, []);
  const onSubmit = () =>
    action.submit({
      check: () => ({
        confirm:
          typed.trim().toLowerCase() === phrase.toLowerCase() ? undefined : labels.accountDeleteMismatch({ phrase }),
      }),
      work: async () => {
        await user.delete();
        await app.redirectToAfterSignOut();
        return null;
      },
      stayPending: true,
    });
  return (
    <Form state={action} onSubmit={onSubmit} className="lk-settings-form">
      <FormInputField
        input="input"
        field="confirm"
        name="confirm"
        className="lk-input"
        autoComplete="off"
        spellCheck={false}
        label={labels.accountDeleteConfirmLabel({ phrase })}
        value={typed}
        onValueChange={setTyped}
      />
      <SettingsActions onCancel={onCancel}>
        <BusyButton variant="danger" block={false} busyChildren={labels.accountDeleteBusy}>
          {labels.accountDeleteSubmit}
        </BusyButton>
      </SettingsActions>
      <FormAlert />
    </Form>
  );
}
