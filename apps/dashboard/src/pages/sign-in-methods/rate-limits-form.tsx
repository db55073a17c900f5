/**
 * The project's limits on guessing (`config.rate_limits`) as a form: each a
 * whole number within the bounds the service keeps (never 0, which would be
 * no limit at all). A service that predates them has nothing to show.
 */
import type { AdminProject, RateLimits } from '@latchkey/js/admin';
import { BusyButton, errorText, Form, FormAlert, useFormAction } from '@latchkey/react';
import { useState } from 'react';
import { useProject } from '../../project.js';
import { SavedNotice, TextField } from '../../ui/fields.js';
import { Section } from '../../ui/page.js';
import { EmptyState } from '../../ui/states.js';

type Key = keyof RateLimits;

const limits: { key: Key; wire: string; label: string; hint: string; max: number }[] = [
  {
    key: 'signInFailuresPerAccount',
    wire: 'sign_in_failures_per_account',
    label: 'Wrong passwords per account',
    hint: 'Before each further sign-in of the account waits, from 1 s doubling up to 15 minutes.',
    max: 100,
  },
  {
    key: 'signInFailuresPerClient',
    wire: 'sign_in_failures_per_client',
    label: 'Failed sign-ins per client address',
    hint: 'On any accounts, before the same back-off holds that address.',
    max: 10_000,
  },
  {
    key: 'signUpsPerClient',
    wire: 'sign_ups_per_client',
    label: 'Sign-ups per client address',
    hint: 'Password sign-ups in ten minutes.',
    max: 10_000,
  },
  {
    key: 'mailsPerAddress',
    wire: 'mails_per_address',
    label: 'Mails per address',
    hint: 'Mails of one kind (reset, sign-in link, verification, invitation) to one address in ten minutes.',
    max: 100,
  },
  {
    key: 'mailsPerClient',
    wire: 'mails_per_client',
    label: 'Code mails per client address',
    hint: 'Mails with a code requested from one address in ten minutes.',
    max: 10_000,
  },
  {
    key: 'codeChecksPerClient',
    wire: 'code_checks_per_client',
    label: 'Code checks per client address',
    hint: 'Codes checked from one address in ten minutes (passkey sign-ins are counted apart, under the same number).',
    max: 10_000,
  },
];

const keys = limits.map((limit) => limit.key);

export function RateLimitsForm({ project }: { project: AdminProject }) {
  const saved = project.config.rateLimits;
  return (
    <Section title="Rate limits" description="How much guessing the service allows before it slows down or refuses.">
      {saved ? (
        <LimitsForm saved={saved} />
      ) : (
        <EmptyState title="Not available">This service has no rate-limit settings.</EmptyState>
      )}
    </Section>
  );
}

function LimitsForm({ saved }: { saved: RateLimits }) {
  const { adminApp } = useProject();
  const [values, setValues] = useState<Record<Key, string>>(
    () => Object.fromEntries(keys.map((key) => [key, String(saved[key])])) as Record<Key, string>,
  );
  const form = useFormAction(keys);
  const changed = keys.some((key) => values[key] !== String(saved[key]));
  return (
    <Form
      state={form}
      className="ld-form"
      aria-label="Rate limits"
      onSubmit={() =>
        form.submit({
          check: () => {
            const errors: Partial<Record<Key, string>> = {};
            for (const { key, max } of limits) {
              const text = values[key].trim();
              const value = Number(text);
              if (!/^\d+$/.test(text) || value < 1 || value > max) {
                errors[key] = `Enter a whole number from 1 to ${max.toLocaleString()}.`;
              }
            }
            return errors;
          },
          work: async () => {
            const update: Partial<RateLimits> = {};
            for (const key of keys) if (values[key] !== String(saved[key])) update[key] = Number(values[key]);
            await adminApp.updateProject({ config: { rateLimits: update } });
            return 'Rate limits saved.';
          },
          refusal: (error) => {
            const message = String((error as Error).message);
            const limit = limits.find(({ wire }) => message.includes(wire));
            return limit ? { [limit.key]: errorText(error, undefined) } : null;
          },
        })
      }
    >
      <div className="ld-limits-grid">
        {limits.map(({ key, label, hint }) => (
          <TextField
            key={key}
            field={key}
            label={label}
            hint={hint}
            inputMode="numeric"
            value={values[key]}
            onValueChange={(value) => setValues((current) => ({ ...current, [key]: value }))}
          />
        ))}
      </div>
      <FormAlert />
      <div className="ld-form-actions">
        <BusyButton block={false} disabled={!changed && !form.busy}>
          Save rate limits
        </BusyButton>
        <SavedNotice form={form} hidden={changed} />
      </div>
    </Form>
  );
}
