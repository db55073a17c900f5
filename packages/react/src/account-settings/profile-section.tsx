/** The Profile section: the display name and the profile picture. */
import type { CurrentUser } from '@latchkey/js';
import { type ChangeEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import { Avatar } from '../internal/avatar.js';
import { Field } from '../internal/field.js';
import { useLabels } from '../internal/text.js';
import { Spinner } from '../spinner.js';
import { useUser } from '../use-user.js';
import { imageFileToDataUrl, isImageUrl, ProfileImageError } from './profile-image.js';
import { OutcomeNotice, SettingsBlock, useAction } from './settings-parts.js';

/** The service's limit on a display name. */
const displayNameMaxLength = 256;

/**
 * The Profile section's content: a display name form (Save and Cancel appear
 * once it is changed) and the profile picture (upload, an image URL, or remove).
 */
export function ProfileSection() {
  const user = useUser({ or: 'redirect' });
  return (
    <>
      <DisplayNameBlock user={user} />
      <ProfileImageBlock user={user} />
    </>
  );
}

function DisplayNameBlock({ user }: { user: CurrentUser }) {
  const labels = useLabels();
  const saved = user.displayName ?? '';
  const [value, setValue] = useState(saved);
  const inputRef = useRef<HTMLInputElement>(null);
  const { busy, outcome, setOutcome, run } = useAction();
  const changed = value.trim() !== saved;

  // Another tab or a save here changed the name: show the stored one.
  useEffect(() => setValue(saved), [saved]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!changed) return;
    const name = value.trim();
    const done = await run(async () => {
      await user.update({ displayName: name || null });
      return labels.accountSaved;
    });
    if (!done) inputRef.current?.focus();
  };
  const cancel = () => {
    setValue(saved);
    setOutcome(null);
    inputRef.current?.focus();
  };

  return (
    <SettingsBlock title={labels.accountDisplayNameTitle} description={labels.accountDisplayNameDescription}>
      <form className="lk-settings-form" noValidate onSubmit={onSubmit}>
        <Field label={labels.accountDisplayNameLabel} error={outcome?.kind === 'error' ? outcome.text : undefined}>
          {(control) => (
            <input
              {...control}
              ref={inputRef}
              className="lk-input"
              name="displayName"
              autoComplete="name"
              maxLength={displayNameMaxLength}
              placeholder={labels.accountDisplayNamePlaceholder}
              value={value}
              onChange={(event) => {
                setValue(event.target.value);
                if (outcome) setOutcome(null);
              }}
              onKeyDown={(event) => {
                if (event.key === 'Escape' && changed) {
                  event.preventDefault();
                  cancel();
                }
              }}
            />
          )}
        </Field>
        {changed || busy ? (
          <div className="lk-settings-actions">
            <button type="submit" className="lk-button lk-button-primary" disabled={busy} aria-busy={busy}>
              {busy ? <Spinner /> : null}
              <span>{busy ? labels.accountSaving : labels.accountSave}</span>
            </button>
            <button type="button" className="lk-button lk-button-secondary" disabled={busy} onClick={cancel}>
              {labels.accountCancel}
            </button>
          </div>
        ) : null}
        <OutcomeNotice outcome={outcome?.kind === 'success' ? outcome : null} />
      </form>
    </SettingsBlock>
  );
}

function ProfileImageBlock({ user }: { user: CurrentUser }) {
  const labels = useLabels();
  const fileRef = useRef<HTMLInputElement>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const { busy, outcome, run } = useAction();

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
      const dataUrl = await imageFileToDataUrl(file);
      await user.update({ profileImageUrl: dataUrl });
      return labels.accountImageUpdated;
    }, describeImageError);
  };

  const onUrl = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = url.trim();
    if (!isImageUrl(value)) {
      setUrlError(labels.accountImageUrlInvalid);
      urlRef.current?.focus();
      return;
    }
    setUrlError(null);
    const done = await run(async () => {
      await user.update({ profileImageUrl: value });
      return labels.accountImageUpdated;
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
          <button
            type="button"
            className="lk-button lk-button-secondary"
            disabled={busy}
            aria-busy={busy}
            onClick={() => fileRef.current?.click()}
          >
            {busy ? <Spinner /> : null}
            <span>{labels.accountImageUpload}</span>
          </button>
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
      <form className="lk-settings-form lk-settings-inline-form" noValidate onSubmit={onUrl}>
        <Field label={labels.accountImageUrlLabel} error={urlError ?? undefined}>
          {(control) => (
            <input
              {...control}
              ref={urlRef}
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
                setUrlError(null);
              }}
            />
          )}
        </Field>
        <button type="submit" className="lk-button lk-button-secondary" disabled={busy}>
          {labels.accountImageUrlSubmit}
        </button>
      </form>
      <OutcomeNotice outcome={outcome} />
    </SettingsBlock>
  );
}
