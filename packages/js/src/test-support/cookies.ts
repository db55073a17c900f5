/** Raw cookie access for jsdom tests, standing in for "another tab" or an old SDK version. */
import { parseCookies } from '../internal/session/cookie-store.js';

export function setRawCookie(text: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: tests write cookies the way another tab or SDK would.
  document.cookie = text;
}

export function clearCookies(): void {
  for (const name of parseCookies(document.cookie).keys()) setRawCookie(`${name}=; max-age=0; path=/`);
}

/**
 * A stand-in `document` for the cookie store, usable in Node: its jar keeps
 * name -> raw value as the browser would (a `max-age=0` write deletes), and
 * `written` records every cookie line set.
 */
export function recordingDocument(protocol: 'http:' | 'https:' = 'https:') {
  const written: string[] = [];
  const jar = new Map<string, string>();
  const doc = {
    location: { protocol },
    get cookie() {
      return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    },
    set cookie(line: string) {
      written.push(line);
      const [pair = '', ...attributes] = line.split('; ');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      if (attributes.includes('max-age=0')) jar.delete(name);
      else jar.set(name, pair.slice(index + 1));
    },
  };
  return { doc, written, jar };
}
