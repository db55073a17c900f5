/** Any other path. */
import { Link } from '../router.js';

export function NotFound() {
  return (
    <section className="demo-panel demo-panel-narrow" aria-labelledby="not-found-title">
      <p className="demo-eyebrow">404</p>
      <h1 id="not-found-title">Page not found</h1>
      <p className="demo-muted">There is nothing at this address.</p>
      <div className="demo-actions">
        <Link className="demo-button demo-button-primary" to="/">
          Go home
        </Link>
      </div>
    </section>
  );
}
