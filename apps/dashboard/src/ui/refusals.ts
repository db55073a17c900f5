/**
 * A service refusal put beside the field it concerns, for every form of the
 * dashboard. A `SCHEMA_ERROR` names each wrong value by its path
 * (`body.config.email_config.port: Too big: expected number to be <=65535`,
 * several joined by `; `): `names` maps the names in a path (wire names,
 * e.g. `display_name`) to the form's fields, the last name of the path that
 * has one deciding, and the field shows what the service said of that value.
 * `codes` puts other known errors beside a field
 * (`{ USER_EMAIL_ALREADY_EXISTS: 'email' }`), in their usual wording.
 * Null when nothing maps: the form shows the error itself.
 */
import { errorText } from '@latchkey/react';

/** The values a `SCHEMA_ERROR` names: each one's path and what is wrong with it. */
function schemaIssues(error: unknown): { path: string[]; problem: string }[] {
  if ((error as { code?: unknown } | null)?.code !== 'SCHEMA_ERROR') return [];
  const message = String((error as { message?: unknown }).message ?? '');
  // The message may open with words of its own before the first path.
  return message.split('; ').flatMap((part) => {
    const found = /\b((?:body|query|params)(?:\.[\w$-]+)+): (.+)$/.exec(part);
    return found ? [{ path: found[1]!.split('.'), problem: found[2]!.trim() }] : [];
  });
}

export function refusalOf<F extends string>(
  error: unknown,
  names: Partial<Record<string, F>>,
  codes: Partial<Record<string, F>> = {},
): Partial<Record<F, string>> | null {
  const code = (error as { code?: unknown } | null)?.code;
  const byCode = typeof code === 'string' ? codes[code] : undefined;
  if (byCode) return { [byCode]: errorText(error, undefined) } as Partial<Record<F, string>>;
  const found: Partial<Record<F, string>> = {};
  for (const { path, problem } of schemaIssues(error)) {
    const name = [...path].reverse().find((part) => names[part] !== undefined);
    const field = name === undefined ? undefined : names[name];
    if (field && !found[field]) found[field] = `The service refused this: ${problem}`;
  }
  return Object.keys(found).length > 0 ? found : null;
}
