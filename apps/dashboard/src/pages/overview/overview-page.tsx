/**
 * A project's overview: what keeps it out of production mode (each problem
 * linked to the page that fixes it), its users over the last 30 days as
 * charts (total, sign-ups, daily active), how they sign in, where they are,
 * and who signed up or was active lately.
 */
import { adminProjectQuery, type Metrics, type MetricsDay, metricsQuery, type ServerUser } from '@latchkey/js/admin';
import { providerName, useQuery } from '@latchkey/react';
import { useProject } from '../../project.js';
import { Link } from '../../router.js';
import type { PageProps } from '../../routes.js';
import { Boundary } from '../../ui/boundary.js';
import { DailyChart, type DailyPoint } from '../../ui/chart.js';
import { type ColumnDef, DataTable } from '../../ui/data-table.js';
import { formatNumber, formatRelative } from '../../ui/format.js';
import { Badge, PageHeader, Section } from '../../ui/page.js';
import { EmptyState } from '../../ui/states.js';
import { ProductionProblems } from '../settings/production-problems.js';

export default function OverviewPage(_props: PageProps) {
  const { adminApp } = useProject();
  return (
    <>
      <Boundary onRetry={() => adminApp.invalidate(adminProjectQuery)}>
        <ProjectHeader />
        <ProductionChecklist />
      </Boundary>
      <Boundary onRetry={() => adminApp.invalidate(metricsQuery)}>
        <MetricsSections />
      </Boundary>
    </>
  );
}

function ProjectHeader() {
  const project = useQuery(adminProjectQuery, { suspend: true });
  return (
    <PageHeader
      title={project.displayName}
      documentTitle={`${project.displayName} · Overview`}
      description={project.description || 'Overview of the project: its users and whether it is ready for production.'}
    />
  );
}

function ProductionChecklist() {
  const { projectId } = useProject();
  const project = useQuery(adminProjectQuery, { suspend: true });
  const problems = project.productionModeErrors;
  const settings = `/projects/${encodeURIComponent(projectId)}/settings`;
  return (
    <Section
      title="Production mode"
      id="production-checklist"
      description={
        project.isProductionMode
          ? 'The project runs in production mode.'
          : 'The project runs in development mode. Before production, every check below should pass.'
      }
      actions={
        project.isProductionMode ? <Badge tone="success">Production</Badge> : <Badge tone="warning">Development</Badge>
      }
    >
      {problems.length === 0 ? (
        <p>
          <Badge tone="success">Ready</Badge> Nothing keeps this project out of production mode.{' '}
          {project.isProductionMode ? null : <Link to={settings}>Switch it on in the project settings</Link>}
        </p>
      ) : (
        <ProductionProblems problems={problems} />
      )}
    </Section>
  );
}

const plural = (count: number, one: string, many: string) => `${formatNumber(count)} ${count === 1 ? one : many}`;

const sum = (days: readonly MetricsDay[]) => days.reduce((total, day) => total + day.activity, 0);

/** Users at the end of each day: today's total less the sign-ups of the days after it. */
function totalsByDay(total: number, signUps: readonly MetricsDay[]): DailyPoint[] {
  let later = 0;
  const points: DailyPoint[] = [];
  for (let index = signUps.length - 1; index >= 0; index--) {
    const day = signUps[index]!;
    points.unshift({ date: day.date, value: Math.max(0, total - later) });
    later += day.activity;
  }
  return points;
}

const pointsOf = (days: readonly MetricsDay[]): DailyPoint[] =>
  days.map((day) => ({ date: day.date, value: day.activity }));

