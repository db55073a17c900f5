/**
 * What the mail routes record: a test e-mail sent through an SMTP config the
 * admin gave. The sending itself is no change to the project (it bypasses the
 * outbox); the attempt and its outcome are recorded as an action
 * (`events/recorder.ts`) once it is known.
 */
import { type ActionContext, act, record } from '../events/recorder.js';

/** A test e-mail's attempt: where it went, and its failure's category (null: it was sent). */
export interface TestEmailAttempt {
  host: string;
  port: number;
  failure: string | null;
}

/** Records a test e-mail's attempt (`email.test_sent`): never the password nor the peer's words. */
export function recordTestEmail(ctx: ActionContext, attempt: TestEmailAttempt): Promise<void> {
  const { host, port, failure } = attempt;
  return act(ctx, (tx) =>
    record(tx, 'email.test_sent', {
      userId: null,
      data: { host, port, success: failure === null, ...(failure ? { failure } : {}) },
    }),
  );
}
