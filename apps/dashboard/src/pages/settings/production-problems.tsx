/**
 * The production-mode checks a project fails, each problem with a link to
 * the page that fixes it (the overview's checklist, and the settings page
 * beside the production-mode switch).
 */
import type { ProductionModeError } from '@latchkey/js/admin';
import { Link } from '../../router.js';

/** The link text of a fix: the page it goes to. */
function fixLabel(path: string): string {
  if (path.endsWith('/sign-in-methods')) return 'Fix in sign-in methods';
  if (path.endsWith('/domains')) return 'Fix in domains';
  if (path.endsWith('/emails')) return 'Fix in e-mail';
  if (path.endsWith('/settings')) return 'Fix in project settings';
  return 'Fix it';
}

export function ProductionProblems({ problems }: { problems: readonly ProductionModeError[] }) {
  return (
    <ul className="ld-checklist" aria-label="Production-mode checks that fail">
      {problems.map((problem) => (
        <li key={problem.message}>
          <span>{problem.message}</span>
          <Link to={problem.relativeFixUrl}>{fixLabel(problem.relativeFixUrl)}</Link>
        </li>
      ))}
    </ul>
  );
}
