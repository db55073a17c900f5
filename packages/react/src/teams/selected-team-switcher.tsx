'use client';
/**
 * `SelectedTeamSwitcher`: the signed-in user's selected team, and a list to
 * switch it. A native select, so keyboards, screen readers and phones get
 * the control they know; the choice is stored on the user (every device
 * sees it). "Create a team…" appears when the project lets users create
 * teams and goes to the Teams section of account settings.
 */
import type { Team } from '@latchkey/js';
import { forwardRef, type HTMLAttributes, useId, useState } from 'react';
import { useRootProps } from '../internal/root-props.js';
import { TextContext, useLabels, useText } from '../internal/text.js';
import { useAppData } from '../internal/use-app-data.js';
import type { LatchkeyTranslation } from '../labels.js';
import { useApp } from '../provider.js';
import { useUser } from '../use-user.js';
import { teamLabels } from './team-labels.js';
import { useTeams } from './use-teams.js';

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

const createValue = '__create__';

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

function Switcher({ onChange, urlMap }: Pick<SelectedTeamSwitcherProps, 'onChange' | 'urlMap'>) {
  const app = useApp();
  const labels = useLabels(teamLabels);
  const user = useUser({ or: 'throw' });
  const teams = useTeams();
  const project = useAppData('project', { suspend: false });
  const [busy, setBusy] = useState(false);
  const id = useId();
  const selected = user.selectedTeam?.id ?? '';
  const canCreate = project.status === 'ready' && project.data.config.clientTeamCreationEnabled;

  const choose = async (value: string) => {
    if (value === createValue) {
      window.location.assign(`${app.urls.accountSettings}#teams`);
      return;
    }
    const team = teams.find((candidate) => candidate.id === value) ?? null;
    setBusy(true);
    try {
      await user.setSelectedTeam(team);
      onChange?.(team);
      if (team && urlMap) window.location.assign(urlMap(team));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <label className="lk-team-switcher-label" htmlFor={id}>
        {labels.teamSwitcherLabel}
      </label>
      <span className="lk-avatar lk-team-avatar" aria-hidden="true">
        {(user.selectedTeam?.displayName ?? '?').slice(0, 1).toUpperCase()}
      </span>
      <select
        id={id}
        className="lk-team-switcher-select"
        value={selected}
        disabled={busy}
        aria-busy={busy || undefined}
        onChange={(event) => void choose(event.target.value)}
      >
        {selected === '' ? <option value="">{labels.teamSwitcherNone}</option> : null}
        {teams.map((team) => (
          <option key={team.id} value={team.id}>
            {team.displayName}
          </option>
        ))}
        {canCreate ? <option value={createValue}>{labels.teamSwitcherCreate}</option> : null}
      </select>
    </>
  );
}
