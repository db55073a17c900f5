/**
 * `JsonEditor`: a metadata field (client, client read-only, server) as JSON
 * text, checked as typed: text that is not a JSON object is refused in place
 * (the error under the field, nothing sent). Saving goes through the form kit,
 * so the service's refusal shows beside the field too.
 */
import { BusyButton, errorText, Form, FormAlert, FormField, useFormAction } from '@latchkey/react';
import { useState } from 'react';
import { SavedNotice } from './fields.js';

export interface JsonEditorProps {
  label: string;
  hint?: string;
  /** The saved value (`null`: not set). */
  value: unknown;
  /** Saves the new value (an object, or `null` for empty text). */
  onSave: (value: Record<string, unknown> | null) => Promise<unknown>;
}

/** The text's value: an object, `null` for blank text, or an error message. */
export function parseJsonObject(text: string): { value: Record<string, unknown> | null } | { error: string } {
  if (!text.trim()) return { value: null };
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { error: 'Enter a JSON object, e.g. {"plan": "pro"}, or leave it empty.' };
    }
    return { value: value as Record<string, unknown> };
  } catch (error) {
    return { error: `This is not valid JSON: ${(error as Error).message}` };
  }
}

const show = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value, null, 2));

export function JsonEditor({ label, hint, value, onSave }: JsonEditorProps) {
  const [text, setText] = useState(() => show(value));
  const [saved, setSaved] = useState(() => show(value));
  const form = useFormAction(['json'] as const);
  const submit = () => {
    const parsed = parseJsonObject(text);
    return form.submit({
      check: () => ('error' in parsed ? { json: parsed.error } : {}),
      work: async () => {
        if ('error' in parsed) return;
        await onSave(parsed.value);
        setSaved(show(parsed.value));
        setText(show(parsed.value));
        return `${label} saved.`;
      },
      refusal: (error) => ({ json: errorText(error, undefined) }),
    });
  };
  return (
    <Form state={form} onSubmit={submit} className="ld-form">
      <FormField name="json" label={label} hint={hint}>
        {(control) => (
          <textarea
            {...control}
            className="lk-input ld-code-input"
            spellCheck={false}
            rows={Math.min(14, Math.max(4, text.split('\n').length + 1))}
            value={text}
            placeholder="{}"
            onChange={(event) => {
              setText(event.target.value);
              form.edited('json');
            }}
          />
        )}
      </FormField>
      <FormAlert />
      <div className="ld-form-actions">
        <BusyButton block={false} disabled={text === saved}>
          Save {label.toLowerCase()}
        </BusyButton>
        <SavedNotice form={form} />
      </div>
    </Form>
  );
}
