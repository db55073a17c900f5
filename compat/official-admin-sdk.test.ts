/**
 * Wire compatibility of the administrators' side, proven with the real
 * official SDK: `@stackframe/js` 2.7.23's `StackAdminApp` (with the super
 * secret admin key, and as a project owner's app from the internal project)
 * drives a real Latchkey service over HTTP on loopback. Every test asserts
 * what an SDK user sees, and the requests that produced it.
 */
import { randomUUID } from 'node:crypto';
import { createApiKeySet } from '@latchkey/server';
import type { TestKeys } from '@latchkey/server/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { password, useCompatEnvironment, verificationCallbackUrl } from './support/harness.js';
import { codeOf, rejection } from './support/outcomes.js';
import { StackAdminApp, StackClientApp, StackServerApp } from './support/sdk.js';

const env = useCompatEnvironment();

afterEach(() => {
  expect(env.net.blocked, 'non-loopback fetches').toEqual([]);
  expect(env.net.trail(), 'network diagnostics ran').not.toContain('GET /health');
});

/** An admin app with a full key set, as the SDK's docs build one for server code. */
function adminApp(projectId = env.svc.projectId, keys: TestKeys = env.svc.keys) {
  return new StackAdminApp({
    baseUrl: env.svc.url,
    projectId,
    publishableClientKey: keys.publishableClientKey,
    secretServerKey: keys.secretServerKey,
    superSecretAdminKey: keys.superSecretAdminKey,
    tokenStore: null,
  });
}

/** An admin app on a project of its own, for tests that change or delete the project. */
async function ownProjectAdmin() {
  const { projectId, keys } = await env.svc.createOtherProject();
  return adminApp(projectId, keys);
}

