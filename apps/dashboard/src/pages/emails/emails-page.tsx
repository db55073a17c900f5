/**
 * E-mail: who sends the project's mail (the service's shared sender or the
 * project's own SMTP server, with a test e-mail), the new-device alert
 * switch, the five templates with a live preview, and the delivery status of
 * the mail sent lately.
 */
import { adminProjectQuery, emailTemplatesQuery } from '@latchkey/js/admin';
import { useQuery } from '@latchkey/react';
import { useProject } from '../../project.js';
import type { PageProps } from '../../routes.js';
import { Boundary } from '../../ui/boundary.js';
import { PageHeader, Section } from '../../ui/page.js';
import { SettingSwitch } from '../settings/setting-switch.js';
import { SenderForm } from './sender-form.js';
import { SentMail, SentMailRefresh } from './sent-mail.js';
import { TemplatesList } from './templates.js';

export default function Page(_props: PageProps) {
  const { adminApp } = useProject();
  return (
    <>
      <PageHeader title="E-mail" description="Who sends your users' mail, what it says, and whether it arrived." />
      <Section id="sender" title="Sender" description="The service's shared sender, or your own SMTP server.">
        <Boundary onRetry={() => adminApp.invalidate(adminProjectQuery)}>
          <SenderForm />
        </Boundary>
      </Section>
      <Section id="alerts" title="Alerts" description="Mail your users about their account's security.">
        <Boundary onRetry={() => adminApp.invalidate(adminProjectQuery)}>
          <NewDeviceAlertSwitch />
        </Boundary>
      </Section>
      <Section
        id="templates"
        title="Templates"
        description={
          "The mails the sign-in flows send. Edit one to change its subject and body. Under the service's shared " +
          'sender, edits are allowed only where that mail lands in the dev mailbox: set up your own SMTP server ' +
          'to edit them in production.'
        }
      >
        <Boundary onRetry={() => adminApp.invalidate(emailTemplatesQuery)}>
          <TemplatesList />
        </Boundary>
      </Section>
      <Section
        id="sent-mail"
        title="Sent mail"
        description="The newest mails of the project and how their delivery went."
        actions={<SentMailRefresh />}
      >
        <Boundary onRetry={() => adminApp.invalidate(['sentEmails'])}>
          <SentMail />
        </Boundary>
      </Section>
    </>
  );
}

function NewDeviceAlertSwitch() {
  const { adminApp } = useProject();
  const project = useQuery(adminProjectQuery, { suspend: true });
  return (
    <SettingSwitch
      label="New-device alert"
      hint="When an account signs in from a browser it has not used before, mail its owner a link to their sessions (the New-device alert template)."
      checked={project.config.newDeviceAlertEnabled ?? false}
      save={(next) => adminApp.updateProject({ config: { newDeviceAlertEnabled: next } })}
    />
  );
}
