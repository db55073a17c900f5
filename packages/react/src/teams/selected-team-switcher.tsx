'use client';
/**
 * `SelectedTeamSwitcher`: the signed-in user's selected team, and a popover
 * to switch it. The button names the selected team (with its picture); the
 * popover lists the user's teams as buttons, the selected one marked
 * (`aria-current`), and, when the project lets users create teams, a form to
 * create one there, which then becomes the selected team. Keyboard: Enter,
 * Space or ArrowDown opens it on the selected team, arrows move between
 * teams, Enter chooses, Tab reaches the create form, Escape closes; the focus
 * returns to the button. The choice is stored on the user (every device sees it).
 */
import type { Team } from '@latchkey/js';
import { forwardRef, type HTMLAttributes, useEffect, useId, useRef, useState } from 'react';
import { Avatar } from '../internal/avatar.js';
import { Icon } from '../internal/icon.js';
import { useRootProps } from '../internal/root-props.js';
import { TextContext, useLabels, useText } from '../internal/text.js';
import { useAppData } from '../internal/use-app-data.js';
import type { LatchkeyTranslation } from '../labels.js';
import { useUser } from '../use-user.js';
import { useMenu } from '../user-button/use-menu.js';
import { OneFieldForm } from './one-field-form.js';
import { teamLabels } from './team-labels.js';
import { createSelectedTeam, useTeams } from './use-teams.js';

/**
 * Props of `SelectedTeamSwitcher`.
 *
 * @example
 * ```tsx
 * <SelectedTeamSwitcher urlMap={(team) => `/teams/${team.id}`} />
 * ```
 */
export interface SelectedTeamSwitcherProps
  extends LatchkeyTranslation,
    Omit<HTMLAttributes<HTMLDivElement>, 'children' | 'onChange'> {
  /** Called after the selected team changed. */
  onChange?: (team: Team | null) => void;
  /** Where to go after choosing a team (e.g. the team's page); default: stay. */
  urlMap?: (team: Team) => string;
}

/**
 * The selected team and a list to switch it; nothing for a signed-out visitor.
 *
 * @example
 * ```tsx
 * <header><SelectedTeamSwitcher /><UserButton /></header>
 * ```
 */
export const SelectedTeamSwitcher = forwardRef<HTMLDivElement, SelectedTeamSwitcherProps>(function SelectedTeamSwitcher(
  { onChange, urlMap, labels, messages, className, ...rest },
  ref,
) {
  const text = useText({ labels, messages });
  const user = useUser();
  const root = useRootProps('lk-team-switcher', className);
  if (!user) return null;
  return (
    <TextContext.Provider value={text}>
      <div {...rest} {...root} ref={ref}>
        <Switcher onChange={onChange} urlMap={urlMap} />
      </div>
    </TextContext.Provider>
  );
});

/** A team's picture, or its initial. */
export function TeamAvatar({ team }: { team: Pick<Team, 'displayName' | 'profileImageUrl'> | null }) {
  const shown = team ?? { displayName: '?', profileImageUrl: null };
  return <Avatar user={{ ...shown, primaryEmail: null }} className="lk-team-avatar" />;
}

function Switcher({ onChange, urlMap }: Pick<SelectedTeamSwitcherProps, 'onChange' | 'urlMap'>) {
  const labels = useLabels(teamLabels);
  const user = useUser({ or: 'throw' });
  const teams = useTeams();
  const project = useAppData('project', { suspend: false });
  const { open, close, buttonProps, menuProps } = useMenu({ popup: 'dialog', itemSelector: '.lk-team-switcher-item' });
  const [busy, setBusy] = useState(false);
  const [creating, setCreating] = useState(false);
  const popoverId = useId();
  const createRef = useRef<HTMLDivElement>(null);
  const selected = user.selectedTeam;
  const canCreate = project.status === 'ready' && project.data.config.clientTeamCreationEnabled;

  useEffect(() => {
    if (!open) setCreating(false);
  }, [open]);
  useEffect(() => {
    if (creating) createRef.current?.querySelector('input')?.focus();
  }, [creating]);

  const chosen = (team: Team) => {
    onChange?.(team);
    if (urlMap) window.location.assign(urlMap(team));
  };
  const choose = async (team: Team) => {
    if (team.id === selected?.id) {
      close(true);
      return;
    }
    setBusy(true);
    try {
      await user.setSelectedTeam(team);
      close(true);
      chosen(team);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button
        type="button"
        className="lk-team-switcher-trigger"
        aria-controls={open ? popoverId : undefined}
        {...buttonProps}
      >
        <span className="lk-team-switcher-label">{labels.teamSwitcherLabel}</span>{' '}
        {selected ? <TeamAvatar team={selected} /> : null}
        <span className="lk-team-switcher-name">{selected?.displayName ?? labels.teamSwitcherNone}</span>
        <Icon name="chevron-down" size={14} className="lk-chevron" />
      </button>
      {open ? (
        <div
          {...menuProps}
          role="dialog"
          className="lk-menu lk-team-switcher-popover"
          id={popoverId}
          aria-label={labels.teamSwitcherTitle}
        >
          {teams.length === 0 ? (
            <p className="lk-team-switcher-empty">{labels.accountTeamsEmpty}</p>
          ) : (
            <ul
              className="lk-team-switcher-list"
              aria-label={labels.accountTeamsListTitle}
              aria-busy={busy || undefined}
            >
              {teams.map((team) => {
                const current = team.id === selected?.id;
                return (
                  <li key={team.id}>
                    <button
                      type="button"
                      className="lk-menu-item lk-team-switcher-item"
                      aria-current={current || undefined}
                      disabled={busy}
                      onClick={() => void choose(team)}
                    >
                      <TeamAvatar team={team} />
                      <span className="lk-team-switcher-item-name">{team.displayName}</span>
                      {current ? <Icon name="check" size={16} className="lk-menu-icon" /> : null}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          {canCreate ? (
            <>
              <hr className="lk-menu-separator" />
              {creating ? (
                <div ref={createRef} className="lk-team-switcher-create">
                  <OneFieldForm
                    label={labels.accountTeamCreateLabel}
                    submit={labels.accountTeamCreateSubmit}
                    onSubmit={async (name) => {
                      const team = await createSelectedTeam(user, name);
                      close(true);
                      chosen(team);
                      return labels.accountTeamCreated({ team: team.displayName });
                    }}
                  />
                </div>
              ) : (
                <button type="button" className="lk-menu-item" onClick={() => setCreating(true)}>
                  {labels.teamSwitcherCreate}
                </button>
              )}
            </>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