describe('StackAdminApp (super secret admin key)', () => {
  it('getProject() reads the admin view and lists the production-mode problems', async () => {
    const admin = adminApp();

    const project = await admin.getProject();

    expect(project).toMatchObject({
      id: env.svc.projectId,
      displayName: 'Test project',
      description: '',
      isProductionMode: false,
      config: { signUpEnabled: true, allowLocalhost: true, domains: [], oauthProviders: [] },
    });
    expect(project.userCount).toEqual(expect.any(Number));
    expect(project.createdAt).toBeInstanceOf(Date);
    expect(env.net.trail()).toEqual(['GET /projects/current']);
    expect(env.net.requests[0]?.headers).toMatchObject({
      'x-stack-access-type': 'admin',
      'x-stack-super-secret-admin-key': env.svc.keys.superSecretAdminKey,
    });
    const problems = await project.getProductionModeErrors();
    expect(problems.map((problem) => problem.message)).toEqual([
      "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
    ]);
  });

  it('project.update() changes names and config; production mode once the checks pass', async () => {
    const admin = await ownProjectAdmin();
    const project = await admin.getProject();
    env.net.reset();

    await project.update({
      displayName: 'Shop',
      description: 'The shop',
      config: {
        allowLocalhost: false,
        magicLinkEnabled: true,
        clientUserDeletionEnabled: true,
        domains: [{ domain: 'https://shop.example.com', handlerPath: '/handler' }],
        oauthProviders: [
          { id: 'github', enabled: true, type: 'standard', clientId: 'gh-id', clientSecret: 'gh-secret' },
          { id: 'google', enabled: false, type: 'shared' },
        ],
        emailConfig: {
          type: 'standard',
          host: 'smtp.example.com',
          port: 587,
          username: 'mailer',
          password: 'smtp-secret',
          senderName: 'Shop',
          senderEmail: 'no-reply@shop.example.com',
        },
        teamCreatorDefaultPermissions: [{ id: 'admin' }],
      },
    });
    expect(env.net.trail()[0]).toBe('PATCH /projects/current');

    const updated = await admin.getProject();
    expect(updated).toMatchObject({
      displayName: 'Shop',
      description: 'The shop',
      config: {
        allowLocalhost: false,
        magicLinkEnabled: true,
        clientUserDeletionEnabled: true,
        domains: [{ domain: 'https://shop.example.com', handlerPath: '/handler' }],
        emailConfig: { type: 'standard', host: 'smtp.example.com', senderEmail: 'no-reply@shop.example.com' },
        teamCreatorDefaultPermissions: [{ id: 'admin' }],
      },
    });
    expect(updated.config.oauthProviders.map((p) => [p.id, p.type])).toEqual([
      ['github', 'standard'],
      ['google', 'shared'],
    ]);
    expect(await updated.getProductionModeErrors()).toEqual([]);

    await updated.update({ isProductionMode: true });
    expect((await admin.getProject()).isProductionMode).toBe(true);
  });

  it('project.delete() deletes the project: its keys stop working', async () => {
    const admin = await ownProjectAdmin();
    const project = await admin.getProject();
    env.net.reset();

    await project.delete();

    expect(env.net.requests[0]).toMatchObject({ method: 'DELETE', path: '/projects/current', status: 200 });
    expect(env.net.requests[0]?.headers['content-type']).toBeUndefined(); // sent without a body
    expect(codeOf(await rejection(admin.getProject()))).toMatch(/INVALID_SUPER_SECRET_ADMIN_KEY|PROJECT_NOT_FOUND/);
  });

  it('createApiKey() shows the keys in full once; listApiKeys() their last four; revoke() ends them', async () => {
    const admin = adminApp();
    const expiresAt = new Date(Date.now() + 24 * 3600_000);

    const created = await admin.createApiKey({
      description: 'Backend',
      expiresAt,
      hasPublishableClientKey: true,
      hasSecretServerKey: true,
      hasSuperSecretAdminKey: false,
    });

    expect(created).toMatchObject({ description: 'Backend', expiresAt, manuallyRevokedAt: null });
    expect(created.publishableClientKey).toMatch(/^pck_/);
    expect(created.secretServerKey).toMatch(/^ssk_/);
    expect(created.superSecretAdminKey).toBeUndefined();
    expect(created.isValid()).toBe(true);
    const listed = (await admin.listApiKeys()).find((key) => key.id === created.id);
    expect(listed).toMatchObject({
      publishableClientKey: { lastFour: created.publishableClientKey?.slice(-4) },
      secretServerKey: { lastFour: created.secretServerKey?.slice(-4) },
      superSecretAdminKey: null,
    });

    const server = new StackServerApp({
      baseUrl: env.svc.url,
      projectId: env.svc.projectId,
      publishableClientKey: created.publishableClientKey,
      secretServerKey: created.secretServerKey,
      tokenStore: null,
    });
    expect(Array.isArray(await server.listUsers({ limit: 1 }))).toBe(true);
    env.net.reset();
    await listed?.revoke();
    expect(env.net.requests[0]).toMatchObject({
      method: 'PATCH',
      path: `/internal/api-keys/${created.id}`,
      status: 200,
    });

    const revoked = (await admin.listApiKeys()).find((key) => key.id === created.id);
    expect(revoked?.whyInvalid()).toBe('manually-revoked');
    expect(revoked?.manuallyRevokedAt).toBeInstanceOf(Date);
    expect(codeOf(await rejection(server.listUsers({ limit: 1 })))).toBe('INVALID_SECRET_SERVER_KEY');
  });

  it('the metrics the dashboard reads (the SDK has them on its internal interface only)', async () => {
    const admin = adminApp();
    await admin.createUser({ primaryEmail: `metrics-${randomUUID()}@example.com` });
    const internal = admin as unknown as { _interface: { getMetrics(): Promise<Record<string, unknown>> } };
    env.net.reset();

    const metrics = await internal._interface.getMetrics();

    expect(env.net.trail()).toEqual(['GET /internal/metrics']);
    expect(metrics).toMatchObject({
      total_users: expect.any(Number),
      daily_users: expect.any(Array),
      daily_active_users: expect.any(Array),
      users_by_country: expect.any(Object),
      recently_registered: expect.any(Array),
      recently_active: expect.any(Array),
    });
    expect(metrics.total_users).toBeGreaterThan(0);
  });

  it("getSvixToken (internal interface) answers a token that opens this project's webhook routes", async () => {
    const admin = adminApp();
    const internal = admin as unknown as { _interface: { getSvixToken(): Promise<{ token: string }> } };
    env.net.reset();

    const { token } = await internal._interface.getSvixToken();

    expect(env.net.trail()).toEqual(['POST /webhooks/svix-token']);
    expect(env.net.requests[0]?.headers).toMatchObject({
      'x-stack-access-type': 'admin',
      'x-stack-super-secret-admin-key': env.svc.keys.superSecretAdminKey,
    });
    expect(token).toEqual(expect.any(String));
    const withToken = (path: string) =>
      fetch(`${env.svc.url}/api/v1${path}`, {
        headers: {
          'x-stack-project-id': env.svc.projectId,
          'x-stack-access-type': 'admin',
          authorization: `Bearer ${token}`,
        },
      });
    const endpoints = await withToken('/webhooks/endpoints');
    expect(endpoints.status).toBe(200);
    expect(await endpoints.json()).toMatchObject({ items: expect.any(Array), is_paginated: false });
    const elsewhere = await withToken('/internal/api-keys');
    expect(elsewhere.headers.get('x-stack-known-error')).toBe('ADMIN_AUTHENTICATION_REQUIRED');
  });

  it('server-level methods of the admin app talk server access with the server key', async () => {
    const admin = adminApp();

    await admin.listUsers({ limit: 1 });

    expect(env.net.trail()).toEqual(['GET /users']);
    expect(env.net.requests[0]?.headers).toMatchObject({
      'x-stack-access-type': 'server',
      'x-stack-secret-server-key': env.svc.keys.secretServerKey,
    });
    expect(env.net.requests[0]?.headers).not.toHaveProperty('x-stack-super-secret-admin-key');
  });
});

