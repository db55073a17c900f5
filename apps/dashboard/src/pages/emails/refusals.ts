/** Shared by the e-mail page's forms: an address check, and a service refusal put beside the field it names. */
import { errorText } from '@latchkey/react';

/** A plausible e-mail address (the service checks it properly). */
export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

/**
 * The field a refusal concerns: a SCHEMA_ERROR names the wrong value by its
 * path (`body.config.email_config.port: Too big...`); `pattern` finds the
 * wire name in that path and `names` maps it to the form's field. The field
 * shows the service's own words about it. Anything else stays form-level.
 */
export function fieldRefusal<F extends string>(
  error: unknown,
  pattern: RegExp,
  names: Record<string, F>,
): Partial<Record<F, string>> | null {
  if ((error as { code?: unknown })?.code !== 'SCHEMA_ERROR') return null;
  const message = String((error as { message?: unknown }).message ?? '');
  const found: Partial<Record<F, string>> = {};
  for (const part of message.split(';')) {
    const match = pattern.exec(part);
    const wire = match?.slice(1).find(Boolean);
    const field = wire ? names[wire] : undefined;
    if (field && !found[field]) {
      const detail = part.slice(part.indexOf(':') + 1).trim();
      found[field] = `The service refused this: ${detail || errorText(error, undefined)}`;
    }
  }
  return Object.keys(found).length > 0 ? found : null;
}
