import { AuthCard } from '../internal/auth-card.js';
import { useApp } from '../provider.js';

/** The card the Handler shows for a page it does not serve. */
export function NotFound() {
  const app = useApp();
  return (
    <AuthCard
      icon="compass"
      title="Page not found"
      subtitle="The page you are looking for does not exist or has moved."
    >
      <div className="lk-actions">
        <a className="lk-button lk-button-primary lk-button-block" href={app.urls.home}>
          Go to the home page
        </a>
      </div>
    </AuthCard>
  );
}
