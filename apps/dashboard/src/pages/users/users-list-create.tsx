/** The "Create user" dialog of the users list: e-mail, display name, an optional password, whether the e-mail is verified. */
import { BusyButton, errorText, Form, FormAlert, FormInputField, PasswordInput, useFormAction } from '@latchkey/react';
import { useState } from 'react';
import { useProject } from '../../project.js';
import { navigate } from '../../router.js';
import { FormDialog } from '../../ui/dialog.js';
import { TextField } from '../../ui/fields.js';
import { SwitchField } from '../../ui/switch.js';

const fields = ['email', 'displayName', 'password'] as const;
type Field = (typeof fields)[number];

/** Just enough of an address to catch slips before sending; the service has the last word. */
const plausibleEmail = /^[^\s@]+@[^\s@]+$/;

export function CreateUserDialog() {
  return (
    <FormDialog trigger="Create user" title="Create a user">
      {(close) => <CreateUserForm onCreated={close} />}
    </FormDialog>
  );
}

function CreateUserForm({ onCreated }: { onCreated: () => void }) {
  const { projectId, adminApp } = useProject();
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [verified, setVerified] = useState(false);
  const form = useFormAction(fields);
  const check = () => {
    const errors: Partial<Record<Field, string>> = {};
    const address = email.trim();
    if (!address) errors.email = 'Enter the e-mail address of the user.';
    else if (!plausibleEmail.test(address)) errors.email = 'Enter an e-mail address such as ada@example.com.';
    if (displayName.length > 256) errors.displayName = 'Keep the display name under 256 characters.';
    return errors;
  };
  return (
    <Form
      state={form}
      className="ld-form"
      onSubmit={() =>
        form.submit({
          check,
          work: async () => {
            const user = await adminApp.createUser({
              primaryEmail: email.trim(),
              primaryEmailVerified: verified,
              // The address signs in (password, magic link) as for a user who signed up.
              primaryEmailAuthEnabled: true,
              ...(displayName.trim() ? { displayName: displayName.trim() } : {}),
              ...(password ? { password } : {}),
            });
            onCreated();
            navigate(`/projects/${encodeURIComponent(projectId)}/users/${encodeURIComponent(user.id)}`);
          },
          refusal: (error): Partial<Record<Field, string>> | null => {
            // A refusal of the service is a known error, named by its code.
            const code = (error as { code?: unknown } | null)?.code;
            if (code === 'USER_EMAIL_ALREADY_EXISTS') {
              return { email: 'A user of this project already has this e-mail address.' };
            }
            if (typeof code === 'string' && code.startsWith('PASSWORD_')) {
              return { password: errorText(error, undefined) };
            }
            return null;
          },
        })
      }
    >
      <FormInputField field="email" label="E-mail" value={email} onValueChange={setEmail} autoComplete="off" />
      <TextField
        field="displayName"
        label="Display name (optional)"
        value={displayName}
        onValueChange={setDisplayName}
      />
      <FormInputField
        input={PasswordInput}
        field="password"
        label="Password (optional)"
        hint="Without one, the user signs in another way (a magic link, a passkey, a provider)."
        value={password}
        onValueChange={setPassword}
        autoComplete="new-password"
      />
      <SwitchField label="E-mail verified" checked={verified} onCheckedChange={setVerified} />
      <FormAlert />
      <div className="ld-form-actions">
        <BusyButton>Create user</BusyButton>
      </div>
    </Form>
  );
}
