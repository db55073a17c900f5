/**
 * Sign-in methods: which ways of signing in the project offers (password,
 * e-mailed codes, passkeys), what clients may do themselves (sign up, create
 * teams, delete their account), its OAuth providers (presets on shared or
 * own keys, and any OpenID Connect issuer), and its limits on guessing.
 */
import { type AdminProject, adminProjectQuery, type ProjectConfigUpdate } from '@latchkey/js/admin';
import { useQuery } from '@latchkey/react';
import { useProject } from '../../project.js';
import type { PageProps } from '../../routes.js';
import { PageHeader, Section } from '../../ui/page.js';
import { SettingSwitch } from '../settings/setting-switch.js';
import { OAuthProviders } from './oauth-providers.js';
import { RateLimitsForm } from './rate-limits-form.js';

type Flag =
  | 'credentialEnabled'
  | 'magicLinkEnabled'
  | 'passkeyEnabled'
  | 'signUpEnabled'
  | 'clientTeamCreationEnabled'
  | 'clientUserDeletionEnabled';

const methods: { key: Flag; label: string; hint: string }[] = [
  { key: 'credentialEnabled', label: 'Password', hint: 'Sign in with an e-mail address and a password.' },
  {
    key: 'magicLinkEnabled',
    label: 'Magic link',
    hint: 'Sign in with a code or link e-mailed to the address.',
  },
  { key: 'passkeyEnabled', label: 'Passkeys', hint: 'Sign in with a passkey saved on a device.' },
];

const clientRights: { key: Flag; label: string; hint: string }[] = [
  { key: 'signUpEnabled', label: 'Sign-up', hint: 'New people may create an account. Off: only you add users.' },
  { key: 'clientTeamCreationEnabled', label: 'Client team creation', hint: 'Users may create teams from the app.' },
  { key: 'clientUserDeletionEnabled', label: 'Client user deletion', hint: 'Users may delete their own account.' },
];

export default function SignInMethodsPage(_props: PageProps) {
  const project = useQuery(adminProjectQuery, { suspend: true });
  return (
    <>
      <PageHeader title="Sign-in methods" description="How people sign in to your app, and what they may do there." />
      <Section title="Methods">
        <Switches project={project} flags={methods} />
      </Section>
      <Section title="What users may do">
        <Switches project={project} flags={clientRights} />
      </Section>
      <OAuthProviders project={project} />
      <RateLimitsForm project={project} />
    </>
  );
}

function Switches({ project, flags }: { project: AdminProject; flags: typeof methods }) {
  const { adminApp } = useProject();
  return (
    <div>
      {flags.map(({ key, label, hint }) => (
        <SettingSwitch
          key={key}
          label={label}
          hint={hint}
          checked={project.config[key]}
          save={(next) => adminApp.updateProject({ config: { [key]: next } as ProjectConfigUpdate })}
        />
      ))}
    </div>
  );
}
