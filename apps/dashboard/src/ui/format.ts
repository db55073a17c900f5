/** How the dashboard writes numbers and times (the browser's locale). */
const number = new Intl.NumberFormat();
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

export const formatNumber = (value: number) => number.format(value);

/** A date and time, e.g. "27 Nov 2026, 14:03"; "—" for none. */
export function formatDateTime(value: Date | number | null | undefined): string {
  return value === null || value === undefined ? '—' : dateTime.format(value);
}

export function formatDate(value: Date | number | null | undefined): string {
  return value === null || value === undefined ? '—' : dateOnly.format(value);
}

/** "3 minutes ago", "yesterday", … ; "never" for none. */
export function formatRelative(value: Date | number | null | undefined, now = Date.now()): string {
  if (value === null || value === undefined) return 'never';
  const seconds = Math.round((+value - now) / 1000);
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['year', 31_536_000],
    ['month', 2_592_000],
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return relative.format(seconds, 'second');
}
