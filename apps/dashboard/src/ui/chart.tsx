/**
 * `DailyChart`: one daily series (a count per UTC day) drawn by uPlot on a
 * canvas, with its text alternative: the figure is labelled by a one-line
 * summary, and a visually hidden table holds every value for screen readers.
 * Canvas colours cannot be CSS variables, so they are read from the theme
 * (`--lk-*`) when the chart is drawn, and again when the theme changes.
 */
import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { formatNumber } from './format.js';

export interface DailyPoint {
  /** `YYYY-MM-DD`, UTC. */
  date: string;
  value: number;
}

export interface DailyChartProps {
  /** The series' name, e.g. "Sign-ups"; the figure's caption. */
  title: string;
  points: readonly DailyPoint[];
  /** The sentence a screen reader hears for the chart, e.g. "12 sign-ups in 30 days, 3 today". */
  summary: string;
  /** Pixels; the width follows the container. */
  height?: number;
}

const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** The day of a `YYYY-MM-DD` string as a date at midnight UTC. */
function dayOf(date: string): Date {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1));
}

function formatDay(date: string): string {
  return dayFormat.format(dayOf(date));
}

/** The theme's colours as canvas can use them: each `--lk-*` variable resolved through a probe element. */
function themeColours(host: HTMLElement) {
  const probe = document.createElement('span');
  host.append(probe);
  const read = (variable: string) => {
    probe.style.color = `var(${variable})`;
    return getComputedStyle(probe).color;
  };
  const colours = {
    line: read('--lk-primary'),
    text: read('--lk-text-muted'),
    grid: read('--lk-border'),
  };
  probe.remove();
  return colours;
}

/** Counts are whole: the value axis steps by 1, 2, 5, 10, 20, 50... */
const wholeSteps = Array.from({ length: 24 }, (_, index) => [1, 2, 5][index % 3]! * 10 ** Math.floor(index / 3));

/** `rgb(r, g, b)` (what `getComputedStyle` gives) at `alpha`. */
function translucent(colour: string, alpha: number): string {
  const [red = 0, green = 0, blue = 0] = colour.match(/[\d.]+/g)?.map(Number) ?? [];
  return `rgba(${red}, ${green}, ${blue}, ${alpha})`;
}

function chartOptions(title: string, width: number, height: number, host: HTMLElement): uPlot.Options {
  const colours = themeColours(host);
  const axis = {
    stroke: colours.text,
    grid: { stroke: colours.grid, width: 1 },
    ticks: { stroke: colours.grid, width: 1 },
  };
  return {
    width,
    height,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
    scales: { x: { time: true }, y: { range: (_chart, _min, max) => [0, Math.max(1, max)] } },
    axes: [
      axis,
      { ...axis, size: 44, incrs: wholeSteps, values: (_chart, ticks) => ticks.map((tick) => formatNumber(tick)) },
    ],
    series: [{}, { label: title, stroke: colours.line, width: 2, fill: translucent(colours.line, 0.12) }],
  };
}

export function DailyChart({ title, points, summary, height = 180 }: DailyChartProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const data: uPlot.AlignedData = [
      points.map((point) => dayOf(point.date).getTime() / 1000),
      points.map((point) => point.value),
    ];
    let chart: uPlot | null = null;
    const draw = () => {
      chart?.destroy();
      chart = new uPlot(chartOptions(title, element.clientWidth || 300, height, element), data, element);
    };
    draw();
    const resize = new ResizeObserver(() => {
      if (chart && element.clientWidth && chart.width !== element.clientWidth) {
        chart.setSize({ width: element.clientWidth, height });
      }
    });
    resize.observe(element);
    // The theme: the dashboard's choice (on the body) or the system's.
    const themeWatch = new MutationObserver(draw);
    themeWatch.observe(document.body, { attributes: true, attributeFilter: ['data-lk-theme', 'class'] });
    const scheme = window.matchMedia('(prefers-color-scheme: dark)');
    scheme.addEventListener('change', draw);
    return () => {
      resize.disconnect();
      themeWatch.disconnect();
      scheme.removeEventListener('change', draw);
      chart?.destroy();
    };
  }, [points, title, height]);
  return (
    <figure className="ld-chart">
      <figcaption className="ld-chart-title">{title}</figcaption>
      <div ref={host} className="ld-chart-canvas" role="img" aria-label={`${title}: ${summary}`} />
      {/* Hidden by a box around it: a table grows to its rows whatever height it is given. */}
      <div className="ld-visually-hidden">
        <table>
          <caption>{title} per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">{title}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.date}>
                <th scope="row">{formatDay(point.date)}</th>
                <td>{formatNumber(point.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
