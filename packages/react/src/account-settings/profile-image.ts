/**
 * What the Profile section checks of a profile image before it sends one:
 * an http(s) address the service takes, and why a chosen file could not
 * become one (`ProfileImageError`). Turning the file into an image is
 * `profile-image-file.ts`, loaded when a file is first chosen.
 */

/** The service's limit on a profile image http(s) URL. */
export const maxImageUrlLength = 2048;

/** Why a file could not become a profile image. */
export class ProfileImageError extends Error {
  readonly reason: 'unreadable' | 'too-large';
  constructor(reason: 'unreadable' | 'too-large') {
    // The section words it with its labels (`reason`); this is for logs.
    super(`Profile image: ${reason}`);
    this.name = 'ProfileImageError';
    this.reason = reason;
  }
}

/** Whether `value` is an http(s) URL the service takes as a profile image. */
export function isImageUrl(value: string): boolean {
  if (value.length > maxImageUrlLength) return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
