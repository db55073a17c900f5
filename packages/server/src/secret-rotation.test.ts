/**
 * The master secret: its strength is checked, not only its
 * length, and a database moves to a new secret with `rotateSecret`, which
 * re-seals the signing keys, the secrets in project configs and the provider
 * tokens in one transaction. Afterwards the same users sign in, tokens signed
 * before still verify, and the old secret opens nothing.
 */
import { randomBytes } from 'node:crypto';
import { headers as h } from '@latchkey/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createSealer } from './crypto/encryption.js';
import { secretWeakness } from './crypto/secret-strength.js';
import { saveAccount } from './oauth/oauth-account-store.js';
import {
  bootstrap,
  createApiKeySet,
  createProject,
  pinSecret,
  rotateSecret,
  updateProjectConfig,
  verifySecret,
} from './operations.js';
import { configSealerPurpose } from './projects/config-secrets.js';
import { createService, type Service } from './service.js';
import { dbOf, openPGlite, type Storage } from './storage/open-storage.js';
import { testSeed } from './testing/seed-cache.js';
import { SecretMismatchError } from './tokens/signing-keys.js';
import { findWebhookEndpoint, insertWebhookEndpoint } from './webhooks/webhook-endpoint-store.js';
import {
  newWebhookSecret,
  sealWebhookSecret,
  signingSecrets,
  webhookSecretPurpose,
} from './webhooks/webhook-secrets.js';

describe('secretWeakness', () => {
  it.each([
    ['short', 'short'],
    ['one character repeated', 'x'.repeat(40)],
    ['a short unit repeated', 'changeme'.repeat(5)],
    ['few different characters', 'aaaaabbbbbcccccdddddeeeeefffffgg'],
  ])('refuses %s', (_name, secret) => {
    expect(secretWeakness(secret)).not.toBeNull();
  });

  it('passes generated secrets: 32 random bytes in base64, 16 in hex', () => {
    for (let i = 0; i < 50; i++) {
      expect(secretWeakness(randomBytes(32).toString('base64'))).toBeNull();
      expect(secretWeakness(randomBytes(32).toString('base64url'))).toBeNull();
      expect(secretWeakness(randomBytes(16).toString('hex'))).toBeNull();
    }
  });
});

const oldSecret = 'the weak-ish old secret of this database!!';
const newSecret = randomBytes(32).toString('base64url');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function world() {
  const storage: Storage = await openPGlite({ schema: 'public', seed: await testSeed() });
  cleanups.push(() => storage.close());
  const project = await createProject(storage, { displayName: 'Rotated' });
  const keys = await createApiKeySet(storage, project.id);
  await updateProjectConfig(
    storage,
    project.id,
    {
      oauth_providers: [{ id: 'github', type: 'standard', enabled: true, client_id: 'gh', client_secret: 'gh-secret' }],
    },
    { secret: oldSecret },
  );
  const client = {
    [h.projectId]: project.id,
    [h.accessType]: 'client',
    [h.publishableClientKey]: keys.publishableClientKey!,
  };
  const admin = {
    ...client,
    [h.accessType]: 'admin',
    [h.secretServerKey]: keys.secretServerKey!,
    [h.superSecretAdminKey]: keys.superSecretAdminKey!,
  };
  return { storage, projectId: project.id, client, admin };
}

function serve(storage: Storage, secret: string, acceptedSecrets: string[] = []): Service {
  const service = createService({ storage, secret, acceptedSecrets, logger: false });
  cleanups.push(() => service.close());
  return service;
}

