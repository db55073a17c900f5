/**
 * The pictures of the account-settings navigation: 24×24 line icons stroked
 * with `currentColor`, decorative like those of the kit's `Icon` registry
 * (which they join when the registry is opened to every feature).
 */
import type { ReactNode } from 'react';

const pictures = {
  user: (
    <>
      <circle cx="12" cy="8.5" r="3.8" />
      <path d="M4.8 19.5a7.2 7.2 0 0 1 14.4 0" />
    </>
  ),
  mail: (
    <>
      <rect x="3.5" y="5.5" width="17" height="13" rx="2" />
      <path d="m4.5 7 7.5 6 7.5-6" />
    </>
  ),
  key: (
    <>
      <circle cx="8" cy="14" r="4" />
      <path d="M11 11.2 19.5 3M16 6.5l2.5 2.5M14 8.5l2 2" />
    </>
  ),
  more: (
    <>
      <circle cx="5.5" cy="12" r="1.1" fill="currentColor" />
      <circle cx="12" cy="12" r="1.1" fill="currentColor" />
      <circle cx="18.5" cy="12" r="1.1" fill="currentColor" />
    </>
  ),
  check: <path d="m5 12.5 4.5 4.5L19 7.5" strokeWidth="2.2" />,
} satisfies Record<string, ReactNode>;

/** The names of the settings pictures. */
export type SettingsIconName = keyof typeof pictures;

/** A settings picture, `size` pixels square, hidden from assistive technology. */
export function SettingsIcon({
  name,
  size = 18,
  className,
}: {
  name: SettingsIconName;
  size?: number;
  className?: string;
}) {
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
      className={className}
    >
      {pictures[name]}
    </svg>
  );
}
