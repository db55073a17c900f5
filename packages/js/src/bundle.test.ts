/**
 * Bundle guard (STYLE.md item 11): the browser entry must not pull in zod,
 * Node built-ins, server code or the server entry (`@latchkey/js/server`),
 * and `ClientApp` with `getUser` must stay within `clientAppBudget` min+gzip. The figures
 * are printed on every run, the server entry's too.
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { errorMessages } from '@latchkey/protocol';
import { build, type Metafile, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

const srcDir = fileURLToPath(new URL('.', import.meta.url));

/**
 * Budget of `new ClientApp(...)` + `getUser()`, in bytes of minified, gzipped
 * code. 10 000 at first (9 932 used); the e-mail flows (password reset,
 * verification, magic link), password change and contact channels as app
 * data brought it to 11 096, all reachable from `ClientApp` and the user it
 * hands out, so none can be shaken off. Teams (the user's teams as
 * app data, team objects with their actions, permissions, the invitation
 * codes) added 1 020 B, again all reachable from the user: 12 146 used.
 * OAuth (`signInWithOAuth`, `callOAuthCallback` with PKCE, the
 * verifier cookie and the code exchange; the user's connected accounts and
 * linking) added ~1 750 B, all reachable from `ClientApp` and its user (the
 * authorize flow is shared by sign-in and linking, so it cannot be split
 * off): 13 899 used, 14 000 leaves ~100 B of room. The refresh-token cookie
 * mode (`tokenStore: 'httponly-cookie'`: its store, the mode
 * carried through the pipeline, the refresh, the code exchange and the
 * sign-in decoders, and the same-origin check) added ~470 B: chosen by a
 * string option, it is reachable from every `ClientApp`. 14 342 used; 14 435
 * before the data layer of every audience. That layer (queries as values,
 * keys with prefixes, the scope they load with, `invalidate` on the app, the
 * account's per-team data marked out of date by the team's actions) added
 * ~180 B after the cache lost its wrapper: 14 616 used. `ClientApp` as
 * credentials plus mounted modules, and `CurrentUser` from per-capability
 * slices, moved the same code into a dozen module functions that each build
 * an object of methods: ~300 B less minified but ~110 B more after gzip
 * (the method bodies, once side by side in one class, now sit apart), and
 * the session's cookie mode and the stored-token contract file add a little:
 * 14 725 used, over the 14 435 before that layer, which this budget holds
 * since. Brought back to 14 358 (-367 B) without a behaviour lost: decoding
 * reads a compact code index (each code's status, family and null-defaulted
 * details, codes grouped under them) instead of the catalogue object and its
 * detail shapes (-146 B); the retry loop, not the pipeline and the refresher,
 * resolves fetch, timers and random, and the core passes timers through
 * (-70 B); one setCookie writes or deletes (-33 B); helpers written twice
 * (JSON parsing, same-origin URLs, the OAuth code/state stripping, the
 * navigation wait, the list decoder) once, and the two OAuth browser-only
 * errors as one (-76 B); page paths as their keys in kebab case (-26 B); the
 * redirect refusal in fewer words (-16 B).
 * Passkeys and the second factor (ten methods) cost only their names here:
 * their code and the WebAuthn library load on the first call
 * (`auth/deferred.ts`), measured below as a chunk of their own; the e-mail
 * flows (handler pages only) moved behind a call the same way, which paid
 * for those names. Measured as app bundlers split: each `import()` left to
 * load its chunk on the call. Where an OAuth flow asked to end, kept in a
 * cookie of its own for a callback that asks for the second factor (the
 * service answers it only with a session), added ~95 B: 14 426 used.
 * The three webhook codes in the code index (decoding knows every code the
 * service may send) added ~20 B: 14 448 used, 14 460 allowed. Codes only
 * admin routes answer could leave the browser's index (a generic error in
 * their place) if the index keeps growing.
 * Next.js support added ~57 B: the session cookies as one list the cookie
 * store writes and server code (`request-auth.ts`) hands to a framework, and
 * `initialUser` (the user a server rendered the page with, shown with no
 * request): 14 506 used, 14 515 allowed.
 * Team members' e-mail and roles (the two extension fields of a member
 * profile, decoded and checked) and a member granting and revoking roles
 * (`Team.grantPermission`, `revokePermission`, on the request server code
 * already sent) added ~140 B, reachable from every user's teams: 14 648 used,
 * 14 660 allowed.
 * The user's own sessions and security activity (list, end one, end all
 * others, the activity list, as methods and queries) cost their three names,
 * a chunk of their own loaded on the call (`sessions/own-sessions.ts`, as
 * passkeys do) and their reset at sign-out: ~76 B, 14 582 used, 14 590 allowed.
 * Both together: 14 744 used, 14 760 allowed.
 */
