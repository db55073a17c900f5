/**
 * The version of this package, sent in `x-stack-client-version`.
 *
 * @example
 * ```ts
 * console.log(`@latchkey/js ${sdkVersion}`);
 * ```
 */
export const sdkVersion = '0.1.0';

/** `x-stack-client-version`: `<platform> <package>@<semver>` (wire-protocol.md §2). */
export const clientVersionHeader = `js @latchkey/js@${sdkVersion}`;
