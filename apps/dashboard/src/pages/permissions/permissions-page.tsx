/**
 * Permissions: the project's team permission definitions as a tree (each
 * definition with the ones it contains below it), creating, editing and
 * deleting them, and the permissions a team's creator and its other members
 * get when they join (the project's `teamCreatorDefaultPermissions` and
 * `teamMemberDefaultPermissions`).
 */
import { adminProjectQuery, permissionDefinitionsQuery, type TeamPermissionDefinition } from '@latchkey/js/admin';
import {
  BusyButton,
  errorText,
  Form,
  FormAlert,
  FormField,
  type FormFieldProps,
  useFormAction,
  useQuery,
} from '@latchkey/react';
import { useState } from 'react';
import { useProject } from '../../project.js';
import type { PageProps } from '../../routes.js';
import { ConfirmButton } from '../../ui/confirm.js';
import { FormDialog } from '../../ui/dialog.js';
import { SavedNotice, TextField } from '../../ui/fields.js';
import { Badge, PageHeader, Section } from '../../ui/page.js';
import { refusalOf } from '../../ui/refusals.js';
import { EmptyState, ErrorState, Loading } from '../../ui/states.js';

const isSystem = (id: string) => id.startsWith('$');
const idPattern = /^[a-z0-9_:]+$/;

export default function PermissionsPage(_props: PageProps) {
  const { adminApp } = useProject();
  const definitions = useQuery(permissionDefinitionsQuery, { suspend: false });
  return (
    <>
      <PageHeader
        title="Permissions"
        description="What members may do in a team. A permission may contain others: holding it grants them too."
        actions={
          <FormDialog trigger="Create permission" title="Create a permission" wide>
            {(close) => <DefinitionForm definitions={definitions.data ?? []} onDone={close} />}
          </FormDialog>
        }
      />
      <Section
        title="Team permissions"
        description="Each permission with the ones it contains below it. The five $ permissions are the service's own and cannot be changed."
      >
        {definitions.status === 'failed' ? (
          <ErrorState error={definitions.error} onRetry={() => adminApp.invalidate(permissionDefinitionsQuery)} />
        ) : definitions.status === 'loading' ? (
          <Loading />
        ) : definitions.data.length === 0 ? (
          <EmptyState title="No permissions yet" />
        ) : (
          <PermissionTree definitions={definitions.data} />
        )}
      </Section>
      <DefaultsSection definitions={definitions.data} />
    </>
  );
}

/** The definitions no other contains are the roots; a definition's children are the ones it contains. */
function PermissionTree({ definitions }: { definitions: TeamPermissionDefinition[] }) {
  const byId = new Map(definitions.map((definition) => [definition.id, definition]));
  const contained = new Set(definitions.flatMap((definition) => definition.containedPermissionIds));
  const roots = definitions.filter((definition) => !contained.has(definition.id));
  const ordered = [...roots.filter((d) => !isSystem(d.id)), ...roots.filter((d) => isSystem(d.id))];
  return (
    <ul className="ld-permission-tree" aria-label="Team permissions">
      {ordered.map((definition) => (
        <PermissionNode key={definition.id} definition={definition} byId={byId} all={definitions} path={[]} />
      ))}
    </ul>
  );
}