const clientAppBudget = 14_760;

/** Modules of the service and its dependencies, which a browser bundle must never hold. */
const serverModules =
  /(packages\/server\/|@latchkey\/server|\/(zod|hono|kysely|pino|pg|@electric-sql|argon2|nodemailer)\/)/;

/** The modules only the server entry (`server.ts`) reaches: none may be in a browser bundle. */
const serverEntryModules = [
  'server.ts',
  'server-app.ts',
  'admin-app.ts',
  'project-owner-app.ts',
  'internal/audience.ts',
  'internal/cache/write-effects.ts',
  'internal/pagination.ts',
  'internal/session/request-tokens.ts',
  'internal/session/access-token-verifier.ts',
  'users/server-user.ts',
  'users/server-users.ts',
  'users/server-users-api.ts',
  'sessions/sessions-api.ts',
  'projects/admin-project-decoder.ts',
  'projects/admin-projects-api.ts',
  'projects/project-admin.ts',
  'projects/owned-projects.ts',
  'api-keys/api-keys-api.ts',
  'api-keys/api-key-sets.ts',
  'metrics/metrics.ts',
  'auth/server-email-flows.ts',
  'contact-channels/server-contact-channel.ts',
  'emails/email-templates.ts',
  'emails/email-delivery.ts',
  'teams/server-team.ts',
  'teams/permission-definitions.ts',
  'webhooks/webhooks-admin.ts',
  'webhooks/verify-webhook.ts',
];

/**
 * What a page loads before calling anything: the bundle of `contents`, each
 * `import()` left to load its chunk on the call (as app bundlers do; the
 * modules it shares with the page are the page's already).
 */
