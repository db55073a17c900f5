/** `UserButton`: the signed-in user's avatar, opening a menu with who is signed in and "Sign out". */
import type { CurrentUser } from '@latchkey/js';
import { Suspense, useId, useState } from 'react';
import { useRootProps } from '../internal/auth-card.js';
import { errorText } from '../internal/error-text.js';
import { useApp } from '../provider.js';
import { Spinner } from '../spinner.js';
import { useUser } from '../use-user.js';
import { useMenu } from './use-menu.js';

/**
 * Props of `UserButton`.
 *
 * @example
 * ```tsx
 * <UserButton showName className="header-user" />
 * ```
 */
export interface UserButtonProps {
  /** Show the user's name (or e-mail) beside the avatar. */
  showName?: boolean;
  className?: string;
}

/**
 * An avatar button (picture or initials) with a menu showing the signed-in
 * user and a "Sign out" item. Renders nothing when nobody is signed in and a
 * placeholder while the user loads (it has its own Suspense boundary).
 *
 * @example
 * ```tsx
 * <header>
 *   <nav>…</nav>
 *   <UserButton showName />
 * </header>
 * ```
 */
export function UserButton(props: UserButtonProps) {
  const root = useRootProps(`lk-user-button${props.className ? ` ${props.className}` : ''}`);
  return (
    <Suspense
      fallback={
        <span {...root}>
          <span className="lk-avatar lk-avatar-loading" aria-hidden="true" />
        </span>
      }
    >
      <UserMenu {...props} />
    </Suspense>
  );
}

function UserMenu({ showName, className }: UserButtonProps) {
  const user = useUser();
  const app = useApp();
  const root = useRootProps(`lk-user-button${className ? ` ${className}` : ''}`);
  const menuId = useId();
  const { open, buttonProps, menuProps } = useMenu();
  const [signingOut, setSigningOut] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!user) return null;

  const name = user.displayName || user.primaryEmail || 'Account';
  const signOut = async () => {
    if (signingOut) return;
    setSigningOut(true);
    setError(null);
    try {
      await user.signOut({ redirectUrl: app.urls.afterSignOut });
    } catch (caught) {
      setError(errorText(caught, undefined));
      setSigningOut(false);
    }
  };

  return (
    <div {...root}>
      <button
        type="button"
        className="lk-user-trigger"
        aria-controls={open ? menuId : undefined}
        aria-label={`Account menu for ${name}`}
        {...buttonProps}
      >
        <Avatar user={user} />
        {showName ? <span className="lk-user-trigger-name">{name}</span> : null}
        <svg className="lk-chevron" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
          <path d="M4 6.5 8 10l4-3.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
      </button>
      {open ? (
        <div {...menuProps} role="menu" className="lk-menu" id={menuId} aria-label="Account">
          <div className="lk-menu-header">
            <Avatar user={user} />
            <div className="lk-menu-identity">
              {user.displayName ? <p className="lk-menu-name">{user.displayName}</p> : null}
              {user.primaryEmail ? <p className="lk-menu-email">{user.primaryEmail}</p> : null}
            </div>
          </div>
          <hr className="lk-menu-separator" />
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className="lk-menu-item"
            aria-busy={signingOut}
            aria-disabled={signingOut || undefined}
            onClick={signOut}
          >
            {signingOut ? <Spinner /> : <SignOutIcon />}
            <span>{signingOut ? 'Signing out…' : 'Sign out'}</span>
          </button>
          {error ? (
            <p className="lk-menu-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function Avatar({ user }: { user: CurrentUser }) {
  const [broken, setBroken] = useState(false);
  if (user.profileImageUrl && !broken) {
    return <img className="lk-avatar" src={user.profileImageUrl} alt="" onError={() => setBroken(true)} />;
  }
  return (
    <span className="lk-avatar" aria-hidden="true">
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

function SignOutIcon() {
  return (
    <svg className="lk-menu-icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
      <path
        d="M10 4H6a1 1 0 0 0-1 1v14a1 1 0 0 0 1 1h4M15 8l4 4-4 4M19 12H9"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
