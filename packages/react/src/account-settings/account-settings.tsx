'use client';
/**
 * `AccountSettings`: the signed-in user's account page. A navigation of
 * sections beside the chosen one; the sections are a list
 * (`accountSettingsSections`), so a new one (passkeys, sessions, teams…) is
 * one more entry, and an app can add its own.
 */

import type { CurrentUser, Project } from '@latchkey/js';
import {
  type ComponentType,
  forwardRef,
  type HTMLAttributes,
  lazy,
  type MouseEvent,
  type ReactNode,
  Suspense,
  useEffect,
  useMemo,
  useRef,
} from 'react';
import { Icon } from '../internal/icon.js';
import { useRootProps } from '../internal/root-props.js';
import { TextContext, useText, wordsOf } from '../internal/text.js';
import { useAppData } from '../internal/use-app-data.js';
import { useControllableState } from '../internal/use-controllable-state.js';
import { englishLabels, type LatchkeyLabels, type LatchkeyTranslation } from '../labels.js';
import { useUser } from '../use-user.js';
import { ConnectedAccountsSection, connectedAccountsRelevant } from './connected-accounts-section.js';
import { EmailsSection } from './emails-section.js';
import { PasswordSection } from './password-section.js';
import { ProfileSection } from './profile-section.js';
import { SettingsSection, SettingsStatus } from './settings-parts.js';
import { TeamsSection } from './teams-section.js';

// Loaded when first shown (the sections render in a Suspense): the QR code, the recovery codes and the
// passkey rows stay out of the bundle of a page that never opens them.
const PasskeysSection = lazy(() =>
  import('./passkeys-section.js').then((module) => ({ default: module.PasskeysSection })),
);
const MfaSection = lazy(() => import('./mfa-section.js').then((module) => ({ default: module.MfaSection })));
const SessionsSection = lazy(() =>
  import('./sessions-section.js').then((module) => ({ default: module.SessionsSection })),
);
const SecurityActivitySection = lazy(() =>
  import('./security-activity-section.js').then((module) => ({ default: module.SecurityActivitySection })),
);

/** A text, or a function of the labels in force (so a translation rewords it). */
type Words = string | ((labels: Readonly<LatchkeyLabels>) => string);

/**
 * One section of `AccountSettings`.
 *
 * @example
 * ```tsx
 * const billing: AccountSettingsSection = {
 *   id: 'billing',
 *   title: 'Billing',
 *   description: 'Your plan and invoices.',
 *   content: BillingPanel,
 * };
 * ```
 */
export interface AccountSettingsSection {
  /** Its id, also the URL fragment that opens it (`#billing`). */
  id: string;
  /** Its name in the navigation and its heading. */
  title: Words;
  /** A line under its heading. */
  description?: Words;
  /** A decorative picture beside its name in the navigation. */
  icon?: ReactNode;
  /** What it shows; it renders only for a signed-in user and may suspend. */
  content: ComponentType;
  /** Whether to offer it to this user (default: always); the project is `undefined` while it loads. */
  visible?: (context: { user: CurrentUser; project: Project | undefined }) => boolean;
}

/**
 * The sections `AccountSettings` shows by default: Profile (with "Delete
 * account" when the project allows it), E-mails, Password,
 * Passkeys (only when the project enables them or the user has one),
 * Two-step sign-in, Sessions, Security activity, Teams, Connected accounts (only when the project enables an OAuth provider
 * or the user has a connected account).
 *
 * @example
 * ```tsx
 * <AccountSettings sections={[...accountSettingsSections, billing]} />
 * ```
 */
