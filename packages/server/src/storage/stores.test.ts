/**
 * Stores stay single-table: a `*-store.ts` imports no other store and writes
 * only the tables it owns (a table and its obvious children). A rule that
 * spans tables is an action's, which calls each store in one transaction
 * (docs/architecture.md, "Storage: SQL only in stores"). Read from the source,
 * so a new cross-table write fails here before review.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const sourceRoot = join(import.meta.dirname, '..');

/** The tables each store may write. A new store is declared here. */
const owned: Record<string, readonly string[]> = {
  'api-keys/api-key-store.ts': ['api_key_sets'],
  'audit/audit-store.ts': ['audit_events'],
  'codes/code-store.ts': ['verification_codes'],
  'contact-channels/contact-channel-store.ts': ['contact_channels'],
  'email-templates/email-template-store.ts': ['email_templates'],
  // Invitations are codes of their own purpose.
  'invitations/invitation-store.ts': ['verification_codes'],
  'mail/outbox-store.ts': ['email_outbox'],
  'metrics/metrics-store.ts': ['user_activity_days'],
  'mfa/mfa-store.ts': ['user_mfa', 'mfa_recovery_codes'],
  'oauth/oauth-account-store.ts': ['oauth_accounts'],
  'passkeys/passkey-store.ts': ['passkeys'],
  'webhooks/webhook-endpoint-store.ts': ['webhook_endpoints'],
  // Messages and their delivery attempts.
  'webhooks/webhook-message-store.ts': ['webhook_messages', 'webhook_attempts'],
  'permissions/definition-store.ts': ['team_permission_definitions', 'team_permission_inclusions'],
  // Grants, and the definitions every new project starts with.
  'permissions/permission-store.ts': [
    'team_member_permissions',
    'team_permission_definitions',
    'team_permission_inclusions',
  ],
  'projects/project-owner-store.ts': ['project_owners'],
  'projects/project-store.ts': ['projects'],
  'rate-limit/attempt-store.ts': ['attempt_failures'],
  'rate-limit/counter-store.ts': [],
  'rate-limit/rate-limit-store.ts': ['rate_limit_counters'],
  'sessions/session-store.ts': ['sessions'],
  'teams/team-store.ts': ['teams', 'team_members'],
  'tokens/signing-key-store.ts': ['signing_keys'],
  'users/user-store.ts': ['users'],
};

function storeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return storeFiles(path);
    return entry.name.endsWith('-store.ts') ? [path] : [];
  });
}

const stores = storeFiles(sourceRoot).map((path) => ({
  name: relative(sourceRoot, path).split('\\').join('/'),
  // Code only: doc comments may name anything.
  code: readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\*|\/\/|\/\*\*)/.test(line))
    .join('\n'),
}));

/** The tables a store's code writes: through the query builder, and in its SQL templates. */
function tablesWritten(code: string): Set<string> {
  const tables = new Set<string>();
  for (const [, table] of code.matchAll(/\.(?:insertInto|updateTable|deleteFrom)\(\s*'([a-z_]+)/g)) tables.add(table!);
  for (const [template] of code.matchAll(/`[^`]*`/g)) {
    for (const [, , table] of template.matchAll(/\b(insert\s+into|update|delete\s+from)\s+([a-z_]+)/gi)) {
      if (table!.toLowerCase() !== 'set') tables.add(table!.toLowerCase());
    }
  }
  return tables;
}

describe('the stores', () => {
  it('are all declared here, with the tables they own', () => {
    expect(stores.map((store) => store.name).sort()).toEqual(Object.keys(owned).sort());
  });

  it('import no other store', () => {
    const imports = stores.flatMap(({ name, code }) =>
      [...code.matchAll(/from\s+'([^']*-store\.js)'/g)].map(([, from]) => `${name} imports ${from}`),
    );
    expect(imports).toEqual([]);
  });

  it('write only the tables they own', () => {
    const foreign = stores.flatMap(({ name, code }) =>
      [...tablesWritten(code)]
        .filter((table) => !(owned[name] ?? []).includes(table))
        .map((table) => `${name} writes ${table}`),
    );
    expect(foreign).toEqual([]);
  });

  it('are read as they are written: a known write of each kind is found', () => {
    const code = (name: string) => stores.find((store) => store.name === name)!.code;
    expect(tablesWritten(code('users/user-store.ts'))).toEqual(new Set(['users']));
    expect(tablesWritten(code('rate-limit/attempt-store.ts'))).toContain('attempt_failures');
    expect(tablesWritten(code('permissions/permission-store.ts'))).toContain('team_member_permissions');
  });
});
