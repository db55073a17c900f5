/** Raw cookie access for jsdom tests, standing in for "another tab" or an old SDK version. */
import { parseCookies } from '../internal/session/cookie-store.js';

export function setRawCookie(text: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: tests write cookies the way another tab or SDK would.
  document.cookie = text;
}

export function clearCookies(): void {
  for (const name of parseCookies(document.cookie).keys()) setRawCookie(`${name}=; max-age=0; path=/`);
}
