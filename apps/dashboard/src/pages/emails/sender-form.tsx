/**
 * The project's sender: the service's shared one, or its own SMTP server.
 * The SMTP password is write-only: the field starts empty and, left empty,
 * keeps the saved password (the service keeps it while host and username stay
 * the same). A test e-mail goes through the settings as typed, before saving.
 */
import { adminProjectQuery, type EmailConfig, type EmailConfigUpdate } from '@latchkey/js/admin';
import { BusyButton, Form, FormField, FormInputField, OutcomeNotice, useFormAction, useQuery } from '@latchkey/react';
import { useId, useState } from 'react';
import { useProject } from '../../project.js';
import { TextField } from '../../ui/fields.js';
import { refusalOf } from '../../ui/refusals.js';
import { isEmail } from './email-address.js';

const fields = ['host', 'port', 'username', 'password', 'senderName', 'senderEmail', 'recipient'] as const;
type Field = (typeof fields)[number];

type Standard = Extract<EmailConfig, { type: 'standard' }>;

/** Wire names of the SMTP fields, as the service names them in a refusal. */
const wireFields: Record<string, Field> = {
  host: 'host',
  port: 'port',
  username: 'username',
  password: 'password',
  sender_name: 'senderName',
  sender_email: 'senderEmail',
  recipient_email: 'recipient',
};

class TestEmailFailure extends Error {}

