'use client';
import { type ForwardedRef, forwardRef, type HTMLAttributes, Suspense, useId, useState } from 'react';
import { Avatar } from '../internal/avatar.js';
import { errorText } from '../internal/error-text.js';
import { Icon } from '../internal/icon.js';
import { useRootProps } from '../internal/root-props.js';
import { useLabels, useMessages } from '../internal/text.js';
import { useApp } from '../provider.js';
import { Spinner } from '../spinner.js';
import { useUser } from '../use-user.js';
import { useMenu } from './use-menu.js';
import { userButtonLabels } from './user-button-labels.js';

/**
 * Props of `UserButton`: `showName`, and any `<div>` prop for its root
 * element (`className`, `id`, `data-*`…).
 *
 * @example
 * ```tsx
 * <UserButton showName className="header-user" />
 * ```
 */
export interface UserButtonProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** Show the user's name (or e-mail) beside the avatar. */
  showName?: boolean;
}

/**
 * An avatar button (picture or initials) with a menu showing the signed-in
 * user and a "Sign out" item. Renders nothing when nobody is signed in and a
 * placeholder while the user loads (it has its own Suspense boundary).
 * Other props and the ref go to its root element (the placeholder's while
 * loading). Its texts are the `accountMenuFor`, `accountMenu`, `accountMenuSettings`, `signOut` and
 * `signingOut` labels.
 *
 * @example
 * ```tsx
 * <header>
 *   <nav>…</nav>
 *   <UserButton showName />
 * </header>
 * ```
 */
export const UserButton = forwardRef<HTMLDivElement, UserButtonProps>(function UserButton(
  { showName, className, ...rest },
  ref,
) {
  const root = useRootProps('lk-user-button', className);
  return (
    <Suspense
      fallback={
        <span {...(rest as HTMLAttributes<HTMLSpanElement>)} {...root} ref={ref as ForwardedRef<HTMLSpanElement>}>
          <span className="lk-avatar lk-avatar-loading" aria-hidden="true" />
        </span>
      }
    >
      <UserMenu {...rest} root={root} showName={showName} forwardedRef={ref} />
    </Suspense>
  );
});

interface UserMenuProps extends Omit<UserButtonProps, 'className'> {
  root: ReturnType<typeof useRootProps>;
  forwardedRef: ForwardedRef<HTMLDivElement>;
}

function UserMenu({ showName, root, forwardedRef, ...rest }: UserMenuProps) {
  const user = useUser();
  const app = useApp();
  const labels = useLabels(userButtonLabels);
  const messages = useMessages();
  const menuId = useId();
  const { open, buttonProps, menuProps } = useMenu();
  const [signingOut, setSigningOut] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  if (!user) return null;

  const name = user.displayName || user.primaryEmail || labels.accountMenu;
  const signOut = async () => {
    if (signingOut) return;
    setSigningOut(true);
    setFailure(null);
    try {
      await user.signOut({ redirectUrl: app.urls.afterSignOut });
    } catch (error) {
      setFailure({ error });
      setSigningOut(false);
    }
  };

  return (
    <div {...rest} {...root} ref={forwardedRef}>
      <button
        type="button"
        className="lk-user-trigger"
        aria-controls={open ? menuId : undefined}
        aria-label={labels.accountMenuFor({ name })}
        {...buttonProps}
      >
        <Avatar user={user} />
        {showName ? <span className="lk-user-trigger-name">{name}</span> : null}
        <Icon name="chevron-down" size={14} className="lk-chevron" />
      </button>
      {open ? (
        <div {...menuProps} role="menu" className="lk-menu" id={menuId} aria-label={labels.accountMenu}>
          <div className="lk-menu-header">
            <Avatar user={user} />
            <div className="lk-menu-identity">
              {user.displayName ? <p className="lk-menu-name">{user.displayName}</p> : null}
              {user.primaryEmail ? <p className="lk-menu-email">{user.primaryEmail}</p> : null}
            </div>
          </div>
          <hr className="lk-menu-separator" />
          <a role="menuitem" tabIndex={-1} className="lk-menu-item" href={app.urls.accountSettings}>
            <Icon name="user" size={16} className="lk-menu-icon" />
            <span>{labels.accountMenuSettings}</span>
          </a>
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className="lk-menu-item"
            aria-busy={signingOut}
            aria-disabled={signingOut || undefined}
            onClick={signOut}
          >
            {signingOut ? <Spinner /> : <Icon name="sign-out" size={16} className="lk-menu-icon" />}
            <span>{signingOut ? labels.signingOut : labels.signOut}</span>
          </button>
          {failure ? (
            <p className="lk-menu-error" role="alert">
              {errorText(failure.error, messages)}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
