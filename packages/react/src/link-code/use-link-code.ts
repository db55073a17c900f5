/**
 * `useLinkCode`: the state of a page opened by an e-mailed link
 * (`<page>?code=`). It reads the code from the address once, checks it once
 * per app (also under StrictMode: `useOnce`), and says which step the page is
 * at: checking, ready to use, unusable (invalid, expired, used, too many
 * attempts), failed for another reason (retry), waiting for the visitor to
 * sign in or to verify their address, or done.
 */
import { useState } from 'react';
import { knownErrorCodeOf } from '../internal/error-text.js';
import { codeFromUrl, useOnce } from '../internal/use-once.js';

/** Why a link cannot be used. */
export type LinkProblem = 'invalid' | 'expired' | 'used' | 'attempts';

/** Where a link page is. */
export type LinkStep =
  | 'checking'
  | 'ready'
  | LinkProblem
  | 'failed'
  | 'needs-sign-in'
  | 'needs-verified-address'
  | 'done';

/** The problem a `VERIFICATION_CODE_*` error (or a malformed code) means; `null` for any other failure. */
function linkProblemOf(error: unknown): LinkProblem | null {
  switch (knownErrorCodeOf(error)) {
    case 'VERIFICATION_CODE_NOT_FOUND':
    case 'SCHEMA_ERROR':
      return 'invalid';
    case 'VERIFICATION_CODE_EXPIRED':
      return 'expired';
    case 'VERIFICATION_CODE_ALREADY_USED':
      return 'used';
    case 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED':
      return 'attempts';
    default:
      return null;
  }
}

export interface LinkCodeOptions<T> {
  /** The code from the link; defaults to the `code` query parameter of the page. */
  code?: string | undefined;
  /** What the check does (`'verify'`, `'magic-link'`…), so that two pages never share the outcome for one code. */
  name: string;
  /** Checks the code without using it, or uses it when opening the link is its use (`usedOnCheck`). */
  check: (code: string) => Promise<T>;
  /** A successful check used the code: the page is done. */
  usedOnCheck?: boolean;
  /** What the visitor still lacks to use the link, given what the check answered. */
  needs?: ((value: T) => 'sign-in' | 'verified-address' | null) | undefined;
}

export type LinkCode<T> = ReturnType<typeof useLinkCode<T>>;

export function useLinkCode<T>({ code: given, name, check, usedOnCheck, needs }: LinkCodeOptions<T>) {
  const code = given ?? codeFromUrl();
  const [checked, retry] = useOnce(code && `${name}:${code}`, () => check(code ?? ''));
  const [settled, setSettled] = useState<LinkProblem | 'done' | null>(null);
  let step: LinkStep;
  if (!code) step = 'invalid';
  else if (settled) step = settled;
  else if (checked.status === 'failed') step = linkProblemOf(checked.error) ?? 'failed';
  else if (checked.status === 'pending') step = 'checking';
  else if (usedOnCheck) step = 'done';
  else {
    const lacking = needs?.(checked.value);
    step = lacking ? `needs-${lacking}` : 'ready';
  }
  return {
    code: code ?? '',
    step,
    /** What the check answered (once checked). */
    value: checked.value,
    /** Why the check failed (when it did). */
    error: checked.error,
    /** Checks anew (for failures that may pass). */
    retry,
    /** The link was used: the page is done. */
    done: () => setSettled('done'),
    /** Whether `error` (from using the link) makes it unusable; if so, the page says so. */
    spent: (error: unknown): boolean => {
      const problem = linkProblemOf(error);
      if (problem) setSettled(problem);
      return problem !== null;
    },
  };
}
