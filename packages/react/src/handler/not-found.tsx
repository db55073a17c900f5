import { AuthCard } from '../auth-card/auth-card.js';
import { Icon } from '../internal/icon.js';
import { useLabels } from '../internal/text.js';
import { useApp } from '../provider.js';
import { handlerLabels } from './handler-labels.js';

/** The card the Handler shows for a page it does not serve. */
export function NotFound() {
  const app = useApp();
  const labels = useLabels(handlerLabels);
  return (
    <AuthCard icon={<Icon name="compass" size={22} />} title={labels.notFoundTitle} subtitle={labels.notFoundSubtitle}>
      <div className="lk-actions">
        <a className="lk-button lk-button-primary lk-button-block" href={app.urls.home}>
          {labels.notFoundHome}
        </a>
      </div>
    </AuthCard>
  );
}