async function bundle(contents: string, platform: 'browser' | 'node' = 'browser') {
  const onCall: Plugin = {
    name: 'loaded-on-call',
    setup: (plugins) =>
      plugins.onResolve({ filter: /./ }, (args) =>
        args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
      ),
  };
  const result = await build({
    stdin: { contents, resolveDir: srcDir, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    conditions: ['source'],
    plugins: [onCall],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text ?? '';
  const output = Object.values(result.metafile.outputs)[0];
  return {
    code,
    gzipped: gzipSync(code).length,
    inputs: keptInputs(output),
    read: Object.keys(result.metafile.inputs),
  };
}

/** Modules with code in `output` (esbuild also lists modules it read and dropped whole). */
function keptInputs(output: Metafile['outputs'][string] | undefined): string[] {
  return Object.entries(output?.inputs ?? {})
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => path);
}

/** The chunks the code of `contents` loads on a call (`import()`): split as a page's bundler splits them. */
async function chunksLoadedOnCall(contents: string) {
  const result = await build({
    stdin: { contents, resolveDir: srcDir, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    outdir: 'out',
    conditions: ['source'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const { outputs } = result.metafile;
  const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === '<stdin>') ?? '';
  /** The chunks the page loads before it runs: the entry and what it imports, transitively. */
  const initial = new Set<string>();
  const load = (path: string) => {
    if (initial.has(path)) return;
    initial.add(path);
    for (const chunk of outputs[path]?.imports ?? []) if (chunk.kind === 'import-statement') load(chunk.path);
  };
  load(entry);
  const dynamic = [...initial].flatMap((path) =>
    (outputs[path]?.imports ?? []).filter((chunk) => chunk.kind === 'dynamic-import'),
  );
  /** Each chunk with what it loads, then or on its own calls, that the page has not loaded yet. */
  const lazy = (path: string, seen = new Set<string>()): string[] => {
    if (seen.has(path) || initial.has(path)) return [];
    seen.add(path);
    return [path, ...(outputs[path]?.imports ?? []).flatMap((chunk) => lazy(chunk.path, seen))];
  };
  const text = (path: string) => result.outputFiles.find((file) => file.path.endsWith(path))?.text ?? '';
  return dynamic.map(({ path }) => {
    const files = lazy(path);
    return {
      code: files.map(text).join('\n'),
      gzipped: files.reduce((sum, file) => sum + gzipSync(text(file)).length, 0),
      inputs: files.flatMap((file) => keptInputs(outputs[file])),
    };
  });
}

function report(label: string, { code, gzipped, inputs }: Awaited<ReturnType<typeof bundle>>) {
  console.log(`${label}: ${code.length} B minified, ${gzipped} B min+gzip (${inputs.length} modules)`);
}

describe('browser bundle of @latchkey/js', () => {
  it('holds no zod, node: built-ins or server modules', async () => {
    const entry = await bundle("export * from './index.js';");
    report('@latchkey/js browser entry', entry);
    expect(entry.read.filter((path) => serverModules.test(path))).toEqual([]);
    expect(entry.read.filter((path) => path.startsWith('node:') || path.includes('node_modules'))).toEqual([]);
    expect(entry.code).not.toMatch(/["']node:[a-z_/]+["']/);
    expect(entry.code).not.toMatch(/\bzod\b/);
    expect(entry.inputs.some((path) => path.includes('protocol/src'))).toBe(true);
  });

  it('holds none of the server entry’s modules, and names none of its classes', async () => {
    const entry = await bundle("export * from './index.js';");
    const read = entry.read.map((path) => path.replace(/^.*packages\/js\/src\//, ''));
    expect(read.filter((path) => serverEntryModules.includes(path))).toEqual([]);
    expect(entry.code.match(/ServerApp|AdminApp|must never reach a browser/g)).toBeNull();
    // The guard can fail: the server entry does hold them.
    const server = await bundle("export * from './server.js';", 'node');
    report('@latchkey/js/server entry', server);
    const serverRead = server.read.map((path) => path.replace(/^.*packages\/js\/src\//, ''));
    expect(serverEntryModules.filter((path) => !serverRead.includes(path))).toEqual([]);
    expect(server.code).toMatch(/ServerApp/);
  });

  it('has an admin entry for browsers (the dashboard) without the server entry, ServerApp or webhook verification', async () => {
    const admin = await bundle("export * from './admin.js';");
    report('@latchkey/js/admin browser entry', admin);
    const read = admin.read.map((path) => path.replace(/^.*packages\/js\/src\//, ''));
    expect(read.filter((path) => serverModules.test(path) || path.startsWith('node:'))).toEqual([]);
    expect(read.filter((path) => ['server.ts', 'server-app.ts', 'webhooks/verify-webhook.ts'].includes(path))).toEqual(
      [],
    );
    expect(admin.code).not.toMatch(/["']node:[a-z_/]+["']/);
    expect(admin.code).toMatch(/AdminApp/);
    expect(admin.code).toMatch(/ProjectOwnerApp/);
  });

  it(`keeps ClientApp + getUser within ${clientAppBudget} B min+gzip, without the wording table`, async () => {
    const app = await bundle(`
      import { ClientApp } from './index.js';
      const app = new ClientApp({ projectId: 'p', publishableClientKey: 'k', baseUrl: 'https://a.example', tokenStore: 'cookie' });
      app.getUser().then(console.log);
    `);
    report('ClientApp + getUser', app);
    expect(app.code).toContain('USER_EMAIL_ALREADY_EXISTS'); // the catalogue decodes known errors
    expect(app.code).not.toContain(errorMessages.EMAIL_PASSWORD_MISMATCH);
    expect(app.code).not.toContain('originalErrorCode'); // a detail shape: the catalogue object stays out
    expect(app.inputs.filter((path) => path.endsWith('errors/messages.ts'))).toEqual([]);
    expect(app.gzipped).toBeLessThanOrEqual(clientAppBudget);
  });

  it('loads passkeys and the second factor on call: the WebAuthn library is in no chunk a page loads first', async () => {
    const contents = `
      import { ClientApp } from './index.js';
      const app = new ClientApp({ projectId: 'p', publishableClientKey: 'k', baseUrl: 'https://a.example', tokenStore: 'cookie' });
      app.getUser().then((user) => user?.registerPasskey());
      app.signInWithPasskey({ autofill: true });
    `;
    const page = await bundle(contents);
    expect(page.read.filter((path) => path.includes('@simplewebauthn'))).toEqual([]);
    expect(page.inputs.filter((path) => path.endsWith('auth/account-security.ts'))).toEqual([]);
    expect(page.code).not.toMatch(/WebAuthnAbortService|navigator\.credentials/);

    const onCall = await chunksLoadedOnCall(contents);
    const passkeys = onCall.find((chunk) => chunk.inputs.some((path) => path.endsWith('auth/account-security.ts')));
    expect(passkeys?.inputs.some((path) => path.includes('@simplewebauthn/browser'))).toBe(true);
    expect(passkeys?.code).toMatch(/navigator\.credentials/);
    const library = passkeys?.inputs.filter((path) => path.includes('@simplewebauthn/browser')) ?? [];
    console.log(
      `passkey and second-factor chunk, loaded on call: ${passkeys?.code.length} B minified, ` +
        `${passkeys?.gzipped} B min+gzip (${passkeys?.inputs.length} modules, ${library.length} of @simplewebauthn/browser)`,
    );
    const emails = onCall.find((chunk) => chunk.inputs.some((path) => path.endsWith('auth/email-flows.ts')));
    console.log(`e-mail flows chunk, loaded on call: ${emails?.code.length} B minified, ${emails?.gzipped} B min+gzip`);
  });
});
