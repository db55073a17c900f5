/** `/`: who is signed in, or an invitation to sign up or sign in. */
import { useApp, useUser } from '@latchkey/react';
import { Link } from '../router.js';

export function Home() {
  const user = useUser();
  const app = useApp();

  if (!user) {
    return (
      <section className="demo-hero" aria-labelledby="home-title">
        <p className="demo-eyebrow">Latchkey demo</p>
        <h1 id="home-title">Sign-in that stays out of your way</h1>
        <p className="demo-lead">
          This small app keeps its users with a Latchkey service on another origin. Create an account, then open the
          protected page: it is only shown to people who are signed in.
        </p>
        <div className="demo-actions">
          <a className="demo-button demo-button-primary" href={app.urls.signUp}>
            Sign up
          </a>
          <a className="demo-button" href={app.urls.signIn}>
            Sign in
          </a>
        </div>
      </section>
    );
  }

  return (
    <section className="demo-panel" aria-labelledby="home-title">
      <p className="demo-eyebrow">Signed in</p>
      <h1 id="home-title">Welcome back{user.displayName ? `, ${user.displayName}` : ''}</h1>
      <p className="demo-muted">Your session lives in this browser; reload the page and you stay signed in.</p>
      <dl className="demo-facts">
        <div>
          <dt>E-mail</dt>
          <dd data-testid="user-email">{user.primaryEmail}</dd>
        </div>
        <div>
          <dt>E-mail verified</dt>
          <dd>{user.primaryEmailVerified ? 'Yes' : 'Not yet'}</dd>
        </div>
        <div>
          <dt>Member since</dt>
          <dd>{user.signedUpAt.toLocaleDateString(undefined, { dateStyle: 'long' })}</dd>
        </div>
        <div>
          <dt>User id</dt>
          <dd>
            <code>{user.id}</code>
          </dd>
        </div>
      </dl>
      <div className="demo-actions">
        <Link className="demo-button demo-button-primary" to="/protected">
          Open the protected page
        </Link>
        <a className="demo-button" href={app.urls.signOut}>
          Sign out
        </a>
      </div>
    </section>
  );
}
