/**
 * axe-core in real Chromium, one way for every browser test: the serious and
 * critical violations of a page as it is now, one line each (`rule: help
 * (elements)`), prefixed with `where` when given. axe is evaluated through the
 * devtools protocol, which the page's Content-Security-Policy (scripts of its
 * own origin only) does not govern, as an injected script tag would be; it is
 * loaded once per document.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let axeSource: string | undefined;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** The serious and critical violations of the page, or of the first element matching `selector` in it. */
export async function seriousAxeViolations(
  page: Page,
  options: { selector?: string; where?: string } = {},
): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) {
    axeSource ??= await readFile(axePath, 'utf8');
    await page.evaluate(axeSource);
  }
  const violations = (await page.evaluate(async (selector) => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown): Promise<{ violations: unknown[] }> } }).axe;
    const within = selector ? document.querySelector(selector) : document;
    if (!within) throw new Error(`nothing on the page matches ${selector}`);
    return (await axe.run(within)).violations;
  }, options.selector)) as AxeViolation[];
  const prefix = options.where ? `${options.where}: ` : '';
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${prefix}${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
