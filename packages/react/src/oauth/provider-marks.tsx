/**
 * The OAuth providers as people know them: each preset's name and a small
 * brand mark drawn here (a shape or two in the brand's colours, 24×24,
 * decorative: the button's text names the provider). A generic OpenID
 * Connect provider gets a key and its configured display name.
 */
import type { OAuthProviderPreset } from '@latchkey/protocol';
import type { ReactNode } from 'react';
import { Icon } from '../internal/icon.js';

/** A provider as the project lists it: its id, and a display name for generic OpenID Connect. */
export interface ProviderRef {
  id: string;
  displayName?: string;
}

/** A name and mark for each of the protocol's `oauthProviderPresets`, no more and no fewer. */
const presets: Record<string, { name: string; mark: ReactNode }> = {
  google: {
    name: 'Google',
    mark: <path d="M19.2 8.2A8 8 0 1 0 20 13h-7.5" fill="none" stroke="#4285F4" strokeWidth="3" />,
  },
  github: {
    name: 'GitHub',
    mark: (
      <path
        d="M5.5 4.5 9 7a8 8 0 0 1 6 0l3.5-2.5.5 4.8A7 7 0 0 1 20 12.5c0 4.2-3.4 6.5-8 6.5s-8-2.3-8-6.5a7 7 0 0 1 1-3.2Z"
        fill="currentColor"
      />
    ),
  },
  microsoft: {
    name: 'Microsoft',
    mark: ['#F25022', '#7FBA00', '#00A4EF', '#FFB900'].map((fill, i) => (
      <rect key={fill} x={i % 2 ? 12.5 : 3} y={i < 2 ? 3 : 12.5} width="8.5" height="8.5" fill={fill} />
    )),
  },
  spotify: {
    name: 'Spotify',
    mark: (
      <>
        <circle cx="12" cy="12" r="10" fill="#1DB954" />
        <path
          d="M6.5 9.2c3.8-1.2 7.6-.9 11 .9M7.2 12.3c3-.9 6-.6 8.8.8M7.8 15.2c2.4-.6 4.6-.4 6.7.7"
          stroke="#fff"
          strokeWidth="1.6"
          strokeLinecap="round"
          fill="none"
        />
      </>
    ),
  },
  facebook: {
    name: 'Facebook',
    mark: (
      <>
        <circle cx="12" cy="12" r="10" fill="#1877F2" />
        <path
          d="M13 22v-8h2.5l.5-3h-3V9.5c0-1 .4-1.5 1.5-1.5H16V5.2L14 5c-2.2 0-3.5 1.3-3.5 3.7V11H8v3h2.5v8Z"
          fill="#fff"
        />
      </>
    ),
  },
  discord: {
    name: 'Discord',
    mark: (
      <path
        d="M5 7q7-4 14 0 2.5 5 1.5 10-2 1.5-4 2l-1-2q-3.5 1-7 0l-1 2q-2-.5-4-2Q2.5 12 5 7Zm4 4a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3Zm6 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3Z"
        fill="#5865F2"
        fillRule="evenodd"
      />
    ),
  },
  gitlab: {
    name: 'GitLab',
    mark: <path d="M12 21 3 14l2-9 2.6 6.5h8.8L19 5l2 9Z" fill="#FC6D26" />,
  },
  bitbucket: {
    name: 'Bitbucket',
    mark: <path d="M3.5 4h17l-2.6 16H6.1ZM10 10.5l.6 4h2.8l.6-4Z" fill="#2684FF" fillRule="evenodd" />,
  },
  linkedin: {
    name: 'LinkedIn',
    mark: (
      <>
        <rect x="3" y="3" width="18" height="18" rx="2.5" fill="#0A66C2" />
        <path
          d="M7.8 10.5v6.5M7.8 7.6v.1M11.2 17v-6.5m0 2.8c0-1.7 1-2.8 2.4-2.8s2.3.9 2.3 2.6V17"
          stroke="#fff"
          strokeWidth="1.8"
          strokeLinecap="round"
          fill="none"
        />
      </>
    ),
  },
  apple: {
    name: 'Apple',
    mark: (
      <path
        d="M12 8c2-1.5 5-1.5 6.5.5-2.5 1.5-2 5 .5 6-1 3-3 5.5-4.5 5.5S13 19 12 19s-1.5 1-2.5 1C7 20 4 14 5.5 10.5 6.5 8 9.5 7 12 8Zm0-1.5c0-1.8 1.2-3.2 3-3.5 0 1.8-1.2 3.2-3 3.5Z"
        fill="currentColor"
      />
    ),
  },
  x: {
    name: 'X',
    mark: (
      <path
        d="M4 4h4.5l11.5 16h-4.5ZM19.5 4 13.6 10.6M10.4 13.4 4.5 20"
        stroke="currentColor"
        strokeWidth="1.8"
        fill="none"
      />
    ),
  },
} satisfies Record<OAuthProviderPreset, { name: string; mark: ReactNode }>;

/**
 * The name people know a provider by: the preset's brand name, else the
 * configured display name, else the id.
 *
 * @example
 * ```ts
 * providerName({ id: 'github' }); // 'GitHub'
 * providerName({ id: 'corp', displayName: 'Corp SSO' }); // 'Corp SSO'
 * ```
 */
export function providerName(provider: ProviderRef): string {
  return presets[provider.id]?.name ?? provider.displayName ?? provider.id;
}

/**
 * A provider's brand mark, `size` pixels square (a key for generic OpenID Connect).
 *
 * @example
 * ```tsx
 * <ProviderMark id="github" />
 * ```
 */
export function ProviderMark({ id, size = 20 }: { id: string; size?: number }) {
  const preset = presets[id];
  if (!preset) return <Icon name="key" size={size} className="lk-provider-mark" />;
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
      className="lk-provider-mark"
    >
      {preset.mark}
    </svg>
  );
}