function call(service: Service, method: string, path: string, headers: Record<string, string>, json?: unknown) {
  return service.fetch(
    new Request(`http://localhost/api/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: json === undefined ? undefined : JSON.stringify(json),
    }),
  );
}

describe('rotateSecret', () => {
  it('re-seals everything under the new secret: users sign in, old tokens verify, secrets open, the old secret opens nothing', async () => {
    const { storage, projectId, client, admin } = await world();
    const before = serve(storage, oldSecret);
    const email = 'rotated@example.com';
    const signUp = await (
      await call(before, 'POST', '/auth/password/sign-up', client, { email, password: 'correct-horse-1' })
    ).json();
    const userId = signUp.user_id as string;
    await saveAccount(dbOf(storage), createSealer(oldSecret, configSealerPurpose), {
      projectId,
      providerId: 'github',
      accountId: 'gh-1',
      userId,
      email,
      tokens: { accessToken: 'provider-access', refreshToken: 'provider-refresh', expiresAt: null, scopes: [] },
      now: Date.now(),
    });
    await before.close();
    const endpointId = crypto.randomUUID();
    const webhookSecret = newWebhookSecret();
    const previousSecret = newWebhookSecret();
    const oldWebhookSealer = createSealer(oldSecret, webhookSecretPurpose);
    await insertWebhookEndpoint(dbOf(storage), {
      id: endpointId,
      projectId,
      url: 'https://example.com/hook',
      description: '',
      eventTypes: null,
      secretSealed: sealWebhookSecret(oldWebhookSealer, endpointId, webhookSecret),
      enabled: true,
      now: Date.now(),
    });
    await dbOf(storage)
      .updateTable('webhook_endpoints')
      .set({
        previous_secret_sealed: sealWebhookSecret(oldWebhookSealer, endpointId, previousSecret),
        previous_secret_expires_at: new Date(Date.now() + 60_000),
      })
      .where('id', '=', endpointId)
      .execute();

    const rotation = await rotateSecret(storage, oldSecret, newSecret);
    expect(rotation).toMatchObject({ projectConfigs: 1, providerAccounts: 1, webhookEndpoints: 1 });
    const endpoint = await findWebhookEndpoint(dbOf(storage), projectId, endpointId);
    expect(signingSecrets(createSealer(newSecret, webhookSecretPurpose), endpoint!, Date.now())).toEqual([
      webhookSecret,
      previousSecret,
    ]);
    expect(() => signingSecrets(oldWebhookSealer, endpoint!, Date.now())).toThrow();
    expect(rotation.signingKeys).toBeGreaterThanOrEqual(1);

    await expect(verifySecret(storage, oldSecret)).rejects.toBeInstanceOf(SecretMismatchError);
    expect(await verifySecret(storage, newSecret)).toBe('opened');
    const after = serve(storage, newSecret);
    // A token signed before the rotation still verifies (the same keys, re-sealed).
    const me = await call(after, 'GET', '/users/me', { ...client, [h.accessToken]: signUp.access_token });
    expect(me.status).toBe(200);
    const signIn = await call(after, 'POST', '/auth/password/sign-in', client, { email, password: 'correct-horse-1' });
    expect(signIn.status).toBe(200);
    const project = await (await call(after, 'GET', '/projects/current', admin)).json();
    expect(project.config.oauth_providers[0].client_secret).toBe('gh-secret');
    const token = await call(
      after,
      'POST',
      `/connected-accounts/${userId}/github/access-token`,
      {
        ...admin,
        [h.accessType]: 'server',
      },
      { scope: '' },
    );
    expect((await token.json()).access_token).toBe('provider-access');
  });

  it('refuses a wrong old secret or a weak new one, changing nothing', async () => {
    const { storage } = await world();
    await bootstrap(storage, { dev: false });
    await pinSecret(storage, oldSecret); // the first signing key, sealed under the old secret
    await expect(rotateSecret(storage, 'not the secret of this database at all!!', newSecret)).rejects.toBeInstanceOf(
      SecretMismatchError,
    );
    await expect(rotateSecret(storage, oldSecret, 'x'.repeat(40))).rejects.toThrow(/too weak/);
    expect(await verifySecret(storage, oldSecret)).toBe('opened');
  });

  it('runs with instances running on both secrets: they keep working before, during and after', async () => {
    const { storage, client, admin } = await world();
    const email = 'rolling@example.com';
    const password = 'correct-horse-1';
    const old = serve(storage, oldSecret);
    expect((await call(old, 'POST', '/auth/password/sign-up', client, { email, password })).status).toBe(200);

    // Step 1: the old secret seals, the new one is accepted. Step 2: the other way round.
    const step1 = serve(storage, oldSecret, [newSecret]);
    const step2 = serve(storage, newSecret, [oldSecret]);
    const providerSecret = async (service: Service) =>
      (await (await call(service, 'GET', '/projects/current', admin)).json()).config.oauth_providers[0].client_secret;
    expect(await providerSecret(step2)).toBe('gh-secret'); // sealed with the old one
    const patch = {
      config: {
        oauth_providers: [{ id: 'github', type: 'standard', enabled: true, client_id: 'gh', client_secret: 'gh-new' }],
      },
    };
    expect((await call(step2, 'PATCH', '/projects/current', admin, patch)).status).toBe(200);
    // Sealed with the new secret: step 1 opens it.
    expect(await providerSecret(step1)).toBe('gh-new');
    // An instance that knows only the old secret fails on it: why step 1 comes before step 2.
    const stale = await call(old, 'GET', '/projects/current', admin);
    expect(stale.status).toBe(500);
    expect(await stale.text()).not.toContain('gh-new');

    // Step 3, while step 2 runs: everything moves to the new secret, what is under it already included.
    const rotation = await rotateSecret(storage, oldSecret, newSecret);
    expect(rotation.projectConfigs).toBe(1);
    const signIn = await call(step2, 'POST', '/auth/password/sign-in', client, { email, password });
    expect(signIn.status).toBe(200);
    expect(await providerSecret(step2)).toBe('gh-new');

    // Step 4: the new secret alone opens everything; the old one opens nothing.
    const step4 = serve(storage, newSecret);
    expect(await providerSecret(step4)).toBe('gh-new');
    expect((await call(step4, 'POST', '/auth/password/sign-in', client, { email, password })).status).toBe(200);
    await expect(verifySecret(storage, oldSecret)).rejects.toBeInstanceOf(SecretMismatchError);
    expect(await verifySecret(storage, [newSecret, oldSecret])).toBe('opened');
  });
});
