/**
 * The five e-mail templates: a list, and an editor for one of them (subject
 * and body document) beside a live preview the service renders with sample
 * values as you type; save, or reset to the built-in default.
 */
import { type EmailPreview, type EmailTemplate, type EmailTemplateType, emailTemplatesQuery } from '@latchkey/js/admin';
import { BusyButton, errorText, Form, FormAlert, FormField, useFormAction, useQuery } from '@latchkey/react';
import { useEffect, useRef, useState } from 'react';
import { useProject } from '../../project.js';
import { ConfirmButton } from '../../ui/confirm.js';
import { type ColumnDef, DataTable } from '../../ui/data-table.js';
import { SavedNotice, TextField } from '../../ui/fields.js';
import { parseJsonObject } from '../../ui/json-editor.js';
import { Badge } from '../../ui/page.js';
import { refusalOf } from '../../ui/refusals.js';

export const templateLabels: Record<EmailTemplateType, string> = {
  email_verification: 'E-mail verification',
  password_reset: 'Password reset',
  magic_link: 'Magic link',
  team_invitation: 'Team invitation',
  new_device_sign_in: 'New-device alert',
};

/** How long typing pauses before the preview is rendered again. */
const previewDelay = 400;

export function TemplatesList() {
  const templates = useQuery(emailTemplatesQuery, { suspend: false });
  const { adminApp } = useProject();
  const [editing, setEditing] = useState<EmailTemplateType | null>(null);
  const editingTemplate = templates.data?.find((template) => template.type === editing);

  const columns: ColumnDef<EmailTemplate>[] = [
    { id: 'type', header: 'Template', cell: ({ row }) => templateLabels[row.original.type] },
    { id: 'subject', header: 'Subject', cell: ({ row }) => row.original.subject },
    {
      id: 'status',
      header: 'Status',
      cell: ({ row }) => (row.original.isDefault ? <Badge>Default</Badge> : <Badge tone="success">Edited</Badge>),
    },
    {
      id: 'edit',
      header: 'Actions',
      cell: ({ row }) => (
        <button
          type="button"
          className="lk-button lk-button-secondary ld-button-small"
          aria-pressed={editing === row.original.type}
          aria-label={`Edit ${templateLabels[row.original.type]}`}
          onClick={() => setEditing(editing === row.original.type ? null : row.original.type)}
        >
          Edit
        </button>
      ),
    },
  ];

  return (
    <>
      <DataTable
        caption="E-mail templates"
        columns={columns}
        rows={templates.data}
        error={templates.error}
        onRetry={() => adminApp.invalidate(emailTemplatesQuery)}
        empty={{ title: 'No templates', description: 'The service lists none.' }}
        rowId={(template) => template.type}
      />
      {editingTemplate ? (
        <TemplateEditor key={editingTemplate.type} template={editingTemplate} onClose={() => setEditing(null)} />
      ) : null}
    </>
  );
}

/**
 * The document as text to edit, its blocks in reading order: `root` first,
 * then each block where a `childrenIds` list names it (the service stores
 * the keys in its own order).
 */
function show(content: unknown): string {
  if (!content || typeof content !== 'object' || Array.isArray(content)) return JSON.stringify(content, null, 2);
  const blocks = content as Record<string, unknown>;
  const order: string[] = [];
  const visit = (id: string) => {
    if (order.includes(id) || !(id in blocks)) return;
    order.push(id);
    for (const child of childIds(blocks[id])) visit(child);
  };
  if ('root' in blocks) visit('root');
  const ordered: Record<string, unknown> = {};
  for (const key of [...order, ...Object.keys(blocks)]) ordered[key] ??= blocks[key];
  return JSON.stringify(ordered, null, 2);
}

