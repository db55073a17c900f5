/** The columns of the users list: who, their e-mail, when they signed up and were last active, how they sign in. */
import type { ServerUser } from '@latchkey/js/admin';
import { providerName } from '@latchkey/react';
import { Link } from '../../router.js';
import type { ColumnDef } from '../../ui/data-table.js';
import { formatDateTime, formatRelative } from '../../ui/format.js';
import { Badge } from '../../ui/page.js';

/** What the list calls a user: their name, else their e-mail, else that they have neither. */
function userLabel(user: Pick<ServerUser, 'displayName' | 'primaryEmail'>): string {
  return user.displayName?.trim() || user.primaryEmail || 'Unnamed user';
}

function initials(user: ServerUser): string {
  const words = userLabel(user)
    .replace(/@.*/, '')
    .split(/[\s._-]+/)
    .filter(Boolean);
  return (
    words
      .slice(0, 2)
      .map((word) => word[0]!.toUpperCase())
      .join('') || '?'
  );
}

/** A profile picture over HTTPS (the dashboard's content policy allows no other), else the user's initials. */
function Avatar({ user }: { user: ServerUser }) {
  const url = user.profileImageUrl;
  if (url && /^(https:|data:image\/)/.test(url)) {
    return (
      <img
        className="ld-users-list-avatar"
        src={url}
        alt=""
        width={32}
        height={32}
        loading="lazy"
        referrerPolicy="no-referrer"
      />
    );
  }
  return (
    <span className="ld-users-list-avatar" aria-hidden="true">
      {initials(user)}
    </span>
  );
}

/** The ways a user can sign in, in words. */
function signInMethods(user: ServerUser): string[] {
  const methods: string[] = [];
  if (user.hasPassword) methods.push('Password');
  if (user.otpAuthEnabled) methods.push('Magic link');
  if (user.passkeyAuthEnabled) methods.push('Passkey');
  for (const provider of user.oauthProviders) methods.push(providerName({ id: provider.id }));
  return methods;
}

export function usersListColumns(projectId: string): ColumnDef<ServerUser>[] {
  const userPath = (user: ServerUser) =>
    `/projects/${encodeURIComponent(projectId)}/users/${encodeURIComponent(user.id)}`;
  return [
    {
      id: 'user',
      header: 'User',
      enableSorting: false,
      cell: ({ row: { original: user } }) => (
        <div className="ld-users-list-who">
          <Avatar user={user} />
          <Link to={userPath(user)}>{userLabel(user)}</Link>
        </div>
      ),
    },
    {
      id: 'primaryEmail',
      header: 'Primary e-mail',
      enableSorting: false,
      cell: ({ row: { original: user } }) =>
        user.primaryEmail ? (
          <span>
            <span>{user.primaryEmail}</span>{' '}
            {user.primaryEmailVerified ? <Badge tone="success">Verified</Badge> : <Badge>Unverified</Badge>}
          </span>
        ) : (
          <span className="ld-muted">None</span>
        ),
    },
    {
      id: 'signedUpAt',
      // Sortable columns need an accessor (the service sorts; this only marks the header).
      accessorFn: (user) => user.signedUpAt,
      header: 'Signed up',
      enableSorting: true,
      cell: ({ row: { original: user } }) => (
        <time className="ld-users-list-nowrap" dateTime={user.signedUpAt.toISOString()}>
          {formatDateTime(user.signedUpAt)}
        </time>
      ),
    },
    {
      id: 'lastActiveAt',
      header: 'Last active',
      enableSorting: false,
      cell: ({ row: { original: user } }) => (
        <time
          className="ld-users-list-nowrap"
          dateTime={user.lastActiveAt.toISOString()}
          title={formatDateTime(user.lastActiveAt)}
        >
          {formatRelative(user.lastActiveAt)}
        </time>
      ),
    },
    {
      id: 'signInMethods',
      header: 'Sign-in methods',
      enableSorting: false,
      cell: ({ row: { original: user } }) => {
        const methods = signInMethods(user);
        return methods.length === 0 ? (
          <span className="ld-muted">None</span>
        ) : (
          <ul className="ld-users-list-methods">
            {methods.map((method) => (
              <li key={method}>
                <Badge>{method}</Badge>
              </li>
            ))}
          </ul>
        );
      },
    },
  ];
}
