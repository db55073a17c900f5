/** What a test reads off the official SDK's outcomes: thrown errors and their known-error codes. */

/** The SDK's KnownError code of a thrown or returned error. */
export function codeOf(error: unknown): string | undefined {
  return (error as { errorCode?: string } | null)?.errorCode;
}

/** The error `promise` rejects with; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}
