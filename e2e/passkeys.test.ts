/**
 * Passkeys with a real browser's WebAuthn: Chromium's virtual authenticator
 * (the DevTools protocol's, a platform authenticator with resident keys and
 * user verification) creates and uses the credential on a page served from
 * `localhost`, as the official SDK's browser code would: the options the
 * service sends, their placeholder RP id replaced by the page's hostname, go
 * through `navigator.credentials`, and what the browser answers (its own
 * client data, attestation and signature) goes back to the service. Proves
 * that a real browser accepts our options and that our checks accept a real
 * browser's responses, beside the software authenticator of the server tests.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestService, type TestService } from '@latchkey/server/testing';
import { type Browser, type CDPSession, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let service: TestService;
let site: Server;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  service = await startTestService({ projectConfig: { passkey_enabled: true } });
  site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Passkeys</title><p>Passkeys</p>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://localhost:${(site.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await service?.close();
});

/** The SDK's headers for the test project, with a user's access token when given. */
function headers(accessToken?: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-stack-override-error-status': 'true',
    'x-stack-project-id': service.projectId,
    'x-stack-access-type': 'client',
    'x-stack-publishable-client-key': service.keys.publishableClientKey,
    ...(accessToken ? { 'x-stack-access-token': accessToken } : {}),
  };
}

async function post(path: string, body: unknown, accessToken?: string) {
  const response = await fetch(`${service.apiUrl}${path}`, {
    method: 'POST',
    headers: headers(accessToken),
    body: JSON.stringify(body),
  });
  return { known: response.headers.get('x-stack-known-error'), body: await response.json() };
}

async function ok(path: string, body: unknown, accessToken?: string) {
  const answer = await post(path, body, accessToken);
  expect(answer.known, JSON.stringify(answer.body)).toBeNull();
  return answer.body;
}

/** A page on `localhost` with a virtual platform authenticator of its own. */
async function pageWithAuthenticator(): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  await page.goto(`${origin}/`);
  return { page, cdp, authenticatorId };
}

/** `navigator.credentials.create` with the service's options, the RP id replaced as the SDK does; the JSON. */
function create(page: Page, options: unknown): Promise<unknown> {
  return page.evaluate(async (json) => {
    const publicKey = json as { rp: { id: string } };
    publicKey.rp.id = window.location.hostname;
    const parsed = PublicKeyCredential.parseCreationOptionsFromJSON(publicKey as never);
    const credential = (await navigator.credentials.create({ publicKey: parsed })) as PublicKeyCredential;
    return credential.toJSON();
  }, options);
}

/** `navigator.credentials.get` with the service's options, the RP id replaced as the SDK does; the JSON. */
function get(page: Page, options: unknown): Promise<unknown> {
  return page.evaluate(async (json) => {
    const publicKey = json as { rpId: string };
    publicKey.rpId = window.location.hostname;
    const parsed = PublicKeyCredential.parseRequestOptionsFromJSON(publicKey as never);
    const credential = (await navigator.credentials.get({ publicKey: parsed })) as PublicKeyCredential;
    return credential.toJSON();
  }, options);
}

describe('passkeys in Chromium', () => {
  it('registers a passkey and signs in with it, and refuses that assertion replayed', async () => {
    const email = `passkey-${Date.now()}@example.com`;
    const user = await ok('/auth/password/sign-up', { email, password: 'correct-horse-1' });
    const { page, cdp, authenticatorId } = await pageWithAuthenticator();

    const registration = await ok('/auth/passkey/initiate-passkey-registration', {}, user.access_token);
    const credential = await create(page, registration.options_json);
    const registered = await ok('/auth/passkey/register', { credential, code: registration.code }, user.access_token);
    expect(registered.user_handle).toBe(Buffer.from(user.user_id).toString('base64url'));
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);
    expect(credentials[0]!.rpId).toBe('localhost');

    const start = await ok('/auth/passkey/initiate-passkey-authentication', {});
    const assertion = await get(page, start.options_json);
    const signedIn = await ok('/auth/passkey/sign-in', { authentication_response: assertion, code: start.code });
    expect(signedIn.user_id).toBe(user.user_id);
    const me = await fetch(`${service.apiUrl}/users/me`, { headers: headers(signedIn.access_token) });
    expect((await me.json()).passkey_auth_enabled).toBe(true);

    // The same assertion does not answer a new challenge.
    const replay = await ok('/auth/passkey/initiate-passkey-authentication', {});
    const refused = await post('/auth/passkey/sign-in', { authentication_response: assertion, code: replay.code });
    expect(refused.known).toBe('PASSKEY_AUTHENTICATION_FAILED');
  });
});
