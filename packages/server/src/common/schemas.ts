/**
 * Schema pieces more than one feature uses: request fields (e-mail, metadata,
 * image URLs) and answer fields (JSON values, timestamps). Each has an `id` in
 * the OpenAPI document where it is a named component.
 */
import { z } from 'zod';

/** Any JSON value (metadata). */
export const jsonValue = z.json().meta({ id: 'Json', description: 'Any JSON value.' });

/** Largest metadata value, as JSON text. */
const maxMetadataBytes = 16_384;

/** A metadata value a caller writes: any JSON up to `maxMetadataBytes`. */
export const metadata = z
  .json()
  .refine((value) => Buffer.byteLength(JSON.stringify(value)) <= maxMetadataBytes, {
    message: `must be at most ${maxMetadataBytes} bytes as JSON`,
  })
  .meta({ description: `Any JSON value up to ${maxMetadataBytes} bytes.` });

/**
 * A sign-in e-mail: surrounding whitespace trimmed (mobile keyboards add a
 * trailing space), then checked. The pattern admits ASCII only, so the
 * database's `lower()` and JavaScript's `toLowerCase()` agree on it; case is
 * kept as typed and ignored by lookups and the unique index.
 */
export const email = z.string().trim().pipe(z.email().max(254));

/**
 * An e-mail address server code stores on a user: the HTML form rule (as the
 * reference's schema), which also takes addresses the sign-in rule refuses,
 * such as a host without a top-level domain, so users brought from elsewhere
 * keep theirs. ASCII only, as `email`.
 */
export const storedEmail = z
  .string()
  .trim()
  .pipe(z.email({ pattern: z.regexes.html5Email }).max(254));

/** Longest profile image value (as the reference's schema; the body limit refuses far shorter ones first). */
export const maxImageUrlLength = 1_000_000;

/** A base64 image data URL in one of the formats the reference takes from a client. */
const base64Image = /^data:image\/(png|jpg|jpeg|gif|bmp|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

/**
 * A profile image written with server access: an http(s) URL, or a base64
 * image data URL. Other schemes (`javascript:`, `data:text/html`, `ftp:`) are
 * refused, since dashboards and apps put the value in an `<img>`.
 */
export const imageUrl = z
  .string()
  .max(maxImageUrlLength)
  .refine(
    (value) => {
      if (/^data:image\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/]+=*$/i.test(value)) return true;
      try {
        const { protocol } = new URL(value);
        return protocol === 'https:' || protocol === 'http:';
      } catch {
        return false;
      }
    },
    { message: 'must be an http(s) URL or a base64 image data URL' },
  );

/**
 * A profile image a client writes (its own user, its teams): only a base64
 * image data URL (png, jpg, jpeg, gif, bmp or webp), never a link the
 * picture would be fetched from.
 */
export const clientImageUrl = z
  .string()
  .max(maxImageUrlLength)
  .regex(base64Image, { message: 'must be a base64 image data URL (png, jpg, jpeg, gif, bmp or webp)' });

/** An absolute http(s) URL a flow sends the user back to (checked against the trusted domains by the route). */
export const callbackUrl = z.url().max(2048);

/**
 * An id a request names (a user, a team; `me` where the route allows it): up
 * to 100 characters, never empty. Unknown or malformed ids are the route's
 * not-found error; an empty one is a schema error, since no error can name it.
 */
export const idRef = z.string().min(1).max(100);

/** Epoch milliseconds. */
export const millis = z.number().int().nonnegative();

/**
 * A page of a cursor-paginated list (wire-protocol §12): its items, and the
 * cursor of the next page (null on the last), under the OpenAPI name `id`.
 */
export function paginatedList<S extends z.ZodType>(item: S, id: string) {
  return z
    .object({
      items: z.array(item),
      is_paginated: z.literal(true),
      pagination: z.object({ next_cursor: z.string().nullable() }),
    })
    .meta({ id });
}

/** `{ success: true }`, the answer of deletions and sign-out. */
export const successAnswer = z.object({ success: z.literal(true) }).meta({ id: 'Success' });