function MetricsSections() {
  const metrics = useQuery(metricsQuery, { suspend: true });
  const signUps = sum(metrics.dailyUsers);
  const activeToday = metrics.dailyActiveUsers.at(-1)?.activity ?? 0;
  const days = metrics.dailyUsers.length;
  return (
    <>
      <Section title="Users" description={`The last ${days} days, in UTC days.`}>
        <dl className="ld-stats">
          <div className="ld-stat">
            <dt className="ld-muted">Total users</dt>
            <dd className="ld-stat-value">{formatNumber(metrics.totalUsers)}</dd>
          </div>
          <div className="ld-stat">
            <dt className="ld-muted">Sign-ups, {days} days</dt>
            <dd className="ld-stat-value">{formatNumber(signUps)}</dd>
          </div>
          <div className="ld-stat">
            <dt className="ld-muted">Active today</dt>
            <dd className="ld-stat-value">{formatNumber(activeToday)}</dd>
          </div>
        </dl>
        <div className="ld-chart-grid">
          <DailyChart
            title="Total users"
            points={totalsByDay(metrics.totalUsers, metrics.dailyUsers)}
            summary={`${plural(metrics.totalUsers, 'user', 'users')} today, ${plural(signUps, 'sign-up', 'sign-ups')} in ${days} days.`}
          />
          <DailyChart
            title="Sign-ups"
            points={pointsOf(metrics.dailyUsers)}
            summary={`${plural(signUps, 'sign-up', 'sign-ups')} in ${days} days, ${formatNumber(metrics.dailyUsers.at(-1)?.activity ?? 0)} today.`}
          />
          <DailyChart
            title="Daily active users"
            points={pointsOf(metrics.dailyActiveUsers)}
            summary={`${plural(activeToday, 'user', 'users')} active today, at most ${formatNumber(Math.max(0, ...metrics.dailyActiveUsers.map((day) => day.activity)))} a day in ${days} days.`}
          />
        </div>
      </Section>
      <div className="ld-grid ld-overview-pair">
        <SignInMethods metrics={metrics} />
        <Countries metrics={metrics} />
      </div>
      <div className="ld-grid ld-overview-pair">
        <RecentUsers
          title="Recent sign-ups"
          users={metrics.recentlyRegistered}
          when={(user) => `signed up ${formatRelative(user.signedUpAt)}`}
        />
        <RecentUsers
          title="Recently active"
          users={metrics.recentlyActive}
          when={(user) => `active ${formatRelative(user.lastActiveAt)}`}
        />
      </div>
    </>
  );
}

/** The words of the methods that are not OAuth providers; a provider is named as its sign-in button names it. */
const methodNames: Record<string, string> = {
  password: 'Password',
  otp: 'Magic link / code',
  passkey: 'Passkey',
};

interface CountRow {
  id: string;
  name: string;
  count: number;
}

const countColumns = (label: string): ColumnDef<CountRow, unknown>[] => [
  { id: 'name', header: label, cell: ({ row }) => row.original.name },
  { id: 'count', header: 'Users', cell: ({ row }) => formatNumber(row.original.count) },
];

const methodColumns = countColumns('Method');
const countryColumns = countColumns('Country');

function SignInMethods({ metrics }: { metrics: Metrics }) {
  const rows = [...metrics.loginMethods]
    .sort((a, b) => b.count - a.count)
    .map(({ method, count }) => ({ id: method, name: methodNames[method] ?? providerName({ id: method }), count }));
  return (
    <Section title="Sign-in methods used">
      <DataTable
        caption="Users per sign-in method"
        columns={methodColumns}
        rows={rows}
        rowId={(row) => row.id}
        empty={{ title: 'No sign-ins yet' }}
      />
    </Section>
  );
}

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(undefined, { type: 'region' });
  } catch {
    return null;
  }
})();

function countryName(code: string): string {
  try {
    return regionNames?.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

function Countries({ metrics }: { metrics: Metrics }) {
  const rows = Object.entries(metrics.usersByCountry)
    .sort(([, a], [, b]) => b - a)
    .map(([code, count]) => ({ id: code, name: countryName(code), count }));
  return (
    <Section title="Countries">
      <DataTable
        caption="Users per country"
        columns={countryColumns}
        rows={rows}
        rowId={(row) => row.id}
        empty={{ title: 'No countries yet', description: 'Countries come from the addresses users sign in from.' }}
      />
    </Section>
  );
}

function RecentUsers({
  title,
  users,
  when,
}: {
  title: string;
  users: readonly ServerUser[];
  when: (user: ServerUser) => string;
}) {
  const { projectId } = useProject();
  return (
    <Section title={title}>
      {users.length === 0 ? (
        <EmptyState title="Nobody yet" />
      ) : (
        <ul className="ld-user-list">
          {users.map((user) => (
            <li key={user.id}>
              <Link to={`/projects/${encodeURIComponent(projectId)}/users/${encodeURIComponent(user.id)}`}>
                {user.displayName || user.primaryEmail || user.id}
              </Link>
              <span className="ld-muted">
                {user.displayName && user.primaryEmail ? `${user.primaryEmail} · ` : ''}
                {when(user)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
