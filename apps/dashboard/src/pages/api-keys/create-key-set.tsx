/**
 * The form of a new key set: what it is for, until when, which kinds of key.
 * Once made, its keys are shown here in full, this once, with copy buttons.
 */
import type { ApiKeySetData } from '@latchkey/js/admin';
import { BusyButton, Form, FormAlert, FormField, useFormAction } from '@latchkey/react';
import { useId, useState } from 'react';
import { useProject } from '../../project.js';
import { CopyField } from '../../ui/copy-button.js';
import { TextField } from '../../ui/fields.js';
import { formatDate } from '../../ui/format.js';
import { refusalOf } from '../../ui/refusals.js';
import { type KeyKind as Kind, keyKinds } from './key-kinds.js';

const fields = ['description', 'expiresOn', 'kinds'] as const;

/** The end of the day `date` (`yyyy-mm-dd`, local time) names, or null when it names none. */
function endOfDay(date: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const day = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59, 999);
  return Number.isNaN(day.getTime()) ? null : day;
}

export function CreateKeySetForm({ onDone }: { onDone: () => void }) {
  const { adminApp } = useProject();
  const form = useFormAction(fields);
  const [description, setDescription] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [kinds, setKinds] = useState<Record<Kind, boolean>>({
    publishableClientKey: false,
    secretServerKey: true,
    superSecretAdminKey: false,
  });
  const [created, setCreated] = useState<ApiKeySetData<string> | null>(null);
  const kindsId = useId();

  if (created) return <NewKeys set={created} onDone={onDone} />;

  const submit = () => {
    const expiresAt = expiresOn ? endOfDay(expiresOn) : null;
    return form.submit({
      check: () => ({
        ...(description.trim() ? {} : { description: 'Say what these keys are for, e.g. "Backend".' }),
        ...(expiresOn && (!expiresAt || expiresAt.getTime() <= Date.now())
          ? { expiresOn: 'Choose a day from today on, or leave it empty.' }
          : {}),
        ...(Object.values(kinds).some(Boolean) ? {} : { kinds: 'Choose at least one kind of key.' }),
      }),
      work: async () => {
        const set = await adminApp.createApiKeySet({
          description: description.trim(),
          ...(expiresAt ? { expiresAt } : {}),
          hasPublishableClientKey: kinds.publishableClientKey,
          hasSecretServerKey: kinds.secretServerKey,
          hasSuperSecretAdminKey: kinds.superSecretAdminKey,
        });
        setCreated(set);
      },
      refusal: (error) => {
        return refusalOf(error, { expires_at_millis: 'expiresOn' } as const);
      },
    });
  };

  return (
    <Form state={form} onSubmit={submit} className="ld-form">
      <TextField
        field="description"
        label="Description"
        hint="What uses these keys, e.g. the backend of the web app."
        value={description}
        onValueChange={setDescription}
        maxLength={200}
      />
      <FormField name="expiresOn" label="Expires on (optional)" hint="Leave empty for keys that do not expire.">
        {(control) => (
          <input
            {...control}
            type="date"
            className="lk-input"
            value={expiresOn}
            onChange={(event) => {
              setExpiresOn(event.target.value);
              form.edited('expiresOn');
            }}
          />
        )}
      </FormField>
      <fieldset
        className="ld-fieldset"
        aria-describedby={form.errors.kinds ? `${kindsId}-error` : undefined}
        aria-invalid={form.errors.kinds ? true : undefined}
      >
        <legend className="lk-label">Keys in this set</legend>
        {keyKinds.map(({ field, label }, index) => (
          <label key={field} className="ld-checkbox">
            <input
              type="checkbox"
              ref={index === 0 ? form.ref('kinds') : undefined}
              checked={kinds[field]}
              onChange={(event) => {
                setKinds((now) => ({ ...now, [field]: event.target.checked }));
                form.edited('kinds');
              }}
            />
            <span>{label}</span>
          </label>
        ))}
        {form.errors.kinds ? (
          <p className="lk-field-error" id={`${kindsId}-error`}>
            {form.errors.kinds}
          </p>
        ) : null}
      </fieldset>
      <FormAlert />
      <div className="ld-form-actions">
        <BusyButton block={false}>Create key set</BusyButton>
      </div>
    </Form>
  );
}

function NewKeys({ set, onDone }: { set: ApiKeySetData<string>; onDone: () => void }) {
  return (
    <div className="ld-form">
      <p className="lk-alert ld-warning" role="alert">
        Copy these keys now: they will not be shown again. Keep them secret; anyone with them can act on this project.
      </p>
      {keyKinds.map(({ field, label }) => {
        const key = set[field];
        return key ? <CopyField key={field} label={label} value={key} /> : null;
      })}
      <p className="ld-muted">
        {set.description} · expires {formatDate(set.expiresAt)}
      </p>
      <div className="ld-form-actions">
        <button type="button" className="lk-button lk-button-primary" onClick={onDone}>
          I have copied the keys
        </button>
      </div>
    </div>
  );
}
