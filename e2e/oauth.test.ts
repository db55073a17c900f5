/**
 * OAuth as people use it, in real Chromium against the built `latchkey dev`
 * and demo: "Continue with GitHub" through the development stand-in the
 * service serves (the dev project enables GitHub and Google with `shared`
 * keys, offline); a generic OpenID Connect sign-in through oidc-provider's
 * own login and consent pages on loopback; and a password user connecting
 * GitHub from account settings, then disconnecting it.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type OidcUpstream,
  startUpstreamFor,
  type upstreamProvider,
} from '../packages/server/src/testing/oidc-upstream.js';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack;
let upstream: OidcUpstream;

beforeAll(async () => {
  stack = await startStack();
  let corp: ReturnType<typeof upstreamProvider>;
  ({ upstream, provider: corp } = await startUpstreamFor(stack.dev.apiUrl, { interactive: true }));
  // The operator adds their own OpenID Connect provider beside the dev project's shared ones.
  const answer = await fetch(`${stack.dev.apiUrl}/api/v1/projects/current`, {
    method: 'PATCH',
    headers: {
      'content-type': 'application/json',
      'x-stack-project-id': stack.dev.projectId,
      'x-stack-access-type': 'admin',
      'x-stack-publishable-client-key': stack.dev.publishableClientKey,
      'x-stack-secret-server-key': stack.dev.secretServerKey,
      'x-stack-super-secret-admin-key': stack.dev.superSecretAdminKey,
    },
    body: JSON.stringify({
      config: {
        oauth_providers: [
          { id: 'github', type: 'shared', enabled: true },
          { id: 'google', type: 'shared', enabled: true },
          corp,
        ],
      },
    }),
  });
  expect(answer.status, await answer.text()).toBe(200);
});

afterAll(async () => {
  await upstream?.close();
  await stack?.close();
});

async function fresh(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await stack.browser.newContext();
  return { context, page: await context.newPage() };
}

describe('OAuth in Chromium', () => {
  it('signs in with GitHub through the development stand-in, with no internet', async () => {
    const { context, page } = await fresh();
    await page.goto(`${stack.demoUrl}/handler/sign-in`);
    await page.getByRole('button', { name: 'Continue with GitHub' }).click();
    await page.getByRole('heading', { name: 'Sign in with GitHub' }).waitFor({ timeout: 30_000 });
    await page.getByText('Development stand-in').waitFor();
    await page.getByRole('button', { name: /Noor Haddad/ }).click();
    await page.getByTestId('user-email').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('user-email').textContent()).toBe('noor@stand-in.localhost');
    // The callback page took code and state out of the address bar.
    expect(new URL(page.url()).searchParams.has('code')).toBe(false);
    await context.close();
  });

  it('signs in with a generic OpenID Connect provider through its own login page', async () => {
    const { context, page } = await fresh();
    await page.goto(`${stack.demoUrl}/handler/sign-in`);
    await page.getByRole('button', { name: 'Continue with Corp SSO' }).click();
    await page.locator('input[name="login"]').fill('octo');
    await page.locator('input[name="password"]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByTestId('user-email').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('user-email').textContent()).toBe('octo@upstream.test');
    await context.close();
  });

  it('connects GitHub to a password account from account settings, then disconnects it', async () => {
    const { context, page } = await fresh();
    const email = `linker-${Date.now()}@example.com`;
    await page.goto(`${stack.demoUrl}/handler/sign-up`);
    await page.getByLabel(/e-?mail/i).fill(email);
    await page.getByLabel(/^password$/i).fill('correct-horse-battery');
    await page.getByRole('button', { name: /create account/i }).click();
    await page.getByTestId('user-email').waitFor({ timeout: 30_000 });

    await page.goto(`${stack.demoUrl}/handler/account-settings#connected-accounts`);
    const section = page.getByRole('region', { name: 'Connected accounts' });
    await section.getByRole('button', { name: 'Connect GitHub' }).click();
    await page.getByRole('heading', { name: 'Sign in with GitHub' }).waitFor({ timeout: 30_000 });
    await page.getByLabel('E-mail').fill(`gh-${email}`);
    await page.getByLabel('Name').fill('Linked Octo');
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL(/account-settings/, { timeout: 30_000 });
    const connected = page.getByRole('region', { name: 'Connected accounts' });
    await connected.getByText(`gh-${email}`).waitFor({ timeout: 30_000 });
    await connected.getByRole('button', { name: /Disconnect/ }).click();
    await page
      .getByRole('button', { name: /Disconnect/ })
      .last()
      .click();
    await connected.getByRole('button', { name: 'Connect GitHub' }).waitFor({ timeout: 30_000 });
    await context.close();
  });
});
