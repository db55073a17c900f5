/**
 * Words of teams: the Teams section of account settings, the team switcher
 * and the team-invitation page. The English table is the one declaration: the
 * label type derives from it, and `labels` overrides (provider, page) reword
 * any entry.
 */

/** English team words; entries that embed a value are functions of a named object. */
export const teamLabels = {
  /** Account settings, Teams section. */
  accountTeamsTitle: 'Teams',
  accountTeamsDescription: 'The teams you belong to, their members and invitations.',
  accountTeamsListTitle: 'Your teams',
  accountTeamsLoading: 'Loading your teams…',
  accountTeamsLoadFailed: 'Your teams could not be loaded.',
  accountTeamsEmpty: 'You are not in any team yet.',
  accountTeamSelected: 'Selected',
  accountTeamCreateTitle: 'Create a team',
  accountTeamCreateLabel: 'Team name',
  accountTeamCreateSubmit: 'Create team',
  /** A team name form sent empty. */
  accountTeamNameRequired: 'Enter a name.',
  accountTeamCreated: ({ team }: { team: string }) => `${team} was created.`,
  accountTeamManage: ({ team }: { team: string }) => `Manage ${team}`,
  accountTeamNameTitle: 'Team name',
  accountTeamNameLabel: 'Name',
  accountTeamRenamed: ({ team }: { team: string }) => `The team is now called ${team}.`,
  accountTeamProfileTitle: 'Your name in this team',
  accountTeamProfileDescription: 'Leave it empty to use your account name.',
  accountTeamProfileLabel: 'Display name in this team',
  accountTeamProfileSaved: 'Your name in this team was saved.',
  /** The heading of the team being managed. */
  accountTeamManaging: ({ team }: { team: string }) => `Managing ${team}`,
  accountTeamMembersTitle: 'Members',
  /** A member's roles: the permissions granted to them directly. */
  accountTeamRoles: 'Roles:',
  accountTeamNoRole: 'none',
  accountTeamGrantLabel: ({ member }: { member: string }) => `Role to grant to ${member}`,
  accountTeamGrant: 'Grant',
  accountTeamGrantTo: ({ member }: { member: string }) => `Grant the chosen role to ${member}`,
  accountTeamGranted: ({ member, role }: { member: string; role: string }) => `${member} now has ${role}.`,
  accountTeamRevokeRole: ({ member, role }: { member: string; role: string }) => `Revoke ${role} from ${member}`,
  accountTeamRoleRevoked: ({ member, role }: { member: string; role: string }) => `${member} no longer has ${role}.`,
  accountTeamYou: 'You',
  accountTeamRemoveMember: ({ member }: { member: string }) => `Remove ${member}`,
  accountTeamMemberRemoved: ({ member }: { member: string }) => `${member} was removed from the team.`,
  accountTeamInviteTitle: 'Invite someone',
  accountTeamInviteDescription: 'They get an e-mail with a link to join.',
  accountTeamInviteLabel: 'E-mail address',
  accountTeamInviteSubmit: 'Send invitation',
  accountTeamInvited: ({ email }: { email: string }) => `An invitation was sent to ${email}.`,
  accountTeamInvitationsTitle: 'Pending invitations',
  accountTeamInvitationsEmpty: 'No pending invitations.',
  accountTeamInvitationExpires: ({ date }: { date: string }) => `Expires ${date}`,
  accountTeamRevoke: ({ email }: { email: string }) => `Revoke the invitation to ${email}`,
  accountTeamRevoked: ({ email }: { email: string }) => `The invitation to ${email} was revoked.`,
  accountTeamLeaveTitle: 'Leave or delete',
  accountTeamLeave: 'Leave team',
  accountTeamLeaveConfirm: ({ team }: { team: string }) =>
    `Leave ${team}? You will need a new invitation to come back.`,
  accountTeamLeft: ({ team }: { team: string }) => `You left ${team}.`,
  accountTeamDelete: 'Delete team',
  accountTeamDeleteConfirm: ({ team }: { team: string }) =>
    `Delete ${team} for everyone? Its members and invitations go with it.`,
  accountTeamDeleted: ({ team }: { team: string }) => `${team} was deleted.`,
  /** A member without a name of their own. */
  accountTeamUnnamedMember: 'Unnamed member',
  /** The team switcher. */
  teamSwitcherLabel: 'Team',
  /** The switcher's popover. */
  teamSwitcherTitle: 'Switch team',
  teamSwitcherNone: 'No team',
  teamSwitcherCreate: 'Create a team…',
  /** The team-invitation page. */
  teamInvitationTitle: ({ team }: { team: string }) => `Join ${team}`,
  teamInvitationChecking: 'Checking your invitation…',
  teamInvitationSentTo: ({ email }: { email: string }) => `This invitation was sent to ${email}.`,
  teamInvitationSignInPrompt: 'Sign in or create an account with that address to join.',
  teamInvitationSignIn: 'Sign in',
  teamInvitationSignUp: 'Create an account',
  teamInvitationAccept: 'Join team',
  teamInvitationAccepting: 'Joining…',
  teamInvitationJoinedTitle: ({ team }: { team: string }) => `You joined ${team}`,
  teamInvitationJoinedText: 'You are now a member of the team.',
  teamInvitationWrongAccount: ({ email, current }: { email: string; current: string }) =>
    `This invitation was sent to ${email}, but you are signed in as ${current}. Sign in with the invited address, or add it to your account, to join.`,
  teamInvitationSwitchAccount: 'Sign in with another account',
  teamInvitationVerifyFirst: ({ email }: { email: string }) =>
    `Verify ${email} before you join: the team accepts the invited address only once you have proven it is yours.`,
  teamInvitationTeamGoneTitle: 'This team no longer exists',
  teamInvitationTeamGoneText: 'The team was deleted after the invitation was sent.',
};
