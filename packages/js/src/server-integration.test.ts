/**
 * `ServerApp` and `AdminApp` against the real service over real HTTP (the
 * global `fetch` and the service's loopback listener): a backend's day —
 * read the visitor of an incoming request, manage users and their sessions,
 * administer the project and its keys. The in-process tests beside each app
 * cover the behaviour in depth; this file proves the same calls on the wire,
 * on PGlite or on PostgreSQL when `DATABASE_URL` is set.
 */
import { describe, expect, it } from 'vitest';
import { AdminApp } from './admin-app.js';
import { ClientApp } from './client-app.js';
import { ServerApp } from './server-app.js';
import { newCredentials, useTestService } from './test-support/service.js';

const service = useTestService();

const common = () => ({ projectId: service().projectId, baseUrl: service().url, clock: service().clock });

describe('ServerApp and AdminApp over HTTP', { timeout: 30_000 }, () => {
  it('a backend reads the visitor of a request, manages users and sessions', async () => {
    const { keys } = service();
    const serverApp = new ServerApp({
      ...common(),
      secretServerKey: keys.secretServerKey,
      publishableClientKey: keys.publishableClientKey,
    });
    const browser = new ClientApp({
      ...common(),
      publishableClientKey: keys.publishableClientKey,
      tokenStore: 'memory',
    });
    const credentials = { ...newCredentials(), noRedirect: true };
    await browser.signUpWithCredential(credentials);
    const request = new Request(`${service().url}/page`, {
      headers: await (await browser.getUser({ or: 'throw' })).getAuthHeaders(),
    });

    const visitor = await serverApp.getUser({ tokenStore: request, or: 'throw' });
    expect(visitor.primaryEmail).toBe(credentials.email);
    const updated = await visitor.update({ serverMetadata: { plan: 'pro' }, primaryEmailVerified: true });
    expect(updated).toMatchObject({ serverMetadata: { plan: 'pro' }, primaryEmailVerified: true });

    const imported = await serverApp.createUser({ primaryEmail: newCredentials().email, displayName: 'Imported' });
    const page = await serverApp.listUsers({ query: imported.id });
    expect(page).toMatchObject({ items: [{ id: imported.id, displayName: 'Imported' }], nextCursor: null });
    const seen: string[] = [];
    for await (const user of serverApp.iterateUsers({ limit: 1 })) seen.push(user.id);
    expect(seen).toEqual(expect.arrayContaining([visitor.id, imported.id]));

    const impersonation = await imported.createSession({ isImpersonation: true });
    const [session] = await imported.listSessions();
    expect(session).toMatchObject({ isImpersonation: true });
    await session!.revoke();
    const stale = new ClientApp({
      ...common(),
      publishableClientKey: keys.publishableClientKey,
      tokenStore: impersonation,
    });
    service().clock.advance(600_000);
    await expect(stale.getUser()).resolves.toBeNull();

    await imported.delete();
    await expect(serverApp.getUser(imported.id)).resolves.toBeNull();
  });

  it('an operator administers the project and its keys', async () => {
    const { projectId, keys } = await service().createOtherProject();
    const adminApp = new AdminApp({ ...common(), projectId, superSecretAdminKey: keys.superSecretAdminKey });

    const project = await adminApp.updateProject({ description: 'Over HTTP', config: { passkeyEnabled: true } });
    expect(project).toMatchObject({ id: projectId, description: 'Over HTTP', config: { passkeyEnabled: true } });
    const created = await adminApp.createApiKeySet({ description: 'Over HTTP', hasSecretServerKey: true });
    const serverApp = new ServerApp({ ...common(), projectId, secretServerKey: created.secretServerKey! });
    await serverApp.createUser({ primaryEmail: newCredentials().email });
    expect((await adminApp.getMetrics()).totalUsers).toBe(1);
    await created.revoke();
    await expect(serverApp.listUsers()).rejects.toMatchObject({ code: 'INVALID_SECRET_SERVER_KEY', status: 401 });
    expect((await adminApp.listApiKeySets()).find((set) => set.id === created.id)?.whyInvalid()).toBe(
      'manually-revoked',
    );
  });
});
