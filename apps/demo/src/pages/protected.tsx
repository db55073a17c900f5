/** `/protected`: signed-out visitors go to sign-in (and come back here afterwards). */
import { useUser } from '@latchkey/react';
import { Link } from '../router.js';

export function Protected() {
  const user = useUser({ or: 'redirect' });
  return (
    <section className="demo-panel" aria-labelledby="protected-title">
      <p className="demo-eyebrow">Members only</p>
      <h1 id="protected-title">Protected page</h1>
      <p className="demo-muted">
        Only signed-in users see this page. Visitors who are not signed in are sent to sign in first, then brought back
        here.
      </p>
      <p className="demo-signed-in-as">
        Signed in as <strong data-testid="user-email">{user.primaryEmail}</strong>
      </p>
      <div className="demo-actions">
        <Link className="demo-button" to="/">
          Back home
        </Link>
      </div>
    </section>
  );
}
