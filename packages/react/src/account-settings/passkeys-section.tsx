/**
 * The Passkeys section: the user's passkeys (name, when created, when last
 * used), each renamed in place or removed after a confirmation, and a form
 * that adds one (the browser's prompt creates it; the name is optional).
 * Errors show on the row or the form they belong to.
 */
import { type Passkey, passkeysQuery } from '@latchkey/js';
import { type RefObject, useEffect, useId, useRef, useState } from 'react';
import { FormAlert, OutcomeNotice } from '../form/alert.js';
import { Form, FormInputField, type FormInputFieldProps } from '../form/form.js';
import { BusyButton } from '../form/submit-button.js';
import { useFormAction } from '../form/use-form-action.js';
import { errorText } from '../internal/error-text.js';
import { useLabels, useMessages } from '../internal/text.js';
import { useQuery } from '../internal/use-app-data.js';
import { useApp } from '../provider.js';
import { useUser } from '../use-user.js';
import { accountSettingsLabels } from './account-settings-labels.js';
import { ConfirmRemove, SettingsActions, SettingsBlock, SettingsList, SettingsRow } from './settings-parts.js';

const dateFormat = (date: Date) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(date);

/** The Passkeys section's content. */
export function PasskeysSection() {
  const app = useApp();
  const labels = useLabels(accountSettingsLabels);
  useUser({ or: 'redirect' });
  const state = useQuery(passkeysQuery, { suspend: false });
  return (
    <>
      <SettingsBlock className="lk-settings-block-wide" title={labels.accountPasskeysListTitle}>
        <SettingsList
          state={state}
          reload={() => app.load(passkeysQuery)}
          label={labels.accountPasskeysListTitle}
          loading={labels.accountPasskeysLoading}
          failed={labels.accountPasskeysLoadFailed}
          empty={labels.accountPasskeysEmpty}
        >
          {(passkeys, onRemoved) =>
            passkeys.map((passkey) => <PasskeyRow key={passkey.id} passkey={passkey} onRemoved={onRemoved} />)
          }
        </SettingsList>
      </SettingsBlock>
      <SettingsBlock title={labels.accountPasskeyAddTitle} description={labels.accountPasskeyAddDescription}>
        <AddPasskeyForm />
      </SettingsBlock>
    </>
  );
}

function PasskeyRow({ passkey, onRemoved }: { passkey: Passkey; onRemoved: () => void }) {
  const labels = useLabels(accountSettingsLabels);
  const messages = useMessages();
  const nameId = useId();
  const action = useFormAction(['name'] as const);
  const [mode, setMode] = useState<'view' | 'rename' | 'remove'>('view');
  const [name, setName] = useState(passkey.name);
  const renameRef = useRef<HTMLButtonElement>(null);
  const removeRef = useRef<HTMLButtonElement>(null);

  // The field takes the focus when it opens (the confirmation's "Cancel" takes it by itself).
  // biome-ignore lint/correctness/useExhaustiveDependencies: on a new mode only
  useEffect(() => {
    if (mode === 'rename') action.focus('name');
  }, [mode]);

  const back = (to: HTMLButtonElement | null) => {
    setMode('view');
    setName(passkey.name);
    action.setErrors({});
    requestAnimationFrame(() => to?.focus());
  };
  const rename = async () => {
    const value = name.trim();
    const done = await action.submit({
      check: () => ({ name: value ? undefined : labels.accountPasskeyNameRequired }),
      work: async () => {
        await passkey.rename(value);
        return labels.accountPasskeyRenamed({ name: value });
      },
      refusal: (error) => ({ name: errorText(error, messages) }),
    });
    if (done) {
      setMode('view');
      requestAnimationFrame(() => renameRef.current?.focus());
    }
  };
  const remove = async () => {
    const done = await action.run(async () => {
      await passkey.delete();
      return null;
    });
    if (done) onRemoved();
    else back(removeRef.current);
  };
  const used = passkey.lastUsedAt
    ? labels.accountPasskeyLastUsed({ date: dateFormat(passkey.lastUsedAt) })
    : labels.accountPasskeyNeverUsed;
  /** The row's button that opens `next`: the rename form or the remove question. */
  const opener = (next: 'rename' | 'remove', ref: RefObject<HTMLButtonElement | null>, name: string, text: string) => (
    <button
      type="button"
      ref={ref}
      className="lk-button lk-button-secondary lk-button-small"
      aria-label={name}
      onClick={() => {
        action.setOutcome(null);
        setMode(next);
      }}
    >
      {text}
    </button>
  );

  return (
    <SettingsRow
      busy={action.busy}
      name={passkey.name}
      nameId={nameId}
      details={
        <span className="lk-passkey-dates">
          {labels.accountPasskeyCreated({ date: dateFormat(passkey.createdAt) })}, {used}
        </span>
      }
      controls={
        mode === 'view' ? (
          <>
            {opener(
              'rename',
              renameRef,
              labels.accountPasskeyRenameFor({ name: passkey.name }),
              labels.accountPasskeyRename,
            )}
            {opener(
              'remove',
              removeRef,
              labels.accountPasskeyRemoveFor({ name: passkey.name }),
              labels.accountPasskeyRemove,
            )}
          </>
        ) : null
      }
    >
      {mode === 'rename' ? (
        <Form state={action} onSubmit={rename} className="lk-settings-form lk-settings-inline-form">
          <PasskeyNameField label={labels.accountPasskeyNameLabel} value={name} onValueChange={setName} />
          <SettingsActions onCancel={() => back(renameRef.current)} />
          <FormAlert />
        </Form>
      ) : null}
      {mode === 'remove' ? (
        <ConfirmRemove
          question={labels.accountPasskeyRemoveConfirm({ name: passkey.name })}
          submit={labels.accountPasskeyRemoveSubmit}
          busy={action.busy}
          onConfirm={remove}
          onCancel={() => back(removeRef.current)}
        />
      ) : null}
      {mode === 'view' ? <OutcomeNotice outcome={action.outcome} /> : null}
    </SettingsRow>
  );
}

/** A passkey's name (a new one's, or a new name), at most 64 characters. */
function PasskeyNameField(props: Pick<FormInputFieldProps, 'label' | 'placeholder' | 'value' | 'onValueChange'>) {
  return (
    <FormInputField {...props} input="input" field="name" className="lk-input" maxLength={64} autoComplete="off" />
  );
}

function AddPasskeyForm() {
  const labels = useLabels(accountSettingsLabels);
  const user = useUser({ or: 'redirect' });
  const [name, setName] = useState('');
  const action = useFormAction(['name'] as const);
  const onSubmit = async () => {
    const done = await action.submit({
      work: async () => {
        const given = name.trim();
        await user.registerPasskey(given ? { name: given } : {});
        return labels.accountPasskeyAdded;
      },
      focusOnError: 'name',
    });
    if (done) setName('');
  };
  return (
    <Form state={action} onSubmit={onSubmit} className="lk-settings-form lk-settings-inline-form">
      <PasskeyNameField
        label={labels.accountPasskeyNewNameLabel}
        placeholder={labels.accountPasskeyNewNamePlaceholder}
        value={name}
        onValueChange={(next) => {
          setName(next);
          if (action.outcome) action.setOutcome(null);
        }}
      />
      <BusyButton block={false} busyChildren={labels.accountPasskeyAddBusy}>
        {labels.accountPasskeyAddSubmit}
      </BusyButton>
      <OutcomeNotice />
    </Form>
  );
}
