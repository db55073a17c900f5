/**
 * The E-mails section: the user's addresses with their badges (primary,
 * verified, used for sign-in), what can be done to each (verify, make
 * primary, use for sign-in or not, remove after a confirmation) and a form to
 * add one. Errors show on the row or the form they belong to.
 */
import type { ContactChannel } from '@latchkey/js';
import { type FormEvent, type RefObject, useRef, useState } from 'react';
import { EmailInput } from '../internal/email-input.js';
import { formMessage } from '../internal/error-text.js';
import { Field } from '../internal/field.js';
import { useLabels, useMessages } from '../internal/text.js';
import { type AppDataState, useAppData } from '../internal/use-app-data.js';
import { useApp } from '../provider.js';
import { Spinner } from '../spinner.js';
import { useUser } from '../use-user.js';
import { EmailRow } from './email-row.js';
import { OutcomeNotice, SettingsBlock, useAction } from './settings-parts.js';

/** The E-mails section's content. */
export function EmailsSection() {
  const labels = useLabels();
  // Signed-out visitors go to sign-in like on the other sections.
  useUser({ or: 'redirect' });
  const channels = useAppData('contactChannels', { suspend: false });
  const listRef = useRef<HTMLUListElement>(null);
  return (
    <>
      <SettingsBlock
        className="lk-settings-block-wide"
        title={labels.accountEmailsListTitle}
        description={labels.accountEmailsListDescription}
      >
        <ChannelList state={channels} listRef={listRef} />
      </SettingsBlock>
      <SettingsBlock title={labels.accountEmailAddTitle} description={labels.accountEmailAddDescription}>
        <AddEmailForm />
      </SettingsBlock>
    </>
  );
}

function ChannelList({
  state,
  listRef,
}: {
  state: AppDataState<ContactChannel[]>;
  listRef: RefObject<HTMLUListElement | null>;
}) {
  const app = useApp();
  const labels = useLabels();
  const [retrying, setRetrying] = useState(false);
  if (state.status === 'loading' || retrying) {
    return (
      <p className="lk-status lk-settings-status" role="status">
        <Spinner />
        <span>{labels.accountEmailsLoading}</span>
      </p>
    );
  }
  if (state.status === 'failed') {
    return (
      <div className="lk-settings-failed">
        <p className="lk-error-text" role="alert">
          {labels.accountEmailsLoadFailed}
        </p>
        <button
          type="button"
          className="lk-button lk-button-secondary"
          onClick={() => {
            setRetrying(true);
            app
              .load('contactChannels')
              .catch(() => {})
              .finally(() => setRetrying(false));
          }}
        >
          {labels.tryAgain}
        </button>
      </div>
    );
  }
  const channels = sortChannels(state.data);
  if (channels.length === 0) return <p className="lk-settings-empty">{labels.accountEmailsEmpty}</p>;
  return (
    <ul className="lk-email-list" ref={listRef} aria-label={labels.accountEmailsListTitle}>
      {channels.map((channel) => (
        <EmailRow
          key={channel.id}
          channel={channel}
          onRemoved={() => listRef.current?.closest('section')?.querySelector<HTMLElement>('h2')?.focus()}
        />
      ))}
    </ul>
  );
}

/** The primary address first, then in the service's order. */
function sortChannels(channels: readonly ContactChannel[]): ContactChannel[] {
  return [...channels].sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary));
}

function AddEmailForm() {
  const labels = useLabels();
  const messages = useMessages();
  const user = useUser({ or: 'redirect' });
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const { busy, outcome, setOutcome, run } = useAction();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = value.trim();
    // The browser's own check of type="email" (the form is noValidate, so nothing pops up).
    const invalid = !email ? 'EMAIL_REQUIRED' : inputRef.current?.validity.typeMismatch ? 'EMAIL_INVALID' : null;
    if (invalid) {
      setFieldError(formMessage(invalid, messages));
      inputRef.current?.focus();
      return;
    }
    setFieldError(null);
    const done = await run(async () => {
      await user.createContactChannel({ value: email, type: 'email', usedForAuth: false });
      return labels.accountEmailAdded({ email });
    });
    if (done) setValue('');
    else inputRef.current?.focus();
  };

  const error = fieldError ?? (outcome?.kind === 'error' ? outcome.text : undefined);
  return (
    <form className="lk-settings-form lk-settings-inline-form" noValidate onSubmit={onSubmit}>
      <Field label={labels.accountEmailAddLabel} error={error}>
        {(control) => (
          <EmailInput
            {...control}
            ref={inputRef}
            value={value}
            onChange={(event) => {
              setValue(event.target.value);
              setFieldError(null);
              if (outcome) setOutcome(null);
            }}
          />
        )}
      </Field>
      <button type="submit" className="lk-button lk-button-primary" disabled={busy} aria-busy={busy}>
        {busy ? <Spinner /> : null}
        <span>{busy ? labels.accountEmailAddBusy : labels.accountEmailAddSubmit}</span>
      </button>
      <OutcomeNotice outcome={outcome?.kind === 'success' ? outcome : null} />
    </form>
  );
}