/** Every id in a `childrenIds` list anywhere inside a block. */
function childIds(value: unknown): string[] {
  if (!value || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap(childIds);
  return Object.entries(value).flatMap(([key, inner]) =>
    key === 'childrenIds' && Array.isArray(inner)
      ? inner.filter((id): id is string => typeof id === 'string')
      : childIds(inner),
  );
}

type PreviewState =
  | { status: 'loading' }
  | { status: 'ready'; preview: EmailPreview }
  | { status: 'failed'; message: string };

function TemplateEditor({ template, onClose }: { template: EmailTemplate; onClose: () => void }) {
  const { adminApp } = useProject();
  const label = templateLabels[template.type];
  const [subject, setSubject] = useState(template.subject);
  const [body, setBody] = useState(() => show(template.content));
  const [saved, setSaved] = useState({ subject: template.subject, body: show(template.content) });
  const form = useFormAction(['subject', 'content'] as const);
  const preview = usePreview(template.type, subject, body);
  const unchanged = subject === saved.subject && body === saved.body;

  const save = () => {
    const parsed = parseJsonObject(body);
    return form.submit({
      check: () => {
        const errors: { subject?: string; content?: string } = {};
        if (!subject.trim()) errors.subject = 'Enter a subject.';
        else if (/[\r\n]/.test(subject)) errors.subject = 'Keep the subject on one line.';
        if ('error' in parsed) errors.content = parsed.error;
        else if (parsed.value === null) errors.content = 'Enter the body document (JSON).';
        return errors;
      },
      work: async () => {
        if ('error' in parsed || parsed.value === null) return;
        const stored = await adminApp.updateEmailTemplate(template.type, {
          subject: subject.trim(),
          content: parsed.value as EmailTemplate['content'],
        });
        setSubject(stored.subject);
        setBody(show(stored.content));
        setSaved({ subject: stored.subject, body: show(stored.content) });
        return `${label} template saved.`;
      },
      refusal: (error) =>
        refusalOf(error, { subject: 'subject', content: 'content' } as const) ??
        ((error as { code?: unknown })?.code === 'SCHEMA_ERROR'
          ? { content: `The service refused this: ${(error as Error).message || errorText(error, undefined)}` }
          : null),
    });
  };

  const reset = async () => {
    await adminApp.resetEmailTemplate(template.type);
    const fresh = (await adminApp.listEmailTemplates()).find((item) => item.type === template.type);
    if (!fresh) return;
    setSubject(fresh.subject);
    setBody(show(fresh.content));
    setSaved({ subject: fresh.subject, body: show(fresh.content) });
    form.setErrors({});
    form.setOutcome({ kind: 'success', text: `${label} template reset to the default.` });
  };

  return (
    <div className="ld-template-editor">
      <div className="ld-template-editor-header">
        <h3>Edit: {label}</h3>
        <button type="button" className="lk-button lk-button-secondary ld-button-small" onClick={onClose}>
          Close editor
        </button>
      </div>
      <div className="ld-template-panes">
        <Form state={form} onSubmit={save} className="ld-form" aria-label={`${label} template`}>
          <TextField
            field="subject"
            label="Subject"
            hint="Placeholders like {{ projectDisplayName }} are filled in when the mail is sent."
            value={subject}
            onValueChange={setSubject}
          />
          <FormField
            name="content"
            label="Body (editor document, JSON)"
            hint="Blocks: Heading, Text, Button, Code, Divider, Spacer, Container. A button’s link must be a link placeholder."
          >
            {(control) => (
              <textarea
                {...control}
                className="lk-input ld-code-input ld-template-body"
                spellCheck={false}
                rows={16}
                value={body}
                onChange={(event) => {
                  setBody(event.target.value);
                  form.edited('content');
                }}
              />
            )}
          </FormField>
          <FormAlert />
          <div className="ld-form-actions">
            <BusyButton block={false} disabled={unchanged}>
              Save template
            </BusyButton>
            <ConfirmButton
              variant="secondary"
              title={`Reset the ${label.toLowerCase()} template?`}
              description="Your subject and body are dropped; the built-in default is sent again."
              confirmLabel="Reset to default"
              disabled={template.isDefault}
              onConfirm={reset}
            >
              Reset to default
            </ConfirmButton>
            <SavedNotice form={form} />
          </div>
        </Form>
        <div className="ld-template-preview" aria-live="polite" aria-busy={preview.status === 'loading'}>
          <p className="lk-label">Preview (sample values)</p>
          {preview.status === 'failed' ? (
            <p className="ld-muted" role="status">
              No preview: {preview.message}
            </p>
          ) : preview.status === 'ready' ? (
            <>
              <p className="ld-template-preview-subject">
                <span className="ld-muted">Subject: </span>
                <span data-testid="preview-subject">{preview.preview.subject}</span>
              </p>
              <iframe
                className="ld-template-frame"
                title={`Preview of the ${label.toLowerCase()} e-mail`}
                sandbox=""
                srcDoc={preview.preview.html}
              />
            </>
          ) : (
            <p className="ld-muted">Rendering the preview…</p>
          )}
        </div>
      </div>
    </div>
  );
}

/** The service's rendering of the edit, again each time typing pauses; the newest answer wins. */
function usePreview(type: EmailTemplateType, subject: string, body: string) {
  const { adminApp } = useProject();
  const [state, setState] = useState<PreviewState>({ status: 'loading' });
  const latest = useRef(0);
  useEffect(() => {
    const parsed = parseJsonObject(body);
    if ('error' in parsed) {
      setState({ status: 'failed', message: 'the body is not valid JSON.' });
      return;
    }
    if (!subject.trim()) {
      setState({ status: 'failed', message: 'the subject is empty.' });
      return;
    }
    const request = ++latest.current;
    const timer = setTimeout(() => {
      adminApp
        .previewEmailTemplate(type, {
          subject: subject.trim(),
          ...(parsed.value ? { content: parsed.value as EmailTemplate['content'] } : {}),
        })
        .then(
          (preview) => request === latest.current && setState({ status: 'ready', preview }),
          (error: unknown) =>
            request === latest.current &&
            setState({
              status: 'failed',
              message: String((error as Error)?.message || errorText(error, undefined)),
            }),
        );
    }, previewDelay);
    return () => clearTimeout(timer);
  }, [adminApp, type, subject, body]);
  return state;
}
