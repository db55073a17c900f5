/**
 * Adding a member: a user id or an exact e-mail address typed in, or one of
 * the users the search finds as the administrator types (`serverUsersQuery`).
 */
import { type ServerTeam, type ServerTeamUser, serverUsersQuery } from '@latchkey/js/admin';
import { BusyButton, errorText, Form, FormAlert, useFormAction, useQuery } from '@latchkey/react';
import { useEffect, useState } from 'react';
import { useProject } from '../../project.js';
import { TextField } from '../../ui/fields.js';
import { userIdOf, userLabel } from './find-user.js';

/** `text` once it has not changed for `delay` ms. */
function useSettled(text: string, delay = 250): string {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), delay);
    return () => clearTimeout(timer);
  }, [text, delay]);
  return settled;
}

class NoSuchAddress extends Error {}

export function AddMemberForm({
  team,
  members,
  onAdded,
}: {
  team: ServerTeam;
  members: readonly ServerTeamUser[];
  onAdded: () => void;
}) {
  const { adminApp } = useProject();
  const [text, setText] = useState('');
  const search = useSettled(text.trim());
  const found = useQuery(serverUsersQuery({ query: search, limit: 5 }), {
    suspend: false,
    enabled: search.length >= 2,
  });
  const form = useFormAction(['user'] as const);
  const memberIds = new Set(members.map((member) => member.id));
  const add = (userId: string | null) =>
    form.submit({
      check: () => (text.trim() || userId ? {} : { user: 'Enter a user id or an e-mail address.' }),
      work: async () => {
        const id = userId ?? (await userIdOf(adminApp, text));
        if (id === null) throw new NoSuchAddress();
        await team.addUser(id);
        onAdded();
      },
      refusal: (error) => {
        if (error instanceof NoSuchAddress) return { user: 'No user has this e-mail address.' };
        const code = (error as { code?: string }).code;
        if (code === 'USER_NOT_FOUND' || code === 'TEAM_MEMBERSHIP_ALREADY_EXISTS') {
          return { user: errorText(error, undefined) };
        }
        return null;
      },
    });
  const suggestions = search.length >= 2 && found.status === 'ready' ? found.data.items : [];
  return (
    <Form state={form} onSubmit={() => add(null)} className="ld-form">
      <TextField
        field="user"
        label="User"
        hint="A user id or an e-mail address; users matching a name or e-mail are listed below."
        value={text}
        onValueChange={setText}
      />
      {suggestions.length > 0 ? (
        <ul className="ld-pick-list" aria-label="Matching users">
          {suggestions.map((user) => (
            <li key={user.id}>
              <span>
                {userLabel(user)}
                {user.displayName && user.primaryEmail ? <span className="ld-muted"> {user.primaryEmail}</span> : null}
              </span>
              {memberIds.has(user.id) ? (
                <span className="ld-muted">Member</span>
              ) : (
                <button
                  type="button"
                  className="lk-button lk-button-secondary ld-button-small"
                  disabled={form.busy}
                  onClick={() => add(user.id)}
                >
                  Add <span className="ld-visually-hidden">{userLabel(user)}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : search.length >= 2 && found.status === 'ready' ? (
        <p className="ld-muted" role="status">
          No user matches “{search}”.
        </p>
      ) : null}
      <FormAlert />
      <div className="ld-form-actions">
        <BusyButton block={false}>Add member</BusyButton>
      </div>
    </Form>
  );
}
