import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe.js';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe.each(['light', 'dark'] as const)('handler pages in the %s theme', (colorScheme) => {
  it.each(['sign-in', 'sign-up'])('/handler/%s has no serious axe violations', async (pageName) => {
    const context = await stack.browser.newContext({ colorScheme });
    const page = await context.newPage();
    await page.goto(`${stack.demoUrl}/handler/${pageName}`);
    await page.getByLabel(/e-?mail/i).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
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
    await expect.poll(() => page.getByTestId('user-email').count(), { timeout: 30_000 }).toBe(1);
    await context.close();
  });
});
