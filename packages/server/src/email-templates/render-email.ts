/**
 * Renders a project's e-mail of one template type (its edited template, or
 * the default) into subject, HTML and plain text, every variable escaped.
 *
 * PLACEHOLDER until the templates land: plain defaults, so that the flows can
 * queue real mails meanwhile. The signature is the contract.
 */
import type { ProjectRecord } from '../projects/projects.js';
import type { Db } from '../storage/db.js';
import type { EmailTemplateType, EmailTemplateVariables } from './template-types.js';

/** A rendered mail. */
export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export async function renderEmail<T extends EmailTemplateType>(
  _db: Db,
  project: ProjectRecord,
  type: T,
  variables: EmailTemplateVariables[T],
): Promise<RenderedEmail> {
  const lines = Object.entries(variables).map(([name, value]) => `${name}: ${value ?? ''}`);
  const subject = `${project.displayName}: ${type.replace(/_/g, ' ')}`;
  return {
    subject,
    html: `<p>${lines.map(escapeHtml).join('<br>')}</p>`,
    text: lines.join('\n'),
  };
}
