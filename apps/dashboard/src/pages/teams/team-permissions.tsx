/**
 * What one member holds in a team: the permissions granted to them directly
 * (each can be revoked), the ones those contain, and a grant of any defined
 * permission (`permissionDefinitionsQuery`).
 */
import { permissionDefinitionsQuery, type ServerTeamUser, userTeamPermissionsQuery } from '@latchkey/js/admin';
import { BusyButton, errorText, Form, FormAlert, FormField, useFormAction, useQuery } from '@latchkey/react';
import { useState } from 'react';
import { ConfirmButton } from '../../ui/confirm.js';
import { userLabel } from './find-user.js';

export function MemberPermissions({ teamId, member }: { teamId: string; member: ServerTeamUser }) {
  const direct = useQuery(userTeamPermissionsQuery(member.id, teamId, { recursive: false }), { suspend: false });
  const all = useQuery(userTeamPermissionsQuery(member.id, teamId), { suspend: false });
  const name = userLabel(member);
  if (direct.status === 'failed') return <p className="ld-muted">{errorText(direct.error, undefined)}</p>;
  if (direct.status === 'loading') return <span className="ld-muted">Loading…</span>;
  const granted = direct.data.map((permission) => permission.id);
  const contained = (all.data ?? []).map((permission) => permission.id).filter((id) => !granted.includes(id));
  return (
    <div className="ld-member-permissions">
      {granted.length === 0 ? (
        <p className="ld-muted">No permission granted.</p>
      ) : (
        <ul className="ld-permission-chips" aria-label={`Permissions granted to ${name}`}>
          {granted.map((id) => (
            <li key={id}>
              <code>{id}</code>
              <ConfirmButton
                variant="secondary"
                title={`Revoke ${id} from ${name}?`}
                description="They keep it only if another permission they hold contains it."
                confirmLabel="Revoke permission"
                aria-label={`Revoke ${id} from ${name}`}
                onConfirm={() => member.revokePermission(teamId, id)}
              >
                Revoke
              </ConfirmButton>
            </li>
          ))}
        </ul>
      )}
      {contained.length > 0 ? (
        <p className="ld-muted">
          Contained: {contained.map((id, index) => [index > 0 ? ', ' : '', <code key={id}>{id}</code>])}
        </p>
      ) : null}
      <GrantForm teamId={teamId} member={member} granted={granted} />
    </div>
  );
}

function GrantForm({ teamId, member, granted }: { teamId: string; member: ServerTeamUser; granted: string[] }) {
  const definitions = useQuery(permissionDefinitionsQuery, { suspend: false });
  const [chosen, setChosen] = useState('');
  const form = useFormAction(['permission'] as const);
  const choices = (definitions.data ?? []).filter((definition) => !granted.includes(definition.id));
  const submit = () =>
    form.submit({
      check: () => (chosen ? {} : { permission: 'Choose a permission.' }),
      work: async () => {
        await member.grantPermission(teamId, chosen);
        setChosen('');
      },
      refusal: (error) => ({ permission: errorText(error, undefined) }),
    });
  return (
    <Form state={form} onSubmit={submit} className="ld-grant-form">
      <FormField name="permission" label={`Grant to ${userLabel(member)}`}>
        {(control) => (
          <select
            {...control}
            className="lk-input"
            value={chosen}
            disabled={definitions.status !== 'ready'}
            onChange={(event) => {
              setChosen(event.target.value);
              form.edited('permission');
            }}
          >
            <option value="">{definitions.status === 'ready' ? 'Choose a permission' : 'Loading…'}</option>
            {choices.map((definition) => (
              <option key={definition.id} value={definition.id}>
                {definition.id}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormAlert />
      <BusyButton block={false} variant="secondary">
        Grant
      </BusyButton>
    </Form>
  );
}