describe('owned projects (internal project, projectOwnerSession)', () => {
  let internalKey: string;
  beforeAll(async () => {
    const keys = await createApiKeySet(env.svc.storage, 'internal', {
      description: 'dashboard',
      hasPublishableClientKey: true,
    });
    internalKey = keys.publishableClientKey!;
  });

  /** A dashboard user: signed up on the internal project, as the dashboard's client app does it. */
  async function dashboardUser() {
    const app = new StackClientApp({
      baseUrl: env.svc.url,
      projectId: 'internal',
      publishableClientKey: internalKey,
      tokenStore: 'memory',
      noAutomaticPrefetch: true,
    });
    const email = `owner-${randomUUID()}@example.com`;
    expect(
      (await app.signUpWithCredential({ email, password, noRedirect: true, verificationCallbackUrl })).status,
    ).toBe('ok');
    const user = await app.getUser({ or: 'throw' });
    return user;
  }

  it('user.createProject() and listOwnedProjects() on the internal project', async () => {
    const user = await dashboardUser();
    env.net.reset();

    expect(await user.listOwnedProjects()).toEqual([]);
    const created = await user.createProject({ displayName: 'Owned shop', config: { magicLinkEnabled: true } });

    expect(created).toMatchObject({ displayName: 'Owned shop', userCount: 0, config: { magicLinkEnabled: true } });
    expect((await user.listOwnedProjects()).map((project) => project.id)).toEqual([created.id]);
    // The SDK re-reads its cached list after the creation, so the list may be read more than once.
    const calls = env.net.trail();
    expect(calls.slice(0, 2)).toEqual(['GET /internal/projects', 'POST /internal/projects']);
    expect(new Set(calls.slice(2))).toEqual(new Set(['GET /internal/projects']));
    expect(env.net.requests[0]?.headers).toMatchObject({
      'x-stack-project-id': 'internal',
      'x-stack-access-type': 'client',
    });
  });

  it('an owned project’s admin app works with the owner’s access token as admin access token', async () => {
    const user = await dashboardUser();
    const owned = await user.createProject({ displayName: 'Administered' });
    env.net.reset();

    const project = await owned.app.getProject();
    expect(project).toMatchObject({ id: owned.id, displayName: 'Administered' });
    const keys = await owned.app.createApiKey({
      description: 'first keys',
      expiresAt: new Date(Date.now() + 3600_000),
      hasPublishableClientKey: true,
      hasSecretServerKey: true,
      hasSuperSecretAdminKey: false,
    });
    expect(keys.secretServerKey).toMatch(/^ssk_/);
    const created = await owned.app.createUser({ primaryEmail: `owned-${randomUUID()}@example.com` });
    expect((await owned.app.listUsers()).map((u) => u.id)).toEqual([created.id]);

    const first = env.net.requests[0];
    expect(first?.headers).toMatchObject({
      'x-stack-project-id': owned.id,
      'x-stack-access-type': 'admin',
      'x-stack-admin-access-token': expect.any(String),
      'x-stack-super-secret-admin-key': '',
    });
    expect(env.net.requests.every((r) => r.status < 400)).toBe(true);
  });
});

it('no request left loopback and the SDK never ran its network diagnostics', () => {
  expect(env.net.blocked).toEqual([]);
  expect(env.net.history.length).toBeGreaterThan(0);
  expect(env.net.history.filter((r) => r.path === '/health')).toEqual([]);
});
