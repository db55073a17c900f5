/**
 * Accessibility of the ready-made pages, checked with axe-core inside real
 * Chromium in the light and the dark theme, plus keyboard-only sign-up.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.js';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

describe.each(['light', 'dark'] as const)('handler pages in the %s theme', (colorScheme) => {
  it.each(['sign-in', 'sign-up'])('/handler/%s has no serious axe violations', async (pageName) => {
    const context = await stack.browser.newContext({ colorScheme });
    const page = await context.newPage();
    await page.goto(`${stack.demoUrl}/handler/${pageName}`);
    await page.getByLabel(/e-?mail/i).waitFor();
    await page.addScriptTag({ path: axePath });
    const violations = (await page.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
      return (await axe.run()).violations;
    })) as AxeViolation[];
    const serious = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    expect(serious).toEqual([]);
    await context.close();
  });
});

describe('keyboard only', () => {
  it('signs up without touching the mouse', async () => {
    const context = await stack.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${stack.demoUrl}/handler/sign-up`);
    const email = page.getByLabel(/e-?mail/i);
    await email.waitFor();
    await email.focus();
    await page.keyboard.type(`keys-${Date.now()}@example.com`);
    await page.keyboard.press('Tab');
    await page.keyboard.type('correct-horse-battery');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('user-email').count(), { timeout: 15_000 }).toBe(1);
    await context.close();
  });
});
