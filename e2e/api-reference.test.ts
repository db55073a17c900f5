/**
 * The API reference page as a person reads it in Chromium: it renders every
 * route from the OpenAPI document, asks nothing of any other origin, runs no
 * script, and has no serious accessibility problem in either colour scheme.
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
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is injected at run time.
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return (result.violations as { id: string; impact: string | null }[])
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id);
  });
  expect(violations).toEqual([]);
  await context.close();
});