function PermissionNode({
  definition,
  byId,
  all,
  path,
}: {
  definition: TeamPermissionDefinition;
  byId: Map<string, TeamPermissionDefinition>;
  all: TeamPermissionDefinition[];
  path: string[];
}) {
  const { adminApp } = useProject();
  const children = definition.containedPermissionIds
    .filter((id) => !path.includes(id))
    .map((id) => byId.get(id) ?? { id, description: null, containedPermissionIds: [] });
  const system = isSystem(definition.id);
  return (
    <li>
      <div className="ld-permission-node">
        <div>
          <code className="ld-permission-id">{definition.id}</code> {system ? <Badge>System</Badge> : null}
          {definition.description ? <p className="ld-muted">{definition.description}</p> : null}
        </div>
        {system ? null : (
          <div className="ld-actions">
            <FormDialog
              trigger={
                <>
                  Edit<span className="ld-visually-hidden"> {definition.id}</span>
                </>
              }
              title={`Edit ${definition.id}`}
              variant="secondary"
              wide
            >
              {(close) => <DefinitionForm definitions={all} editing={definition} onDone={close} />}
            </FormDialog>
            <ConfirmButton
              title={`Delete the permission ${definition.id}?`}
              description="Members lose it in every team, and it is taken out of the permissions that contain it and of the default permissions."
              confirmLabel="Delete permission"
              aria-label={`Delete ${definition.id}`}
              onConfirm={() => adminApp.deleteTeamPermissionDefinition(definition.id)}
            >
              Delete
            </ConfirmButton>
          </div>
        )}
      </div>
      {children.length > 0 ? (
        <ul aria-label={`Contained in ${definition.id}`}>
          {children.map((child) => (
            <PermissionNode key={child.id} definition={child} byId={byId} all={all} path={[...path, definition.id]} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** The ids `id` contains, directly or through others. */
function reachable(id: string, definitions: TeamPermissionDefinition[]): Set<string> {
  const byId = new Map(definitions.map((definition) => [definition.id, definition]));
  const seen = new Set<string>();
  const visit = (current: string) => {
    for (const next of byId.get(current)?.containedPermissionIds ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        visit(next);
      }
    }
  };
  visit(id);
  return seen;
}

/** Creates a definition, or edits `editing` (its id too). */
function DefinitionForm({
  definitions,
  editing,
  onDone,
}: {
  definitions: TeamPermissionDefinition[];
  editing?: TeamPermissionDefinition;
  onDone: () => void;
}) {
  const { adminApp } = useProject();
  const [id, setId] = useState(editing?.id ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [contained, setContained] = useState<string[]>(editing?.containedPermissionIds ?? []);
  const form = useFormAction(['id', 'description', 'contained'] as const);
  // A definition cannot contain itself, nor one that contains it.
  const choices = definitions.filter(
    (definition) =>
      !editing || (definition.id !== editing.id && !reachable(definition.id, definitions).has(editing.id)),
  );
  const submit = () =>
    form.submit({
      check: () => {
        const wanted = id.trim();
        if (!wanted) return { id: 'Enter an id, e.g. billing:read.' };
        if (!idPattern.test(wanted)) return { id: 'Use lowercase letters, digits, _ and : only.' };
        if (wanted !== editing?.id && definitions.some((definition) => definition.id === wanted)) {
          return { id: `The permission ${wanted} exists already.` };
        }
        return {};
      },
      work: async () => {
        const options = { id: id.trim(), description: description.trim(), containedPermissionIds: contained };
        if (editing) await adminApp.updateTeamPermissionDefinition(editing.id, options);
        else await adminApp.createTeamPermissionDefinition(options);
        onDone();
      },
      refusal: (error) => {
        return refusalOf(
          error,
          { id: 'id', description: 'description', contained_permission_ids: 'contained' } as const,
          { CONTAINED_PERMISSION_NOT_FOUND: 'contained' } as const,
        );
      },
    });
  return (
    <Form state={form} onSubmit={submit} className="ld-form">
      <TextField
        field="id"
        label="Id"
        hint="Lowercase letters, digits, _ and :, e.g. billing:read."
        spellCheck={false}
        value={id}
        onValueChange={setId}
      />
      <TextField
        field="description"
        label="Description (optional)"
        value={description}
        onValueChange={setDescription}
      />
      <FormField
        name="contained"
        label="Contained permissions"
        hint="Holding this permission grants these too. Choose several with Ctrl or ⌘."
      >
        {(control) => (
          <select
            {...control}
            multiple
            className="lk-input ld-multi-select"
            size={Math.min(8, Math.max(3, choices.length))}
            value={contained}
            onChange={(event) => {
              setContained([...event.target.selectedOptions].map((option) => option.value));
              form.edited('contained');
            }}
          >
            {choices.map((definition) => (
              <option key={definition.id} value={definition.id}>
                {definition.id}
                {definition.description ? ` — ${definition.description}` : ''}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormAlert />
      <div className="ld-form-actions">
        <BusyButton block={false}>{editing ? 'Save permission' : 'Create permission'}</BusyButton>
      </div>
    </Form>
  );
}

function DefaultsSection({ definitions }: { definitions: TeamPermissionDefinition[] | undefined }) {
  const { adminApp } = useProject();
  const project = useQuery(adminProjectQuery, { suspend: false });
  return (
    <Section
      title="Default permissions"
      description="What a user gets in a team when they create it, and when they join it (added, or by invitation)."
    >
      {project.status === 'failed' ? (
        <ErrorState error={project.error} onRetry={() => adminApp.invalidate(adminProjectQuery)} />
      ) : project.status === 'loading' || !definitions ? (
        <Loading />
      ) : (
        <DefaultsForm
          definitions={definitions}
          creator={project.data.config.teamCreatorDefaultPermissions.map(({ id }) => id)}
          member={project.data.config.teamMemberDefaultPermissions.map(({ id }) => id)}
        />
      )}
    </Section>
  );
}

function DefaultsForm({
  definitions,
  creator: savedCreator,
  member: savedMember,
}: {
  definitions: TeamPermissionDefinition[];
  creator: string[];
  member: string[];
}) {
  const { adminApp } = useProject();
  const [creator, setCreator] = useState(savedCreator);
  const [member, setMember] = useState(savedMember);
  const form = useFormAction(['creator', 'member'] as const);
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((id) => b.includes(id));
  const changed = !same(creator, savedCreator) || !same(member, savedMember);
  const submit = () =>
    form.submit({
      work: async () => {
        await adminApp.updateProject({
          config: {
            teamCreatorDefaultPermissions: creator.map((id) => ({ id })),
            teamMemberDefaultPermissions: member.map((id) => ({ id })),
          },
        });
        return 'Default permissions saved.';
      },
      refusal: (error) => {
        const text = errorText(error, undefined);
        if (/creator/.test(text)) return { creator: text };
        if (/member/.test(text)) return { member: text };
        return null;
      },
    });
  const select =
    (name: 'creator' | 'member', value: string[], set: (ids: string[]) => void) =>
    (control: Parameters<FormFieldProps['children']>[0]) => (
      <select
        {...control}
        multiple
        className="lk-input ld-multi-select"
        size={Math.min(8, Math.max(3, definitions.length))}
        value={value}
        onChange={(event) => {
          set([...event.target.selectedOptions].map((option) => option.value));
          form.edited(name);
        }}
      >
        {definitions.map((definition) => (
          <option key={definition.id} value={definition.id}>
            {definition.id}
          </option>
        ))}
      </select>
    );
  return (
    <Form state={form} onSubmit={submit} className="ld-form ld-defaults-form">
      <div className="ld-defaults-grid">
        <FormField name="creator" label="A team's creator gets" hint="Choose several with Ctrl or ⌘.">
          {select('creator', creator, setCreator)}
        </FormField>
        <FormField name="member" label="Every other member gets" hint="Choose several with Ctrl or ⌘.">
          {select('member', member, setMember)}
        </FormField>
      </div>
      <FormAlert />
      <div className="ld-form-actions">
        <BusyButton block={false} disabled={!changed}>
          Save default permissions
        </BusyButton>
        <SavedNotice form={form} />
      </div>
    </Form>
  );
}
