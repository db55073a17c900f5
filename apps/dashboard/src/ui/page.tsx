/** The frame of every page: its header (title, description, actions) and its sections. */
import { type ReactNode, useEffect } from 'react';
import { Link } from '../router.js';

export interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** Buttons at the end of the header (create, delete...). */
  actions?: ReactNode;
  /** A link back up (`{ to: '/projects/p1/users', label: 'Users' }`). */
  back?: { to: string; label: string };
  /** The document's title, when `title` is not plain text. */
  documentTitle?: string;
}

/** The page's `<h1>` with what it is about; sets the document title. */
export function PageHeader({ title, description, actions, back, documentTitle }: PageHeaderProps) {
  const text = documentTitle ?? (typeof title === 'string' ? title : undefined);
  useEffect(() => {
    if (text) document.title = `${text} · Latchkey`;
  }, [text]);
  return (
    <header className="ld-page-header">
      <div className="ld-page-heading">
        {back ? (
          <Link className="ld-back" to={back.to}>
            ← {back.label}
          </Link>
        ) : null}
        <h1>{title}</h1>
        {description ? <p className="ld-muted">{description}</p> : null}
      </div>
      {actions ? <div className="ld-actions">{actions}</div> : null}
    </header>
  );
}

export interface SectionProps {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  /** Anchor and accessible name. */
  id?: string;
}

/** A titled card of a page (`<section>` labelled by its `<h2>`). */
export function Section({ title, description, actions, children, id }: SectionProps) {
  const headingId = `${
    id ??
    String(title)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
  }-heading`;
  return (
    <section className="ld-card" id={id} aria-labelledby={headingId}>
      <div className="ld-card-header">
        <div>
          <h2 id={headingId}>{title}</h2>
          {description ? <p className="ld-muted">{description}</p> : null}
        </div>
        {actions ? <div className="ld-actions">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

/** Label/value rows (a user's profile, a key's details). */
export function DetailList({ items }: { items: ReadonlyArray<readonly [ReactNode, ReactNode]> }) {
  return (
    <dl className="ld-details">
      {items.map(([term, value], index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
        <div key={index}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A small coloured label: `tone` success, warning, danger or neutral. */
export function Badge({
  tone = 'neutral',
  children,
}: {
  tone?: 'success' | 'warning' | 'danger' | 'neutral';
  children: ReactNode;
}) {
  return <span className={`ld-badge ld-badge-${tone}`}>{children}</span>;
}
