/**
 * The Passkeys section: the user's passkeys (name, when created, when last
 * used), each renamed in place or removed after a confirmation, and a form
 * that adds one (the browser's prompt creates it; the name is optional).
 * Errors show on the row or the form they belong to.
 */
import { type Passkey, passkeysQuery } from '@latchkey/js';
import { type RefObject, useEffect, useId, useRef, useState } from 'react';
import { FormAlert, OutcomeNotice } from '../form/alert.js';
import { Form, FormField } from '../form/form.js';
import { BusyButton } from '../form/submit-button.js';
import { useFormAction } from '../form/use-form-action.js';
import { errorText } from '../internal/error-text.js';
import { useLabels, useMessages } from '../internal/text.js';
import { useQuery } from '../internal/use-app-data.js';
import { useApp } from '../provider.js';
import { Spinner } from '../spinner.js';
import { useUser } from '../use-user.js';
import { accountSettingsLabels } from './account-settings-labels.js';
import { SettingsBlock } from './settings-parts.js';

const dateFormat = (date: Date) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(date);

/** The Passkeys section's content. */
export function PasskeysSection() {
  const labels = useLabels(accountSettingsLabels);
  useUser({ or: 'redirect' });
  const listRef = useRef<HTMLUListElement>(null);
  return (
    <>
      <SettingsBlock className="lk-settings-block-wide" title={labels.accountPasskeysListTitle}>
        <PasskeyList listRef={listRef} />
      </SettingsBlock>
      <SettingsBlock title={labels.accountPasskeyAddTitle} description={labels.accountPasskeyAddDescription}>
        <AddPasskeyForm />
      </SettingsBlock>
    </>
  );
}

function PasskeyList({ listRef }: { listRef: RefObject<HTMLUListElement | null> }) {
  const app = useApp();
  const labels = useLabels(accountSettingsLabels);
  const state = useQuery(passkeysQuery, { suspend: false });
  const [retrying, setRetrying] = useState(false);
  if (state.status === 'loading' || retrying) {
    return (
      <p className="lk-status lk-settings-status" role="status">
        <Spinner />
        <span>{labels.accountPasskeysLoading}</span>
      </p>
    );
  }
  if (state.status === 'failed') {
    return (
      <div className="lk-settings-failed">
        <p className="lk-error-text" role="alert">
          {labels.accountPasskeysLoadFailed}
        </p>
        <button
          type="button"
          className="lk-button lk-button-secondary"
          onClick={() => {
            setRetrying(true);
            app
              .load(passkeysQuery)
              .catch(() => {})
              .finally(() => setRetrying(false));
          }}
        >
          {labels.tryAgain}
        </button>
      </div>
    );
  }
  if (state.data.length === 0) return <p className="lk-settings-empty">{labels.accountPasskeysEmpty}</p>;
  return (
    <ul className="lk-email-list" ref={listRef} aria-label={labels.accountPasskeysListTitle}>
      {state.data.map((passkey) => (
        <PasskeyRow
          key={passkey.id}
          passkey={passkey}
          onRemoved={() => listRef.current?.closest('section')?.querySelector<HTMLElement>('h2')?.focus()}
        />
      ))}
    </ul>
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
  const cancelRef = useRef<HTMLButtonElement>(null);

  // The field (or the confirmation's "Cancel") takes the focus when it opens.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on a new mode only
  useEffect(() => {
    if (mode === 'rename') action.focus('name');
    if (mode === 'remove') cancelRef.current?.focus();
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

  return (
    <li className="lk-email-row" aria-busy={action.busy || undefined}>
      <div className="lk-email-summary">
        <div className="lk-email-identity">
          <span className="lk-email-address" id={nameId}>
            {passkey.name}
          </span>
          <span className="lk-passkey-dates">
            {labels.accountPasskeyCreated({ date: dateFormat(passkey.createdAt) })}, {used}
          </span>
        </div>
        {mode === 'view' ? (
          <div className="lk-email-controls">
            {action.busy ? <Spinner className="lk-email-busy" /> : null}
            <button
              type="button"
              ref={renameRef}
              className="lk-button lk-button-secondary lk-button-small"
              aria-label={labels.accountPasskeyRenameFor({ name: passkey.name })}
              onClick={() => {
                action.setOutcome(null);
                setMode('rename');
              }}
            >
              {labels.accountPasskeyRename}
            </button>
            <button
              type="button"
              ref={removeRef}
              className="lk-button lk-button-secondary lk-button-small"
              aria-label={labels.accountPasskeyRemoveFor({ name: passkey.name })}
              onClick={() => {
                action.setOutcome(null);
                setMode('remove');
              }}
            >
              {labels.accountPasskeyRemove}
            </button>
          </div>
        ) : null}
      </div>
      {mode === 'rename' ? (
        <Form state={action} onSubmit={rename} className="lk-settings-form lk-settings-inline-form">
          <FormField name="name" label={labels.accountPasskeyNameLabel}>
            {(control) => (
              <input
                {...control}
                className="lk-input"
                type="text"
                maxLength={64}
                autoComplete="off"
                value={name}
                onChange={(event) => {
                  setName(event.target.value);
                  action.edited('name');
                }}
              />
            )}
          </FormField>
          <div className="lk-settings-actions">
            <BusyButton block={false} busyChildren={labels.accountSaving}>
              {labels.accountSave}
            </BusyButton>
            <button
              type="button"
              className="lk-button lk-button-secondary"
              disabled={action.busy}
              onClick={() => back(renameRef.current)}
            >
              {labels.accountCancel}
            </button>
          </div>
          <FormAlert />
        </Form>
      ) : null}
      {mode === 'remove' ? (
        <div className="lk-confirm">
          <p className="lk-confirm-text">
            <strong>{labels.accountPasskeyRemoveConfirm({ name: passkey.name })}</strong>
          </p>
          <div className="lk-settings-actions">
            <BusyButton type="button" variant="danger" block={false} busy={action.busy} onClick={remove}>
              {labels.accountPasskeyRemoveSubmit}
            </BusyButton>
            <button
              type="button"
              ref={cancelRef}
              className="lk-button lk-button-secondary"
              disabled={action.busy}
              onClick={() => back(removeRef.current)}
            >
              {labels.accountCancel}
            </button>
          </div>
        </div>
      ) : null}
      {mode === 'view' ? <OutcomeNotice outcome={action.outcome} /> : null}
    </li>
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
      <FormField name="name" label={labels.accountPasskeyNewNameLabel}>
        {(control) => (
          <input
            {...control}
            className="lk-input"
            type="text"
            maxLength={64}
            autoComplete="off"
            placeholder={labels.accountPasskeyNewNamePlaceholder}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              action.edited('name');
              if (action.outcome) action.setOutcome(null);
            }}
          />
        )}
      </FormField>
      <BusyButton block={false} busyChildren={labels.accountPasskeyAddBusy}>
        {labels.accountPasskeyAddSubmit}
      </BusyButton>
      <OutcomeNotice outcome={action.outcome} />
    </Form>
  );
}
