/**
 * A wire body without its `undefined` fields: what the caller left out is not
 * sent (wire-protocol.md §1), while an explicit `null` is.
 */
export function definedFields(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}
