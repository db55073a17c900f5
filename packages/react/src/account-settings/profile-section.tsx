/** The Profile section: the display name, the profile picture, and deleting the account (when allowed). */
import type { CurrentUser } from '@latchkey/js';
import { type ChangeEvent, useRef, useState } from 'react';
import { OutcomeNotice } from '../form/alert.js';
import { Form, FormField } from '../form/form.js';
import { BusyButton } from '../form/submit-button.js';
import { useFormAction } from '../form/use-form-action.js';
import { Avatar } from '../internal/avatar.js';
import { errorText } from '../internal/error-text.js';
import { useLabels, useMessages } from '../internal/text.js';
import { useUser } from '../use-user.js';
import { accountSettingsLabels } from './account-settings-labels.js';
import { DeleteAccountBlock } from './delete-account-block.js';
import { isImageUrl, ProfileImageError } from './profile-image.js';
import { SettingsActions, SettingsBlock } from './settings-parts.js';

/** The service's limit on a display name. */
const displayNameMaxLength = 256;

/**
 * The Profile section's content: a display name form (Save and Cancel appear
 * once it is changed), the profile picture (upload, an image URL, or remove),
 * and "Delete account" when the project lets users delete themselves.
 */
export function ProfileSection() {
  const user = useUser({ or: 'redirect' });
  return (
    <>
      <DisplayNameBlock user={user} />
      <ProfileImageBlock user={user} />
      <DeleteAccountBlock />
    </>
  );
}

function DisplayNameBlock({ user }: { user: CurrentUser }) {
  const labels = useLabels(accountSettingsLabels);
  const messages = useMessages();
  const saved = user.displayName ?? '';
  const [value, setValue] = useState(saved);
  const action = useFormAction(['name'] as const);
  const { busy, outcome } = action;
  const changed = value.trim() !== saved;

  // Another tab or a save here changed the name: show the stored one. Done while rendering, on a change only:
  // an effect would also run once after mounting, and wipe what was typed before it ran.
  const [shown, setShown] = useState(saved);
  if (shown !== saved) {
    setShown(saved);
    setValue(saved);
  }

  const onSubmit = () => {
    if (!changed) return;
    const name = value.trim();
    return action.submit({
      work: async () => {
        await user.update({ displayName: name || null });
        return labels.accountSaved;
      },
      // The service's refusal is about the one field: it shows there.
      refusal: (error) => ({ name: errorText(error, messages) }),
    });
  };
  const cancel = () => {
    setValue(saved);
    action.setErrors({});
    action.setOutcome(null);
    action.focus('name');
  };

  return (
    <SettingsBlock title={labels.accountDisplayNameTitle} description={labels.accountDisplayNameDescription}>
      <Form state={action} onSubmit={onSubmit} className="lk-settings-form">
        <FormField name="name" label={labels.accountDisplayNameLabel}>
          {(control) => (
            <input
              {...control}
              className="lk-input"
              name="displayName"
              autoComplete="name"
              maxLength={displayNameMaxLength}
              placeholder={labels.accountDisplayNamePlaceholder}
              value={value}
              onChange={(event) => {
                setValue(event.target.value);
                action.edited('name');
                if (outcome) action.setOutcome(null);
              }}
              onKeyDown={(event) => {
                if (event.key === 'Escape' && changed) {
                  event.preventDefault();
                  cancel();
                }
              }}
            />
          )}
        </FormField>
        {changed || busy ? <SettingsActions onCancel={cancel} /> : null}
        <OutcomeNotice />
      </Form>
    </SettingsBlock>
  );
}

function ProfileImageBlock({ user }: { user: CurrentUser }) {
  const labels = useLabels(accountSettingsLabels);
  const fileRef = useRef<HTMLInputElement>(null);
  const [url, setUrl] = useState('');
  const action = useFormAction(['url'] as const);
  const { busy, run } = action;

  const describeImageError = (error: unknown) =>
    error instanceof ProfileImageError
      ? error.reason === 'unreadable'
        ? labels.accountImageUnreadable
        : labels.accountImageTooLarge
      : null;

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Let the same file be chosen again after a failure.
    event.target.value = '';
    if (!file) return;
    await run(async () => {
      // The encoder loads on the first chosen file: a page that never uploads one does not carry it.
      const { imageFileToDataUrl } = await import('./profile-image-file.js');
      const dataUrl = await imageFileToDataUrl(file);
      await user.update({ profileImageUrl: dataUrl });
      return labels.accountImageUpdated;
    }, describeImageError);
  };

  const onUrl = async () => {
    const value = url.trim();
    const done = await action.submit({
      check: () => ({ url: isImageUrl(value) ? undefined : labels.accountImageUrlInvalid }),
      work: async () => {
        await user.update({ profileImageUrl: value });
        return labels.accountImageUpdated;
      },
    });
    if (done) setUrl('');
  };

  const remove = () =>
    run(async () => {
      await user.update({ profileImageUrl: null });
      return labels.accountImageRemoved;
    });

  return (
    <SettingsBlock title={labels.accountImageTitle} description={labels.accountImageDescription}>
      <div className="lk-profile-image">
        <Avatar user={user} large />
        <div className="lk-settings-actions">
          <BusyButton
            type="button"
            variant="secondary"
            block={false}
            busy={busy}
            onClick={() => fileRef.current?.click()}
          >
            {labels.accountImageUpload}
          </BusyButton>
          {user.profileImageUrl ? (
            <button type="button" className="lk-button lk-button-secondary" disabled={busy} onClick={remove}>
              {labels.accountImageRemove}
            </button>
          ) : null}
          <input
            ref={fileRef}
            type="file"
            accept="image/*"
            hidden
            tabIndex={-1}
            aria-label={labels.accountImageUpload}
            onChange={onFile}
          />
        </div>
      </div>
      <Form state={action} onSubmit={onUrl} className="lk-settings-form lk-settings-inline-form">
        <FormField name="url" label={labels.accountImageUrlLabel}>
          {(control) => (
            <input
              {...control}
              className="lk-input"
              type="url"
              name="profileImageUrl"
              inputMode="url"
              autoCapitalize="none"
              spellCheck={false}
              placeholder="https://"
              value={url}
              onChange={(event) => {
                setUrl(event.target.value);
                action.edited('url');
              }}
            />
          )}
        </FormField>
        <BusyButton variant="secondary" block={false}>
          {labels.accountImageUrlSubmit}
        </BusyButton>
        <OutcomeNotice />
      </Form>
    </SettingsBlock>
  );
}
