/** The centred card every Latchkey page sits in, and small shared visuals. */
import { type ReactNode, useId } from 'react';
import { useLatchkeyContext } from '../provider.js';

/** Props that make an element a themed Latchkey root. */
export function useRootProps(className: string): { className: string; 'data-lk-theme': string } {
  const { theme } = useLatchkeyContext();
  return { className: `lk-root ${className}`, 'data-lk-theme': theme };
}

export interface AuthCardProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Icon shown above the title. */
  icon?: 'lock' | 'compass' | 'door';
  footer?: ReactNode;
  className?: string;
  children?: ReactNode;
}

export function AuthCard({ title, subtitle, icon = 'lock', footer, className, children }: AuthCardProps) {
  const titleId = useId();
  const root = useRootProps(`lk-page${className ? ` ${className}` : ''}`);
  return (
    <div {...root}>
      <section className="lk-card" aria-labelledby={titleId}>
        <header className="lk-card-header">
          <span className="lk-card-icon" aria-hidden="true">
            <Icon name={icon} />
          </span>
          <h1 className="lk-title" id={titleId}>
            {title}
          </h1>
          {subtitle ? <p className="lk-subtitle">{subtitle}</p> : null}
        </header>
        {children}
        {footer ? <footer className="lk-card-footer">{footer}</footer> : null}
      </section>
    </div>
  );
}

function Icon({ name }: { name: 'lock' | 'compass' | 'door' }) {
  const common = {
    width: 22,
    height: 22,
    viewBox: '0 0 24 24',
    fill: 'none',
    stroke: 'currentColor',
    strokeWidth: 1.8,
    strokeLinecap: 'round' as const,
    strokeLinejoin: 'round' as const,
  };
  if (name === 'compass') {
    return (
      <svg aria-hidden="true" {...common}>
        <circle cx="12" cy="12" r="9" />
        <path d="M15.5 8.5 13.4 13.4 8.5 15.5 10.6 10.6Z" />
      </svg>
    );
  }
  if (name === 'door') {
    return (
      <svg aria-hidden="true" {...common}>
        <path d="M14 4h4.5a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1H14" />
        <path d="M9.5 8 5.5 12l4 4M5.5 12H15" />
      </svg>
    );
  }
  return (
    <svg aria-hidden="true" {...common}>
      <rect x="5" y="10.5" width="14" height="9.5" rx="2" />
      <path d="M8.5 10.5V8a3.5 3.5 0 0 1 7 0v2.5" />
      <path d="M12 14.5v2" />
    </svg>
  );
}