export const accountSettingsSections: readonly AccountSettingsSection[] = Object.freeze([
  {
    id: 'profile',
    title: (labels) => labels.accountProfileTitle,
    description: (labels) => labels.accountProfileDescription,
    icon: <Icon name="user" size={18} />,
    content: ProfileSection,
  },
  {
    id: 'emails',
    title: (labels) => labels.accountEmailsTitle,
    description: (labels) => labels.accountEmailsDescription,
    icon: <Icon name="mail" size={18} />,
    content: EmailsSection,
  },
  {
    id: 'password',
    title: (labels) => labels.accountPasswordTitle,
    description: (labels) => labels.accountPasswordDescription,
    icon: <Icon name="key" size={18} />,
    content: PasswordSection,
  },
  {
    id: 'passkeys',
    title: (labels) => labels.accountPasskeysTitle,
    description: (labels) => labels.accountPasskeysDescription,
    icon: <Icon name="key" size={18} />,
    content: PasskeysSection,
    // Offered when the project signs in with passkeys, and to a user who has some (to remove them).
    visible: ({ user, project }) => project?.config.passkeyEnabled === true || user.passkeyAuthEnabled,
  },
  {
    id: 'two-step',
    title: (labels) => labels.accountMfaTitle,
    description: (labels) => labels.accountMfaDescription,
    icon: <Icon name="lock" size={18} />,
    content: MfaSection,
  },
  {
    id: 'sessions',
    title: (labels) => labels.accountSessionsTitle,
    description: (labels) => labels.accountSessionsDescription,
    icon: <Icon name="door" size={18} />,
    content: SessionsSection,
  },
  {
    id: 'security-activity',
    title: (labels) => labels.accountActivityTitle,
    description: (labels) => labels.accountActivityDescription,
    icon: <Icon name="alert" size={18} />,
    content: SecurityActivitySection,
  },
  {
    id: 'teams',
    title: (labels) => labels.accountTeamsTitle,
    description: (labels) => labels.accountTeamsDescription,
    icon: <Icon name="team" size={18} />,
    content: TeamsSection,
  },
  {
    id: 'connected-accounts',
    title: (labels) => labels.accountConnectedTitle,
    description: (labels) => labels.accountConnectedDescription,
    icon: <Icon name="link" size={18} />,
    content: ConnectedAccountsSection,
    visible: ({ user, project }) => connectedAccountsRelevant(user, project),
  },
]);

/**
 * Props of `AccountSettings`: its words, its sections, which one is shown
 * (controlled with `section` + `onSectionChange`, or uncontrolled), and any
 * `<div>` prop for the page element.
 *
 * @example
 * ```tsx
 * <AccountSettings defaultSection="emails" labels={{ accountSettingsTitle: 'Your account' }} />
 * ```
 */
export interface AccountSettingsProps extends LatchkeyTranslation, Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** The sections, in navigation order (default `accountSettingsSections`). */
  sections?: readonly AccountSettingsSection[];
  /** The id of the section shown (controlled). */
  section?: string;
  /** The section shown at first (uncontrolled; default: the URL fragment's, else the first). */
  defaultSection?: string;
  /** Called with the id of the section the user chose. */
  onSectionChange?: (id: string) => void;
}

/**
 * The account settings page for the signed-in user: Profile (name,
 * picture), E-mails (add, verify, make primary, use for sign-in, remove) and
 * Password (change, or set one). A signed-out visitor is sent to sign-in and
 * comes back here. Choosing a section puts its id in the URL fragment and
 * moves the focus to its heading. Other props and the ref go to the page element.
 *
 * @example
 * ```tsx
 * // at /handler/account-settings (the Handler does this for you)
 * <LatchkeyProvider app={app}><AccountSettings /></LatchkeyProvider>
 * ```
 */
export const AccountSettings = forwardRef<HTMLDivElement, AccountSettingsProps>(function AccountSettings(
  {
    labels,
    messages,
    sections = accountSettingsSections,
    section,
    defaultSection,
    onSectionChange,
    className,
    ...rest
  },
  ref,
) {
  const text = useText({ labels, messages });
  const root = useRootProps('lk-settings-page', className);
  // Custom sections may word their titles with any label: the page gives them all.
  const words = wordsOf(text, englishLabels);
  return (
    <TextContext.Provider value={text}>
      <div {...rest} {...root} ref={ref}>
        <Suspense
          fallback={<SettingsStatus className="lk-settings-loading">{words.accountSettingsLoading}</SettingsStatus>}
        >
          <SettingsLayout
            sections={sections}
            section={section}
            defaultSection={defaultSection}
            onSectionChange={onSectionChange}
          />
        </Suspense>
      </div>
    </TextContext.Provider>
  );
});

