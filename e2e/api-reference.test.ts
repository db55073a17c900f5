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

describe.each(['light', 'dark'] as const)('the API reference in the %s scheme', (colorScheme) => {
  it('shows every documented route and loads nothing from elsewhere', async () => {
    const context = await stack.browser.newContext({ colorScheme });
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    const docsUrl = `${stack.dev.apiUrl}/api/v1/docs`;
    await page.goto(docsUrl);
    await expect(page.title()).resolves.toBe('Latchkey API reference');

    const document = (await (await fetch(`${stack.dev.apiUrl}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.values(document.paths).reduce((sum, methods) => sum + Object.keys(methods).length, 0);
    expect(await page.locator('article').count()).toBe(operations);
    await expect(page.locator('h3', { hasText: '/users/me' }).first().isVisible()).resolves.toBe(true);

    // Fields show in a table; the whole JSON Schema opens on a click.
    const patchMe = page.locator('article[id="patch-/users/me"]');
    await expect(patchMe.locator('table').first().textContent()).resolves.toContain('display_name');
    await expect(patchMe.locator('pre').first().isVisible()).resolves.toBe(false);
    await patchMe.locator('summary', { hasText: 'JSON Schema' }).first().click();
    await expect(patchMe.locator('pre').first().isVisible()).resolves.toBe(true);
    await expect(patchMe.locator('pre').first().textContent()).resolves.toContain('server_metadata');

    expect(requested).toEqual([docsUrl]);
    expect(consoleErrors).toEqual([]);

    await context.close();
  });
});

it('has no serious axe violations (axe injected by the test, as the page itself runs no script)', async () => {
  const context = await stack.browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${stack.dev.apiUrl}/api/v1/docs`);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await context.close();
});
