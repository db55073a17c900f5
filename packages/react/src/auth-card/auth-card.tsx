'use client';
/** `AuthCard`: the centred card every Latchkey page sits in, for pages of your own too. */
import { forwardRef, type HTMLAttributes, type ReactNode, useId } from 'react';
import { Icon } from '../internal/icon.js';
import { useRootProps } from '../internal/root-props.js';
import { useOptionalLatchkeyContext } from '../provider.js';

/**
 * Props of `AuthCard`: its content, plus any `<div>` prop for the page
 * around the card (`className`, `id`, `data-*`…).
 *
 * @example
 * ```tsx
 * const props: AuthCardProps = { title: 'Check your inbox', subtitle: 'We sent you a link.' };
 * ```
 */
export interface AuthCardProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  /** The page's heading (an `<h1>`, which also names the card region). */
  title: ReactNode;
  subtitle?: ReactNode;
  /** The picture above the title (default: the provider's `logo`, else a lock); `null` for none. */
  icon?: ReactNode;
  /** Below a rule at the bottom of the card, e.g. a link to another page. */
  footer?: ReactNode;
}

/**
 * A themed page holding a card: icon, title, subtitle, your content and an
 * optional footer. The card is a region named by its title. Props other
 * than its own, and the ref, go to the outer page element.
 *
 * @example
 * ```tsx
 * <AuthCard title="Check your inbox" subtitle="We sent a sign-in link to ada@example.com.">
 *   <a className="lk-button lk-button-secondary" href="/">Back home</a>
 * </AuthCard>
 * ```
 */
export const AuthCard = forwardRef<HTMLDivElement, AuthCardProps>(function AuthCard(
  { title, subtitle, icon, footer, className, children, ...rest },
  ref,
) {
  const titleId = useId();
  const root = useRootProps('lk-page', className);
  const logo = useOptionalLatchkeyContext()?.logo;
  const picture = icon === undefined ? <Icon name="lock" size={22} /> : icon;
  return (
    <div {...rest} {...root} ref={ref}>
      <section className="lk-card" aria-labelledby={titleId}>
        <header className="lk-card-header">
          {icon === undefined && logo ? (
            <span className="lk-card-logo">{logo}</span>
          ) : picture ? (
            <span className="lk-card-icon" aria-hidden="true">
              {picture}
            </span>
          ) : null}
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
});
