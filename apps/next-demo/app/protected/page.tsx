import { getUser } from '@latchkey/next/server';
import { signOutAction } from '../actions';

// Read per request: the page shows who asked.
export const dynamic = 'force-dynamic';

export default async function ProtectedPage() {
  const user = await getUser({ or: 'redirect', returnTo: '/protected' });
  return (
    <>
      <h1>Protected page</h1>
      <p data-testid="protected-user">Signed in as {user.primaryEmail}</p>
      <form action={signOutAction}>
        <button type="submit">Sign out on the server</button>
      </form>
    </>
  );
}
