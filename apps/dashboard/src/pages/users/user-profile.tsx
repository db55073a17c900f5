/** A user's profile: what they are called, their picture, primary e-mail, dates and id; and its edit form. */
import type { ServerUser } from '@latchkey/js/admin';
import { BusyButton, errorText, Form, FormAlert, useFormAction } from '@latchkey/react';
import { useState } from 'react';
import { CopyField } from '../../ui/copy-button.js';
import { FormDialog } from '../../ui/dialog.js';
import { TextField } from '../../ui/fields.js';
import { formatDateTime, formatRelative } from '../../ui/format.js';
import { Badge, DetailList, Section } from '../../ui/page.js';

const notSet = <span className="ld-muted">Not set</span>;

function PrimaryEmail({ user }: { user: ServerUser }) {
  if (!user.primaryEmail) return <span className="ld-muted">None</span>;
  return (
    <span className="ld-user-inline">
      {user.primaryEmail}{' '}
      {user.primaryEmailVerified ? <Badge tone="success">Verified</Badge> : <Badge tone="warning">Unverified</Badge>}
    </span>
  );
}

export function UserProfileSection({ user }: { user: ServerUser }) {
  return (
    <Section
      title="Profile"
      id="profile"
      actions={
        <FormDialog trigger="Edit profile" title="Edit profile" variant="secondary">
          {(close) => <EditProfileForm user={user} onDone={close} />}
        </FormDialog>
      }
    >
      <DetailList
        items={[
          ['Display name', user.displayName ?? notSet],
          [
            'Profile image URL',
            user.profileImageUrl ? (
              <span key="image" className="ld-mono">
                {user.profileImageUrl}
              </span>
            ) : (
              notSet
            ),
          ],
          ['Primary e-mail', <PrimaryEmail key="email" user={user} />],
          ['Signed up', formatDateTime(user.signedUpAt)],
          [
            'Last active',
            <time key="active" dateTime={user.lastActiveAt.toISOString()} title={formatDateTime(user.lastActiveAt)}>
              {formatRelative(user.lastActiveAt)}
            </time>,
          ],
        ]}
      />
      <CopyField label="User ID" value={user.id} />
    </Section>
  );
}

const maxDisplayName = 256;

/** Blank, an absolute http(s) URL, or an image as a `data:` URL (what the service takes). */
function imageUrlProblem(value: string): string | undefined {
  const text = value.trim();
  if (!text || /^data:image\/[a-z0-9.+-]+;base64,/i.test(text)) return undefined;
  try {
    const url = new URL(text);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && text.length <= 2048) return undefined;
  } catch {}
  return 'Enter an absolute URL starting with https:// (at most 2048 characters), or leave it empty.';
}

function EditProfileForm({ user, onDone }: { user: ServerUser; onDone: () => void }) {
  const [displayName, setDisplayName] = useState(user.displayName ?? '');
  const [imageUrl, setImageUrl] = useState(user.profileImageUrl ?? '');
  const form = useFormAction(['displayName', 'profileImageUrl'] as const);
  const submit = () =>
    form.submit({
      check: () => ({
        displayName:
          displayName.trim().length > maxDisplayName
            ? `A display name has at most ${maxDisplayName} characters.`
            : undefined,
        profileImageUrl: imageUrlProblem(imageUrl),
      }),
      work: async () => {
        await user.update({
          displayName: displayName.trim() || null,
          profileImageUrl: imageUrl.trim() || null,
        });
        onDone();
      },
      refusal: (error) => {
        const text = errorText(error, undefined);
        if (/profile_image_url/i.test(text)) return { profileImageUrl: text };
        if (/display_name/i.test(text)) return { displayName: text };
        return null;
      },
    });
  return (
    <Form state={form} onSubmit={submit} className="ld-form">
      <TextField
        field="displayName"
        label="Display name"
        hint="Leave empty for none."
        value={displayName}
        onValueChange={setDisplayName}
      />
      <TextField
        field="profileImageUrl"
        label="Profile image URL"
        inputMode="url"
        placeholder="https://…"
        value={imageUrl}
        onValueChange={setImageUrl}
      />
      <FormAlert />
      <div className="ld-form-actions">
        <BusyButton block={false}>Save profile</BusyButton>
      </div>
    </Form>
  );
}
