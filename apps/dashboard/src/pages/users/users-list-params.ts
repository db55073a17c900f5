/**
 * The users list's state in the URL's query string, so that a reload, a link
 * and the way back from a user's page keep it: the search (`q`), the team
 * (`team`), the order (`order=asc`; newest first when absent) and the stack
 * of cursors of the pages passed (`after`, repeated; page n shows the page
 * after the (n-1)th).
 */
import { navigate } from '../../router.js';

export interface UsersListParams {
  query: string;
  teamId: string;
  desc: boolean;
  /** The cursors of the pages passed, oldest first; the current page starts at the last one. */
  cursors: string[];
}

export function readParams(search: URLSearchParams): UsersListParams {
  return {
    query: search.get('q') ?? '',
    teamId: search.get('team') ?? '',
    desc: search.get('order') !== 'asc',
    cursors: search.getAll('after').filter(Boolean),
  };
}

/** The query string of `params` (`''` for the defaults). */
function searchOf(params: UsersListParams): string {
  const search = new URLSearchParams();
  if (params.query) search.set('q', params.query);
  if (params.teamId) search.set('team', params.teamId);
  if (!params.desc) search.set('order', 'asc');
  for (const cursor of params.cursors) search.append('after', cursor);
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Shows the list at `params`, in place of the current history entry. */
export function showList(projectId: string, params: UsersListParams): void {
  navigate(`/projects/${encodeURIComponent(projectId)}/users${searchOf(params)}`, { replace: true });
}
