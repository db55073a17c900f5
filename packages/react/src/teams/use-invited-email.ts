'use client';
import { useOnce } from '../internal/use-once.js';
/** The address a sign-up page is for when it was opened from a team invitation. */
import { useApp } from '../provider.js';

/**
 * The invited address when `returnTo` (the page's `after_auth_return_to`) is
 * the team-invitation page with its code, as the service reports it for that
 * code; `null` otherwise, while it loads, or when the code is no longer good.
 * The sign-up page fills it in, and a sign-up with it sends no verification
 * mail: accepting the invitation, whose code was mailed there, verifies it.
 */
export function useInvitedEmail(returnTo: string | null): string | null {
  const app = useApp();
  const code = invitationCode(returnTo, app.urls.teamInvitation);
  const [details] = useOnce(code === null ? null : `invited-email:${code}`, () =>
    app.getTeamInvitationDetails(code ?? ''),
  );
  return details.status === 'done' ? (details.value.recipientEmail ?? null) : null;
}

/** The `code` of a team-invitation page address; `null` for any other page. */
function invitationCode(returnTo: string | null, invitationPage: string): string | null {
  if (!returnTo || typeof window === 'undefined') return null;
  const target = new URL(returnTo, window.location.origin);
  const page = new URL(invitationPage, window.location.origin);
  if (target.origin !== page.origin || target.pathname !== page.pathname) return null;
  return target.searchParams.get('code');
}
