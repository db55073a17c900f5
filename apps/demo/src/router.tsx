/** A tiny router: the current path, in-app navigation with the History API, and links. */
import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from 'react';

const navigateEvent = 'demo:navigate';

export function usePathname(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  window.addEventListener(navigateEvent, listener);
  return () => {
    window.removeEventListener('popstate', listener);
    window.removeEventListener(navigateEvent, listener);
  };
}

function navigate(to: string): void {
  window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(navigateEvent));
  window.scrollTo(0, 0);
}

interface LinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  to: string;
}

/** An in-app link: plain clicks change the page without a reload; modified clicks behave as usual. */
export function Link({ to, onClick, ...props }: LinkProps) {
  const current = usePathname() === to;
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    if (event.altKey || props.target) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} aria-current={current ? 'page' : undefined} onClick={handleClick} {...props} />;
}