export function SenderForm() {
  const { adminApp } = useProject();
  const project = useQuery(adminProjectQuery, { suspend: true });
  const saved = project.config.emailConfig;
  const savedSmtp: Standard | null = saved.type === 'standard' ? saved : null;
  const [type, setType] = useState<EmailConfig['type']>(saved.type);
  const [host, setHost] = useState(savedSmtp?.host ?? '');
  const [port, setPort] = useState(savedSmtp ? String(savedSmtp.port) : '587');
  const [username, setUsername] = useState(savedSmtp?.username ?? '');
  const [password, setPassword] = useState('');
  const [senderName, setSenderName] = useState(savedSmtp?.senderName ?? project.displayName);
  const [senderEmail, setSenderEmail] = useState(savedSmtp?.senderEmail ?? '');
  const [recipient, setRecipient] = useState('');
  const form = useFormAction(fields);
  const radioName = useId();

  /** The saved password is kept (and used for a test) while host and username are the saved ones. */
  const keepsPassword = savedSmtp !== null && savedSmtp.host === host.trim() && savedSmtp.username === username;

  const checkSmtp = (): Partial<Record<Field, string>> => {
    const errors: Partial<Record<Field, string>> = {};
    if (!host.trim()) errors.host = 'Enter the SMTP server’s host name, e.g. smtp.example.com.';
    const portNumber = Number(port);
    if (!/^\d+$/.test(port.trim()) || portNumber < 1 || portNumber > 65_535) {
      errors.port = 'Enter a port number from 1 to 65535 (usually 587, or 465 for TLS).';
    }
    if (!password && username && !keepsPassword) {
      errors.password = savedSmtp
        ? 'Enter the password: the saved one is kept only while host and username stay the same.'
        : 'Enter the password of this SMTP user.';
    }
    if (senderName.length > 256) errors.senderName = 'Use at most 256 characters.';
    if (!isEmail(senderEmail)) errors.senderEmail = 'Enter the address mail is sent from, e.g. no-reply@example.com.';
    return errors;
  };

  const smtpFields = () => ({
    host: host.trim(),
    port: Number(port),
    username,
    senderName,
    senderEmail: senderEmail.trim(),
  });

  const refusal = (error: unknown) => refusalOf<Field>(error, wireFields);

  const save = () =>
    form.submit({
      as: 'saving',
      check: () => (type === 'standard' ? checkSmtp() : {}),
      work: async () => {
        const emailConfig: EmailConfigUpdate =
          type === 'shared' ? { type } : { type, ...smtpFields(), ...(password || !keepsPassword ? { password } : {}) };
        await adminApp.updateProject({ config: { emailConfig } });
        setPassword('');
        return type === 'shared'
          ? 'Saved: mail goes through the shared sender.'
          : 'Saved: mail goes through your SMTP server.';
      },
      refusal,
    });

  const sendTest = () =>
    form.submit({
      as: 'testing',
      check: () => {
        const errors = checkSmtp();
        if (!isEmail(recipient)) errors.recipient = 'Enter the address to send the test e-mail to.';
        return errors;
      },
      work: async () => {
        const to = recipient.trim();
        const result = await adminApp.sendTestEmail({
          recipientEmail: to,
          emailConfig: { ...smtpFields(), password: password || (keepsPassword ? (savedSmtp?.password ?? '') : '') },
        });
        if (!result.success) throw new TestEmailFailure(result.errorMessage || 'no reason given');
        return `The SMTP server accepted the test e-mail to ${to}.`;
      },
      refusal,
      describe: (error) =>
        error instanceof TestEmailFailure ? `The test e-mail was not sent: ${error.message}.` : null,
    });

  const changed = type !== saved.type || type === 'standard';

  return (
    <Form state={form} onSubmit={save} className="ld-form" aria-label="Sender">
      <fieldset className="ld-choice">
        <legend className="lk-label">Send mail through</legend>
        <label className="ld-choice-option">
          <input
            type="radio"
            name={radioName}
            value="shared"
            checked={type === 'shared'}
            onChange={() => setType('shared')}
          />
          <span>
            <strong>Shared sender</strong>
            <span className="ld-muted"> — the service’s own mail, nothing to set up.</span>
          </span>
        </label>
        <label className="ld-choice-option">
          <input
            type="radio"
            name={radioName}
            value="standard"
            checked={type === 'standard'}
            onChange={() => setType('standard')}
          />
          <span>
            <strong>Own SMTP server</strong>
            <span className="ld-muted"> — mail comes from your domain.</span>
          </span>
        </label>
      </fieldset>

      {type === 'standard' ? (
        <div className="ld-email-grid">
          <TextField field="host" label="Host" spellCheck={false} value={host} onValueChange={setHost} />
          <TextField field="port" label="Port" inputMode="numeric" value={port} onValueChange={setPort} />
          <TextField
            field="username"
            label="Username"
            spellCheck={false}
            value={username}
            onValueChange={setUsername}
          />
          <FormField
            name="password"
            label="Password"
            hint={keepsPassword ? 'Leave empty to keep the saved password.' : 'Never shown again once saved.'}
          >
            {(control) => (
              <input
                {...control}
                type="password"
                className="lk-input"
                autoComplete="new-password"
                value={password}
                onChange={(event) => {
                  setPassword(event.target.value);
                  form.edited('password');
                }}
              />
            )}
          </FormField>
          <TextField field="senderName" label="Sender name" value={senderName} onValueChange={setSenderName} />
          <FormInputField
            field="senderEmail"
            label="Sender address"
            value={senderEmail}
            onValueChange={setSenderEmail}
          />
        </div>
      ) : (
        <p className="ld-muted">
          The shared sender needs no settings. A test e-mail tries an SMTP server: choose “Own SMTP server” to try yours
          before you save it.
        </p>
      )}

      <div className="ld-form-actions">
        <BusyButton block={false} busy={form.pending === 'saving'} disabled={form.busy || !changed}>
          Save sender
        </BusyButton>
      </div>

      {type === 'standard' ? (
        <div className="ld-email-test">
          <FormInputField
            field="recipient"
            label="Send a test e-mail to"
            hint="Sent at once through the settings above, saved or not."
            value={recipient}
            onValueChange={setRecipient}
          />
          <BusyButton
            type="button"
            variant="secondary"
            block={false}
            busy={form.pending === 'testing'}
            busyChildren="Sending…"
            disabled={form.busy}
            onClick={sendTest}
          >
            Send a test e-mail
          </BusyButton>
        </div>
      ) : null}
      <OutcomeNotice />
    </Form>
  );
}
