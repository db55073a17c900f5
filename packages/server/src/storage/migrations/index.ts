/**
 * The migrations, in order. Append new ones; never edit one that has shipped:
 * the runner refuses to open a database whose applied migration text differs.
 */
import initial from './0001-initial.js';
import usersAtScale from './0002-users-at-scale.js';
import projectOwners from './0003-project-owners.js';
import email from './0004-email.js';
import teams from './0005-teams.js';
import oauth from './0006-oauth.js';
import attemptLimits from './0007-attempt-limits.js';
import auditLog from './0008-audit-log.js';
import rowChangeFeed from './0009-row-change-feed.js';
import pendingSignInAddresses from './0010-pending-sign-in-addresses.js';
import sealedOutbox from './0011-sealed-outbox.js';
import refreshRotation from './0012-refresh-rotation.js';
import passkeys from './0013-passkeys.js';
import mfa from './0014-mfa.js';
import webhooks from './0015-webhooks.js';
import metadataNullUntilSet from './0016-metadata-null-until-set.js';
import permissionDescriptions from './0017-permission-descriptions.js';
import externalIds from './0018-external-ids.js';
import sessionCountry from './0019-session-country.js';

export interface Migration {
  /** Sortable id, also the file name. */
  id: string;
  /** Plain SQL statements separated by `;` at line ends (no function bodies). */
  sql: string;
}

export const migrations: readonly Migration[] = [
  { id: '0001-initial', sql: initial },
  { id: '0002-users-at-scale', sql: usersAtScale },
  { id: '0003-project-owners', sql: projectOwners },
  { id: '0004-email', sql: email },
  { id: '0005-teams', sql: teams },
  { id: '0006-oauth', sql: oauth },
  { id: '0007-attempt-limits', sql: attemptLimits },
  { id: '0008-audit-log', sql: auditLog },
  { id: '0009-row-change-feed', sql: rowChangeFeed },
  { id: '0010-pending-sign-in-addresses', sql: pendingSignInAddresses },
  { id: '0011-sealed-outbox', sql: sealedOutbox },
  { id: '0012-refresh-rotation', sql: refreshRotation },
  { id: '0013-passkeys', sql: passkeys },
  { id: '0014-mfa', sql: mfa },
  { id: '0015-webhooks', sql: webhooks },
  { id: '0016-metadata-null-until-set', sql: metadataNullUntilSet },
  { id: '0017-permission-descriptions', sql: permissionDescriptions },
  { id: '0018-external-ids', sql: externalIds },
  { id: '0019-session-country', sql: sessionCountry },
];
