/** Row ids are UUIDs: check a path or body id before it reaches a `uuid` column (PostgreSQL would refuse it with an error). */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `value` has the shape of a UUID, in any case. */
export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}
