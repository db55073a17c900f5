import { getUser } from '@latchkey/next/server';
import { UserButton } from '@latchkey/react';

/**
 * The site's header, a server component: it asks `getUser()` who is signed in and renders
 * `@latchkey/react`'s `UserButton` (a client component) straight from the package, else a sign-in link.
 */
export async function Header() {
  const user = await getUser();
  return (
    <header style={{ display: 'flex', gap: '1rem', alignItems: 'center', padding: '1rem' }}>
      <a href="/">Home</a>
      <a href="/protected">Protected page</a>
      {user ? <UserButton /> : <a href="/handler/sign-in">Sign in</a>}
    </header>
  );
}
