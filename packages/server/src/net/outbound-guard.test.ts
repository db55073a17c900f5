/**
 * The outbound guard over real sockets on loopback: with the production
 * default, a project's SMTP server or OpenID issuer on the service's own
 * network is refused when the connection is opened (by address, by a name
 * that resolves there, by any spelling of it), the test e-mail answers a
 * category instead of the peer's words, and the OAuth error page shows no
 * detail; with the operator's allowance, the same peers work.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, call, newEmail } from '../test-support/api.js';
import { type SmtpPeer, startSmtpPeer } from '../test-support/smtp-peer.js';
import { startTestService, type TestService } from '../testing/index.js';
import { appCallbackUrl, authorizeUrl, landing, TestBrowser } from '../testing/oauth-browser.js';
import { type OidcUpstream, startUpstreamFor } from '../testing/oidc-upstream.js';
import { isPublicAddress } from './outbound-guard.js';

describe('isPublicAddress', () => {
  it.each([
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '127.0.0.1',
    '127.8.9.10',
    '0.0.0.0',
    '169.254.169.254',
    '100.64.0.1',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '[::1]',
    '224.0.0.1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'lets %s through',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

let peer: SmtpPeer;
let guarded: TestService;
let allowed: TestService;
/** Guarded, reaching providers by the name `localhost`: the refusal comes from resolving it. */
let byName: TestService;
/** What `byName` logged: where the details of a refused provider go. */
const logLines: string[] = [];

beforeAll(async () => {
  peer = await startSmtpPeer({ users: { tester: 'test-password-1' } });
  guarded = await startTestService({ development: false });
  allowed = await startTestService({ development: false, allowPrivateNetwork: true });
  byName = await startTestService({
    development: false,
    logger: pino({ level: 'warn' }, { write: (line: string) => void logLines.push(line) }),
    oauthProviderNetwork: { rewriteUrl: (url) => url.replace('//127.0.0.1:', '//localhost:') },
  });
});

afterAll(async () => {
  await guarded?.close();
  await allowed?.close();
  await byName?.close();
  await peer?.close();
});

function sendTestEmail(service: TestService, host: string, to = newEmail('guard')) {
  return call(service, 'POST', '/internal/send-test-email', {
    headers: authHeaders(service, 'admin'),
    json: {
      recipient_email: to,
      email_config: {
        host,
        port: peer.port,
        username: 'tester',
        password: 'test-password-1',
        sender_email: 'admin@acme.example',
        sender_name: 'Acme Admin',
      },
    },
  });
}

describe('send-test-email reaching the private network', () => {
  // localhost and 2130706433 are names a resolver turns into 127.0.0.1: the check is on the address connected to.
  it.each(['127.0.0.1', 'localhost', '2130706433', '::ffff:127.0.0.1', '0.0.0.0'])(
    'refuses an SMTP host of %s with "address not allowed" and no banner',
    async (host) => {
      const connectionsBefore = peer.connections;
      const to = newEmail('refused');
      const answer = await sendTestEmail(guarded, host, to);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ success: false, error_message: 'address not allowed' });
      expect(peer.connections).toBe(connectionsBefore);
      expect(peer.messages.some((message) => message.to.includes(to))).toBe(false);
    },
  );

  it('answers a peer that refuses the login as a category, not with its words', async () => {
    const answer = await call(allowed, 'POST', '/internal/send-test-email', {
      headers: authHeaders(allowed, 'admin'),
      json: {
        recipient_email: newEmail(),
        email_config: {
          host: '127.0.0.1',
          port: peer.port,
          username: 'tester',
          password: 'wrong-password-9',
          sender_email: 'admin@acme.example',
          sender_name: 'Acme Admin',
        },
      },
    });
    expect(answer.body).toEqual({ success: false, error_message: 'authentication failed' });
  });

  it('sends through a loopback server when the operator allows the private network', async () => {
    const to = newEmail('allowed');
    const answer = await sendTestEmail(allowed, 'localhost', to);
    expect(answer.body).toEqual({ success: true });
    expect(peer.messages.some((message) => message.to.includes(to))).toBe(true);
  });
});

describe('an OpenID Connect issuer on the private network', () => {
  const upstreams: OidcUpstream[] = [];
  afterAll(async () => {
    await Promise.all(upstreams.map((upstream) => upstream.close()));
  });

  async function signInThroughLoopbackIssuer(service: TestService) {
    const { upstream, provider } = await startUpstreamFor(service.url, {
      accounts: [{ sub: 'ada', email: 'ada@corp.test', email_verified: true, name: 'Ada' }],
    });
    upstreams.push(upstream);
    await service.setProjectConfig({ oauth_providers: [provider] });
    upstream.nextLogin('ada');
    const end = await new TestBrowser().go(authorizeUrl(service, 'corp').url);
    return { upstream, result: landing(end.url) };
  }

  it('is refused at the anonymous authorize, and the error page shows no detail', async () => {
    const { upstream, result } = await signInThroughLoopbackIssuer(guarded);
    expect(result.params.get('errorCode')).toBe('OAUTH_PROVIDER_ACCESS_DENIED');
    const shown = `${result.params.get('message')} ${result.params.get('details') ?? ''}`;
    expect(shown).toMatch(/could not be reached/);
    expect(shown).not.toContain(new URL(upstream.issuer).host);
    expect(shown).not.toMatch(/127\.0\.0\.1|ECONN|fetch failed|not allowed|private/i);
  });

  it('is refused by a name that resolves to loopback', async () => {
    const { result } = await signInThroughLoopbackIssuer(byName);
    expect(result.params.get('errorCode')).toBe('OAUTH_PROVIDER_ACCESS_DENIED');
    expect(result.params.get('message')).toMatch(/could not be reached/);
    const logged = logLines.find((line) => line.includes('oauth provider unreachable'));
    expect(logged).toMatch(/AddressNotAllowedError: localhost resolves to an address on a private/);
  });

  it('works when the operator allows the private network', async () => {
    const { result } = await signInThroughLoopbackIssuer(allowed);
    expect(result.page, result.params.get('message') ?? '').toBe(appCallbackUrl);
  });
});
