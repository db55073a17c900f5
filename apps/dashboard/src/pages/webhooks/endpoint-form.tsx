/**
 * A new webhook endpoint: its URL, what it is, which events it gets. Once
 * registered, its signing secret is shown here, this once, with a copy button.
 */
import { BusyButton, errorText, Form, FormAlert, useFormAction } from '@latchkey/react';
import { useId, useState } from 'react';
import { useProject } from '../../project.js';
import { TextField } from '../../ui/fields.js';
import { webhookEventTypes } from './event-types.js';
import { SecretNotice } from './secret-notice.js';

const fields = ['url', 'description', 'eventTypes'] as const;

/** Why `text` cannot be an endpoint URL as typed, or null. */
function urlProblem(text: string): string | null {
  if (!text.trim()) return 'Enter the URL the events are sent to.';
  try {
    const url = new URL(text.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The URL must start with https:// (or http://).';
    return null;
  } catch {
    return 'Enter a full URL, e.g. https://api.example.com/hooks/latchkey.';
  }
}

export function CreateEndpointForm({ onDone }: { onDone: () => void }) {
  const { adminApp } = useProject();
  const form = useFormAction(fields);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [every, setEvery] = useState(true);
  const [chosen, setChosen] = useState<readonly string[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const typesId = useId();

  if (secret) {
    return (
      <div className="ld-form">
        <SecretNotice secret={secret} />
        <div className="ld-form-actions">
          <button type="button" className="lk-button lk-button-primary" onClick={onDone}>
            I have copied the secret
          </button>
        </div>
      </div>
    );
  }

  const submit = () =>
    form.submit({
      check: () => {
        const problem = urlProblem(url);
        return {
          ...(problem ? { url: problem } : {}),
          ...(!every && chosen.length === 0 ? { eventTypes: 'Choose at least one event type, or all of them.' } : {}),
        };
      },
      work: async () => {
        const created = await adminApp.createWebhookEndpoint({
          url: url.trim(),
          description: description.trim(),
          eventTypes: every ? null : chosen,
        });
        setSecret(created.secret);
      },
      refusal: (error) => {
        const code = (error as { code?: string }).code;
        const message = error instanceof Error ? error.message : '';
        const problem = /body\.url:\s*([^\n.]+)/.exec(message)?.[1];
        if (code === 'SCHEMA_ERROR' && problem) return { url: `The service refused this URL: it ${problem}.` };
        if (code === 'WEBHOOK_ENDPOINT_LIMIT_REACHED') return { url: errorText(error, undefined) };
        return null;
      },
    });

  return (
    <Form state={form} onSubmit={submit} className="ld-form">
      <TextField
        inputMode="url"
        field="url"
        label="Endpoint URL"
        hint="Where the service POSTs the events, e.g. https://api.example.com/hooks/latchkey."
        value={url}
        onValueChange={setUrl}
        spellCheck={false}
      />
      <TextField
        field="description"
        label="Description (optional)"
        value={description}
        onValueChange={setDescription}
        maxLength={500}
      />
      <fieldset className="ld-fieldset" aria-describedby={form.errors.eventTypes ? `${typesId}-error` : undefined}>
        <legend className="lk-label">Events to send</legend>
        <label className="ld-checkbox">
          <input
            type="checkbox"
            ref={form.ref('eventTypes')}
            checked={every}
            onChange={(event) => {
              setEvery(event.target.checked);
              form.edited('eventTypes');
            }}
          />
          <span>All event types, present and future</span>
        </label>
        {every ? null : (
          <div className="ld-checkbox-columns">
            {webhookEventTypes.map(({ type, summary }) => (
              <label key={type} className="ld-checkbox">
                <input
                  type="checkbox"
                  checked={chosen.includes(type)}
                  onChange={(event) => {
                    const on = event.target.checked;
                    setChosen((now) => (on ? [...now, type] : now.filter((t) => t !== type)));
                    form.edited('eventTypes');
                  }}
                />
                <span>
                  <code className="ld-mono">{type}</code> <span className="ld-muted">{summary}</span>
                </span>
              </label>
            ))}
          </div>
        )}
        {form.errors.eventTypes ? (
          <p className="lk-field-error" id={`${typesId}-error`}>
            {form.errors.eventTypes}
          </p>
        ) : null}
      </fieldset>
      <FormAlert />
      <div className="ld-form-actions">
        <BusyButton block={false}>Add endpoint</BusyButton>
      </div>
    </Form>
  );
}
