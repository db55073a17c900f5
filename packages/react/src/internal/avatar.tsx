/** The user's picture, or their initials; a picture that fails to load falls back to the initials. */
import type { CurrentUser } from '@latchkey/js';
import { useState } from 'react';
import { cx } from './root-props.js';

/**
 * A round avatar of `user` (or a team: its name and picture), decorative (the
 * name is written beside it); `large` in account settings.
 */
export function Avatar({
  user,
  large = false,
  className: extra,
}: {
  user: Pick<CurrentUser, 'displayName' | 'primaryEmail' | 'profileImageUrl'>;
  large?: boolean;
  className?: string;
}) {
  // Remembers which URL failed, so that a new picture is tried again.
  const [brokenUrl, setBrokenUrl] = useState<string | null>(null);
  const className = cx('lk-avatar', large && 'lk-avatar-large', extra);
  const source = user.profileImageUrl;
  if (source && source !== brokenUrl) {
    return <img className={className} src={source} alt="" onError={() => setBrokenUrl(source)} />;
  }
  return (
    <span className={className} aria-hidden="true">
      {initialsOf(user)}
    </span>
  );
}

/** Up to two initials from the display name, else the first letter of the e-mail. */
export function initialsOf(user: Pick<CurrentUser, 'displayName' | 'primaryEmail'>): string {
  const words = (user.displayName ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) {
    const letters = words.length === 1 ? [words[0]] : [words[0], words[words.length - 1]];
    return letters
      .map((word) => Array.from(word ?? '')[0] ?? '')
      .join('')
      .toUpperCase();
  }
  return (Array.from(user.primaryEmail ?? '?')[0] ?? '?').toUpperCase();
}
