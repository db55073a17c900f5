import { type SourceItem, withLine } from '../types.js';
import { csvRows, millis, text } from './input.js';
import { addEmail, fullName, isBcrypt, user } from './record.js';

/** A list cell of Clerk's CSV: addresses separated by `|`, `,` or `;`. */
function list(cell: string | undefined): string[] {
  const t = text(cell);
  return t === null
    ? []
    : t
        .split(/[|,;]/)
        .map((s) => s.trim())
        .filter(Boolean);
}

/**
 * Clerk's CSV user export (Dashboard → Settings → User exports): `id`,
 * `first_name`, `last_name`, `username`, `primary_email_address`,
 * `verified_email_addresses`, `unverified_email_addresses`, phone columns,
 * `totp_secret` (base32), `password_digest` and `password_hasher`; `external_id`
 * and `created_at` where the export has them. The username and external id are
 * kept in server metadata (`clerk_username`, `clerk_external_id`).
 */
export async function* parseClerk(input: string): AsyncIterable<SourceItem> {
  for (const row of csvRows(input)) {
    if ('problem' in row) {
      yield row;
      continue;
    }
    const { line, value: r } = row;
    const id = text(r.id);
    if (!id) {
      yield { line, problem: 'the row has no id' };
      continue;
    }
    const emails: ReturnType<typeof user>['emails'] = [];
    const verified = new Set(list(r.verified_email_addresses).map((a) => a.toLowerCase()));
    const primary = text(r.primary_email_address);
    addEmail(emails, primary, primary !== null && verified.has(primary.toLowerCase()), true);
    for (const address of list(r.verified_email_addresses)) addEmail(emails, address, true);
    for (const address of list(r.unverified_email_addresses)) addEmail(emails, address, false);

    let passwordHash: string | null = null;
    const digest = text(r.password_digest);
    if (digest) {
      const hasher = text(r.password_hasher)?.toLowerCase() ?? 'bcrypt';
      if (hasher === 'bcrypt' && isBcrypt(digest)) passwordHash = digest;
      else if ((hasher === 'argon2id' || hasher === 'argon2i') && digest.startsWith(`$${hasher}$`))
        passwordHash = digest;
      else {
        yield {
          line,
          problem: `unsupported hash: password_hasher "${hasher}" (bcrypt and argon2 digests are imported)`,
        };
        continue;
      }
    }
    const username = text(r.username);
    const externalId = text(r.external_id);
    const serverMetadata: Record<string, string> = {};
    if (username) serverMetadata.clerk_username = username;
    if (externalId) serverMetadata.clerk_external_id = externalId;
    yield withLine(
      user({
        id,
        emails,
        display_name: fullName(text(r.first_name), text(r.last_name)) ?? username,
        profile_image_url: text(r.image_url),
        password_hash: passwordHash,
        server_metadata: Object.keys(serverMetadata).length > 0 ? serverMetadata : null,
        signed_up_at_millis: millis(r.created_at),
        totp_secret_base32: text(r.totp_secret)?.replace(/\s+/g, '').toUpperCase() ?? null,
      }),
      line,
    );
  }
}
