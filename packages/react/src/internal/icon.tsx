/**
 * One registry of the inline SVG icons the components draw: 24×24 line
 * icons stroked with `currentColor`, decorative (hidden from assistive
 * technology; the text beside them says what they mean).
 */
import type { ReactNode, SVGProps } from 'react';

const icons = {
  lock: (
    <>
      <rect x="5" y="10.5" width="14" height="9.5" rx="2" />
      <path d="M8.5 10.5V8a3.5 3.5 0 0 1 7 0v2.5" />
      <path d="M12 14.5v2" />
    </>
  ),
  compass: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M15.5 8.5 13.4 13.4 8.5 15.5 10.6 10.6Z" />
    </>
  ),
  door: (
    <>
      <path d="M14 4h4.5a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1H14" />
      <path d="M9.5 8 5.5 12l4 4M5.5 12H15" />
    </>
  ),
  alert: (
    <>
      <circle cx="12" cy="12" r="9.6" />
      <path d="M12 7v6.2M12 16.3v.5" strokeWidth="2.4" />
    </>
  ),
  mail: (
    <>
      <rect x="3.5" y="5.5" width="17" height="13" rx="2" />
      <path d="m4.5 7 7.5 6 7.5-6" />
    </>
  ),
  check: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="m8 12.3 2.7 2.7L16 9.5" />
    </>
  ),
  key: (
    <>
      <circle cx="8" cy="15" r="4" />
      <path d="m11 12 8-8M16 7l2.5 2.5M14 9l2 2" />
    </>
  ),
  user: (
    <>
      <circle cx="12" cy="8.5" r="3.8" />
      <path d="M4.8 19.5a7.2 7.2 0 0 1 14.4 0" />
    </>
  ),
  team: (
    <>
      <circle cx="9" cy="9" r="3.2" />
      <path d="M3.2 19a5.8 5.8 0 0 1 11.6 0" />
      <circle cx="16.6" cy="8.2" r="2.6" />
      <path d="M15.6 13.6a4.9 4.9 0 0 1 5.2 4.9" />
    </>
  ),
  more: (
    <>
      <circle cx="5.5" cy="12" r="1.1" fill="currentColor" />
      <circle cx="12" cy="12" r="1.1" fill="currentColor" />
      <circle cx="18.5" cy="12" r="1.1" fill="currentColor" />
    </>
  ),
  link: (
    <>
      <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" />
      <path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
    </>
  ),
  'chevron-down': <path d="M6 9.75 12 15l6-5.25" strokeWidth="2.4" />,
  'sign-out': <path d="M10 4H6a1 1 0 0 0-1 1v14a1 1 0 0 0 1 1h4M15 8l4 4-4 4M19 12H9" />,
} satisfies Record<string, ReactNode>;

/** The names of the registered icons. */
export type IconName = keyof typeof icons;

export interface IconProps extends Omit<SVGProps<SVGSVGElement>, 'children' | 'ref'> {
  name: IconName;
  /** Width and height in pixels (default 20). */
  size?: number;
}

/** A registered icon, `size` pixels square. */
export function Icon({ name, size = 20, ...rest }: IconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      {icons[name]}
    </svg>
  );
}
