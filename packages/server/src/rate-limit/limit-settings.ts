/**
 * The limits on guessing as project settings: `config.rate_limits` (an
 * extension of wire-protocol §15.6), which admins read and change with the
 * rest of the project's config. A project that never set them has the
 * defaults. The windows and the shape of the back-off are fixed; the service
 * option `attemptLimits: false` turns the sign-in and sign-up limits off.
 */
import { z } from 'zod';

/** A count a limit allows: a whole number from 1 (never 0: that is no limit to guess under) up to `max`. */
const allowed = (max: number, description: string) => z.number().int().min(1).max(max).meta({ description });

/** The settings' schema; the bounds keep a project from switching a limit off by a huge number. */
export const rateLimitSettings = z.strictObject({
  sign_in_failures_per_account: allowed(
    100,
    'Wrong passwords for one account before each further sign-in waits 1 s, doubling up to 15 minutes. At most 100 (NIST SP 800-63B).',
  ),
  sign_in_failures_per_client: allowed(
    10_000,
    'Failed sign-ins from one client address, on any accounts, before the same back-off holds that address.',
  ),
  sign_ups_per_client: allowed(10_000, 'Password sign-ups from one client address in ten minutes.'),
  mails_per_address: allowed(
    100,
    'Mails of one kind (password reset, sign-in link, verification, invitation) to one address in ten minutes.',
  ),
  mails_per_client: allowed(10_000, 'Mails with a code requested from one client address in ten minutes.'),
  code_checks_per_client: allowed(
    10_000,
    'Codes checked from one client address in ten minutes; passkey sign-ins started from it are counted apart, under the same number.',
  ),
});

/** A project's limits on guessing. */
export type RateLimitSettings = z.infer<typeof rateLimitSettings>;

/** The limits of a project that never set them: room for people who mistype, none for machines that guess. */
export const defaultRateLimits: RateLimitSettings = {
  sign_in_failures_per_account: 5,
  sign_in_failures_per_client: 50,
  sign_ups_per_client: 100,
  mails_per_address: 5,
  mails_per_client: 30,
  code_checks_per_client: 120,
};

/** What a limit needs of a project: its id (the counters are per project) and its settings. */
export interface LimitedProject {
  id: string;
  config: { rate_limits: RateLimitSettings };
}
