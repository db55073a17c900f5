/**
 * Names the documentation's code samples use as placeholders for what the
 * reader's own app provides: a project's settings, form values, an error
 * display. The docs test type-checks every sample with these declared, so a
 * sample may use them without a prelude. Keep the list short.
 */
declare const baseUrl: string;
declare const projectId: string;
declare const publishableClientKey: string;
declare const secretServerKey: string;
declare const superSecretAdminKey: string;
declare const email: string;
declare const password: string;
declare const userId: string;
declare function showError(message: string): void;