type LayoutProps = Required<Pick<AccountSettingsProps, 'sections'>> &
  Pick<AccountSettingsProps, 'section' | 'defaultSection' | 'onSectionChange'>;

function SettingsLayout({ sections: allSections, section, defaultSection, onSectionChange }: LayoutProps) {
  const user = useUser({ or: 'redirect' });
  const project = useAppData('project', { suspend: false });
  const loaded = project.status === 'ready' ? project.data : undefined;
  const sections = useMemo(
    () => allSections.filter((entry) => entry.visible?.({ user, project: loaded }) ?? true),
    [allSections, user, loaded],
  );
  const text = useText();
  // Custom sections may word their titles with any label: the page gives them all.
  const words = wordsOf(text, englishLabels);
  const [active, setActive] = useControllableState(
    section,
    // Read against every section: one hidden until the project loads may be the one asked for.
    defaultSection ?? sectionInUrl(allSections) ?? sections[0]?.id ?? '',
    onSectionChange,
  );
  const current = sections.find((entry) => entry.id === active) ?? sections[0];
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusHeading = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once the chosen section is shown, to focus its heading
  useEffect(() => {
    if (!focusHeading.current) return;
    focusHeading.current = false;
    headingRef.current?.focus();
  }, [current]);

  // On a narrow screen the navigation is one row that scrolls sideways: keep the chosen section in view.
  const navListRef = useRef<HTMLUListElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when another section is chosen, to scroll to it
  useEffect(() => {
    const list = navListRef.current;
    const link = list?.querySelector('[aria-current="page"]');
    if (!list || !link || list.scrollWidth <= list.clientWidth) return;
    const row = list.getBoundingClientRect();
    const shown = link.getBoundingClientRect();
    if (shown.left < row.left) list.scrollLeft -= row.left - shown.left;
    else if (shown.right > row.right) list.scrollLeft += shown.right - row.right;
  }, [current?.id]);

  useEffect(() => {
    const onHashChange = () => {
      const id = sectionInUrl(allSections);
      if (id) setActive(id);
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, [allSections, setActive]);

  const choose = (id: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return; // a new tab or window
    event.preventDefault();
    if (id === current?.id) {
      headingRef.current?.focus();
      return;
    }
    focusHeading.current = true;
    window.history.replaceState(window.history.state, '', `#${id}`);
    setActive(id);
  };

  const Content = current?.content;
  return (
    <div className="lk-settings">
      <header className="lk-settings-header">
        <h1 className="lk-title">{words.accountSettingsTitle}</h1>
        <p className="lk-subtitle">{words.accountSettingsSubtitle}</p>
      </header>
      <nav className="lk-settings-nav" aria-label={words.accountSettingsNav}>
        <ul className="lk-settings-nav-list" ref={navListRef}>
          {sections.map((entry) => (
            <li key={entry.id}>
              <a
                className="lk-settings-nav-link"
                href={`#${entry.id}`}
                aria-current={entry.id === current?.id ? 'page' : undefined}
                onClick={choose(entry.id)}
              >
                {entry.icon ? (
                  <span className="lk-settings-nav-icon" aria-hidden="true">
                    {entry.icon}
                  </span>
                ) : null}
                <span>{sectionText(entry.title, words)}</span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="lk-settings-content">
        {current && Content ? (
          <SettingsSection
            key={current.id}
            ref={headingRef}
            title={sectionText(current.title, words)}
            description={current.description ? sectionText(current.description, words) : undefined}
          >
            <Suspense fallback={<SettingsStatus>{words.accountSettingsLoading}</SettingsStatus>}>
              <Content />
            </Suspense>
          </SettingsSection>
        ) : null}
      </div>
    </div>
  );
}

function sectionText(value: Words, labels: Readonly<LatchkeyLabels>): string {
  return typeof value === 'function' ? value(labels) : value;
}

/** The section the URL fragment names, if any. */
function sectionInUrl(sections: readonly AccountSettingsSection[]): string | undefined {
  if (typeof window === 'undefined') return undefined;
  const id = decodeURIComponent(window.location.hash.slice(1));
  return sections.some((entry) => entry.id === id) ? id : undefined;
}
