import { getUser } from '@latchkey/next/server';

// Not in the proxy's `protect` list: the page guards itself, and sign-in comes back to the path asked for
// (the proxy hands it to the render), with no `returnTo` written here.
export const dynamic = 'force-dynamic';

export default async function DashboardPage() {
  const user = await getUser({ or: 'redirect' });
  return <p data-testid="dashboard-user">Dashboard of {user.primaryEmail}</p>;
}
