/**
 * Props that make an element a themed Latchkey root: the `lk-root` class
 * (which carries the CSS variables of `styles/tokens.css`) and the theme of
 * the nearest provider. Every top-level component renders one.
 */
import { useOptionalLatchkeyContext } from '../provider.js';

export interface RootProps {
  className: string;
  'data-lk-theme': string;
}

/** Root props with `className` (the component's classes, then the caller's) added. */
export function useRootProps(...classNames: (string | false | null | undefined)[]): RootProps {
  const theme = useOptionalLatchkeyContext()?.theme ?? 'system';
  return { className: cx('lk-root', ...classNames), 'data-lk-theme': theme };
}

/** Class names joined by spaces, skipping empty ones. */
export function cx(...classNames: (string | false | null | undefined)[]): string {
  return classNames.filter(Boolean).join(' ');
}
