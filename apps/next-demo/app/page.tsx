import { getUser } from '@latchkey/next/server';

export default async function Home() {
  const user = await getUser();
  return (
    <>
      <h1>Latchkey on Next.js</h1>
      <p data-testid="home-user">{user ? `Hello, ${user.primaryEmail}` : 'Nobody is signed in.'}</p>
    </>
  );
}
