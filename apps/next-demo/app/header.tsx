'use client';
import { UserButton, useUser } from '@latchkey/react';

/** The site's header: the user button when signed in (already in the server's HTML), else a sign-in link. */
export function Header() {
  const user = useUser();
  return (
    <header style={{ display: 'flex', gap: '1rem', alignItems: 'center', padding: '1rem' }}>
      <a href="/">Home</a>
      <a href="/protected">Protected page</a>
      {user ? <UserButton /> : <a href="/handler/sign-in">Sign in</a>}
    </header>
  );
}
