/**
 * One user of the project (`/projects/:projectId/users/:userId`): their
 * profile, e-mail addresses, ways to sign in and connected accounts, teams
 * and permissions, sessions, recent audit events and metadata; an
 * administrator can edit each, impersonate the user, or delete them. Each
 * section loads on its own, so one failing load does not hide the others.
 */
import { serverUserQuery } from '@latchkey/js/admin';
import { useQuery } from '@latchkey/react';
import { useProject } from '../../project.js';
import { Link, navigate } from '../../router.js';
import type { PageProps } from '../../routes.js';
import { ConfirmButton } from '../../ui/confirm.js';
import { PageHeader } from '../../ui/page.js';
import { EmptyState } from '../../ui/states.js';
import { UserAuditSection, UserSessionsSection } from './user-activity.js';
import { UserEmailsSection } from './user-emails.js';
import { ImpersonateButton } from './user-impersonate.js';
import { UserMetadataSection } from './user-metadata.js';
import { UserProfileSection } from './user-profile.js';
import { ConnectedAccountsSection, SignInMethodsSection } from './user-sign-in.js';
import { UserTeamsSection } from './user-teams.js';

export default function UserPage({ params }: PageProps) {
  const { projectId } = useProject();
  const userId = params.userId ?? '';
  const user = useQuery(serverUserQuery(userId), { suspend: true });
  const usersPath = `/projects/${projectId}/users`;
  const back = { to: usersPath, label: 'Users' };

  if (!user) {
    return (
      <>
        <PageHeader title="No such user" back={back} />
        <EmptyState
          title="No such user"
          action={
            <Link className="lk-button lk-button-secondary" to={usersPath}>
              Back to the users
            </Link>
          }
        >
          This project has no user with the id <code className="ld-mono">{userId}</code>. They may have been deleted.
        </EmptyState>
      </>
    );
  }

  const name = user.displayName ?? user.primaryEmail ?? 'Unnamed user';
  return (
    <>
      <PageHeader
        title={name}
        documentTitle={`User ${name}`}
        description={user.displayName && user.primaryEmail ? user.primaryEmail : undefined}
        back={back}
        actions={
          <>
            <ImpersonateButton user={user} />
            <ConfirmButton
              title={`Delete ${name}?`}
              description="The user, their e-mail addresses, sessions, team memberships and permissions are deleted. This cannot be undone."
              confirmLabel="Delete user"
              onConfirm={async () => {
                await user.delete();
                navigate(usersPath);
              }}
            >
              Delete user
            </ConfirmButton>
          </>
        }
      />
      <div className="ld-user-sections">
        <UserProfileSection user={user} />
        <UserEmailsSection user={user} />
        <SignInMethodsSection user={user} />
        <ConnectedAccountsSection user={user} />
        <UserTeamsSection user={user} />
        <UserSessionsSection user={user} />
        <UserAuditSection user={user} />
        <UserMetadataSection user={user} />
      </div>
    </>
  );
}
