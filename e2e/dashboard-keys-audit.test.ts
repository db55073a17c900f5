/**
 * The dashboard's API keys, audit log and webhooks pages, in Chromium against
 * `latchkey dev`: a key set made in the page works against the API until it
 * is revoked in the page; the audit log, filtered by type, shows both; an
 * endpoint added in the page, pointing at a receiver this file runs, gets a
 * user's creation, signed with the secret the page showed, and a replay.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@latchkey/js/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPageInBothThemes, type DashboardStack, signedInPage, startDashboard } from './support/dashboard.js';

let stack: DashboardStack;
beforeAll(async () => {
  stack = await startDashboard();
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

/** `GET /api/v1/users` with a secret server key: the status and the known error, if any. */
async function listUsersWith(secretServerKey: string) {
  const response = await fetch(`${stack.dev.apiUrl}/api/v1/users`, {
    headers: {
      'x-stack-project-id': stack.dev.projectId,
      'x-stack-access-type': 'server',
      'x-stack-secret-server-key': secretServerKey,
    },
  });
  await response.body?.cancel();
  return { status: response.status, knownError: response.headers.get('x-stack-known-error') };
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** The full value a `CopyField` labelled `label` shows. */
async function copiedValue(page: Page, label: string): Promise<string> {
  const field = page.locator('.ld-copy-field').filter({ hasText: label });
  return ((await field.locator('code').textContent()) ?? '').trim();
}

const description = `Backend ${Date.now()}`;

describe('API keys', () => {
  it('creates a key set whose secret server key, shown once, works until revoked in the page', async () => {
    const { context, page } = await signedInPage(stack, stack.projectUrl('/api-keys'));
    try {
      await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      await page.getByRole('button', { name: 'Create key set' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create an API key set' });
      // Nothing is sent without a description: the error shows beside the field.
      await dialog.getByRole('button', { name: 'Create key set' }).click();
      await dialog.getByText('Say what these keys are for').waitFor();
      await dialog.getByLabel('Description').fill(description);
      await dialog.getByRole('button', { name: 'Create key set' }).click();

      await dialog.getByText('they will not be shown again').waitFor();
      const key = await copiedValue(page, 'Secret server key');
      expect(key.length).toBeGreaterThan(20);
      expect(await dialog.locator('.ld-copy-field').count()).toBe(1);
      expect(await listUsersWith(key)).toMatchObject({ status: 200 });
      await checkPageInBothThemes(page, 'api-keys-created');

      await dialog.getByRole('button', { name: 'I have copied the keys' }).click();
      await dialog.waitFor({ state: 'detached' });
      const row = page.getByRole('row').filter({ hasText: description });
      await row.getByText(`…${key.slice(-4)}`).waitFor();
      await row.getByText('Active').waitFor();
      // The full key is nowhere on the page any more.
      expect(await page.getByText(key).count()).toBe(0);
      await checkPageInBothThemes(page, 'api-keys');

      await row.getByRole('button', { name: `Revoke ${description}` }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key set' }).click();
      await row.getByText('Revoked').waitFor();

      const refused = await listUsersWith(key);
      expect(refused.status).not.toBe(200);
      expect(refused.knownError).toBeTruthy();
      const set = (await stack.admin.listApiKeySets()).find((s) => s.description === description);
      expect(set?.manuallyRevokedAt).toBeInstanceOf(Date);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('fits a 360 px wide screen', async () => {
    const { context, page } = await signedInPage(stack, stack.projectUrl('/api-keys'), {
      viewport: { width: 360, height: 760 },
    });
    try {
      await page.getByRole('table', { name: 'API key sets' }).waitFor();
      expect(await pageWidth(page)).toBeLessThanOrEqual(360);
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe('Audit log', () => {
  it("shows the key set's creation and revocation when filtered by event type", async () => {
    const set = (await stack.admin.listApiKeySets()).find((s) => s.description === description);
    expect(set).toBeDefined();
    const { context, page } = await signedInPage(stack, stack.projectUrl('/audit'));
    try {
      await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
      await page.getByRole('table', { name: 'Audit events' }).waitFor();
      await checkPageInBothThemes(page, 'audit');
      await page.setViewportSize({ width: 360, height: 760 });
      await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(360);
      await page.setViewportSize({ width: 1280, height: 860 });

      for (const type of ['api_key.created', 'api_key.revoked']) {
        await page.getByLabel('Event type').selectOption(type);
        await page.getByRole('button', { name: 'Apply filters' }).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('type')).toBe(type);
        const table = page.getByRole('table', { name: 'Audit events' });
        await table.getByRole('cell', { name: type }).first().waitFor();
        // Only events of that type are listed.
        const types = await table.locator('tbody td:nth-child(2)').allTextContents();
        expect(new Set(types)).toEqual(new Set([type]));
        // The newest is ours: its details name the key set.
        const first = table.locator('tbody tr').first();
        await first.locator('summary').click();
        await first.getByText(set!.id).waitFor();
        await first.getByText('Admin', { exact: false }).first().waitFor();
      }

      // A time range before the keys existed lists nothing.
      await page.getByLabel('From (day)').fill('2020-01-01');
      await page.getByLabel('To (day, included)').fill('2020-01-02');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('No events match these filters').waitFor();

      // A user id that is none is refused beside its field, and from the address too.
      await page.getByLabel('User id').fill('nobody');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('A user id looks like').waitFor();
      expect(new URL(page.url()).searchParams.get('user')).toBeNull();
      await page.goto(stack.projectUrl('/audit?user=nobody'));
      await page.getByText('This address names no user').waitFor();
    } finally {
      await context.close();
    }
  }, 90_000);

  it('filters by the user of ?user= (the user page links so) and walks pages with cursors in the URL', async () => {
    const user = await stack.admin.createUser({ primaryEmail: `audited-${Date.now()}@example.com` });
    for (let index = 0; index < 51; index++) await user.update({ displayName: `Name ${index}` });
    const { context, page } = await signedInPage(stack, stack.projectUrl(`/audit?user=${user.id}`));
    try {
      await expect.poll(() => page.getByLabel('User id').inputValue()).toBe(user.id);
      const table = page.getByRole('table', { name: 'Audit events' });
      await table.getByRole('cell', { name: 'user.updated' }).first().waitFor();
      expect(await table.locator('tbody tr').count()).toBe(50);
      await page.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.getAll('cursor').length).toBe(1);
      await table.getByRole('cell', { name: 'user.created' }).waitFor();
      await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
      await page.reload();
      await table.getByRole('cell', { name: 'user.created' }).waitFor();
      await page.getByRole('button', { name: 'Previous' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.getAll('cursor').length).toBe(0);
      await expect.poll(() => table.locator('tbody tr').count()).toBe(50);
    } finally {
      await context.close();
    }
  }, 90_000);
});

describe('Webhooks', () => {
  interface Received {
    headers: Headers;
    body: string;
  }
  const received: Received[] = [];
  let receiver: Server;
  let receiverUrl: string;
  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers))
          if (typeof value === 'string') headers.set(name, value);
        received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/latchkey`;
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('adds an endpoint that gets a user creation, signed with the secret shown once, and replays it', async () => {
    const { context, page } = await signedInPage(stack, stack.projectUrl('/webhooks'));
    try {
      await page.getByText('No endpoints yet').waitFor();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
      await dialog.getByLabel('Endpoint URL').fill('not a url');
      await dialog.getByRole('button', { name: 'Add endpoint' }).click();
      await dialog.getByText('Enter a full URL').waitFor();
      await dialog.getByLabel('Endpoint URL').fill(receiverUrl);
      await dialog.getByLabel('Description (optional)').fill('E2E receiver');
      await dialog.getByRole('checkbox', { name: /All event types/ }).uncheck();
      await dialog.getByRole('checkbox', { name: /^user\.created / }).check();
      await checkPageInBothThemes(page, 'webhooks-add');
      await dialog.getByRole('button', { name: 'Add endpoint' }).click();
      await dialog.getByText('it will not be shown again').waitFor();
      const secret = await copiedValue(page, 'Signing secret');
      expect(secret).toMatch(/^whsec_/);
      await dialog.getByRole('button', { name: 'I have copied the secret' }).click();
      await dialog.waitFor({ state: 'detached' });

      const [endpoint] = await stack.admin.listWebhookEndpoints();
      expect(endpoint).toMatchObject({ url: receiverUrl, description: 'E2E receiver', eventTypes: ['user.created'] });
      await page.getByRole('row').filter({ hasText: receiverUrl }).getByText('Enabled').waitFor();

      // A user made elsewhere: the receiver gets the message, signed with the page's secret.
      const user = await stack.admin.createUser({ primaryEmail: `hooked-${Date.now()}@example.com` });
      await expect.poll(() => received.length, { timeout: 20_000 }).toBe(1);
      const event = await verifyWebhook(received[0]!, secret);
      expect(event.type).toBe('user.created');
      expect((event.data as { id: string }).id).toBe(user.id);

      const deliveries = page.getByRole('table', { name: 'Webhook deliveries' });
      await page.getByRole('button', { name: 'Refresh' }).click();
      const row = deliveries.getByRole('row').filter({ hasText: 'user.created' });
      await row.getByText('Delivered').waitFor({ timeout: 30_000 });
      await row.getByText('HTTP 204').waitFor();
      await checkPageInBothThemes(page, 'webhooks');
      await page.setViewportSize({ width: 360, height: 760 });
      await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(360);
      await page.setViewportSize({ width: 1280, height: 860 });

      await row.getByRole('button', { name: /^Replay the user\.created message/ }).click();
      await expect.poll(() => received.length, { timeout: 20_000 }).toBe(2);
      expect(received[1]!.headers.get('webhook-id')).toBe(received[0]!.headers.get('webhook-id'));
      // The replay is a second attempt of the same message: its history lists both.
      await row.locator('summary').click();
      await expect.poll(() => row.getByText('HTTP 204', { exact: false }).count(), { timeout: 30_000 }).toBe(3);
      const [message] = (await stack.admin.listWebhookMessages(endpoint!.id)).items;
      expect(message?.status).toBe('delivered');
      expect(await stack.admin.listWebhookAttempts(message!.id)).toHaveLength(2);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('disables, enables, rotates the secret of and deletes the endpoint, each rotation and deletion confirmed', async () => {
    const { context, page } = await signedInPage(stack, stack.projectUrl('/webhooks'));
    try {
      const row = page.getByRole('row').filter({ hasText: receiverUrl });
      await row.getByText('Enabled').waitFor();
      await row.getByRole('button', { name: 'Disable E2E receiver' }).click();
      await row.getByText('Disabled').waitFor();
      expect((await stack.admin.listWebhookEndpoints())[0]?.enabled).toBe(false);
      await row.getByRole('button', { name: 'Enable E2E receiver' }).click();
      await row.getByText('Enabled').waitFor();
      expect((await stack.admin.listWebhookEndpoints())[0]?.enabled).toBe(true);

      await row.getByRole('button', { name: 'Rotate secret of E2E receiver' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('heading', { level: 2, name: 'New signing secret' }).waitFor();
      const secret = await copiedValue(page, 'Signing secret');
      expect(secret).toMatch(/^whsec_/);
      // The new secret signs what is sent from now on: a test event verifies with it.
      const before = received.length;
      await page.getByRole('button', { name: 'Send test event' }).click();
      await expect.poll(() => received.length, { timeout: 20_000 }).toBe(before + 1);
      const signed = received[before]!;
      expect((await verifyWebhook(signed, secret)).type).toBe('webhook.test');

      await row.getByRole('button', { name: 'Delete E2E receiver' }).click();
      const confirm = page.getByRole('alertdialog');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      expect(await stack.admin.listWebhookEndpoints()).toHaveLength(1);
      await row.getByRole('button', { name: 'Delete E2E receiver' }).click();
      await confirm.getByRole('button', { name: 'Delete endpoint' }).click();
      await page.getByText('No endpoints yet').waitFor();
      expect(await stack.admin.listWebhookEndpoints()).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
