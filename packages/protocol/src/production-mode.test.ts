import { describe, expect, it } from 'vitest';
import { domainSettingsPath, productionModeErrors } from './production-mode.js';

const projectId = 'p-1';
const messagesFor = (domains: string[], allowLocalhost = false) =>
  productionModeErrors(
    { allow_localhost: allowLocalhost, domains: domains.map((domain) => ({ domain })) },
    projectId,
  ).map((problem) => problem.message);

describe('productionModeErrors', () => {
  it('finds nothing wrong with HTTPS domains and localhost turned off', () => {
    expect(messagesFor(['https://app.example.com', 'https://example.com:8443/base'])).toEqual([]);
    expect(messagesFor([])).toEqual([]);
  });

  it("asks to turn off 'Allow localhost', in the spec's words", () => {
    expect(messagesFor([], true)).toEqual([
      "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
    ]);
  });

  it('links every problem to the domain settings of the project', () => {
    const problems = productionModeErrors({ allow_localhost: true, domains: [{ domain: 'nope' }] }, 'a/b c');
    expect(problems).toHaveLength(2);
    for (const problem of problems) expect(problem.relativeFixUrl).toBe('/projects/a%2Fb%20c/domains');
    expect(domainSettingsPath(projectId)).toBe('/projects/p-1/domains');
  });

  it('links a provider on shared keys to the sign-in methods, where it is configured', () => {
    const problems = productionModeErrors(
      {
        allow_localhost: false,
        domains: [],
        oauth_providers: [
          { id: 'github', enabled: true, type: 'shared' },
          { id: 'google', enabled: false, type: 'shared' },
          { id: 'gitlab', enabled: true, type: 'standard' },
        ],
      },
      projectId,
    );
    expect(problems).toEqual([
      {
        message: expect.stringMatching(/^OAuth provider github uses shared/),
        relativeFixUrl: '/projects/p-1/sign-in-methods',
      },
    ]);
  });

  it.each([
    ['not a url', 'Trusted domains must be valid URLs: not a url'],
    ['', 'Trusted domains must be valid URLs: '],
    ['https://localhost', 'Localhost domains are not allowed in production mode: https://localhost'],
    ['https://LOCALHOST:3000', 'Localhost domains are not allowed in production mode: https://LOCALHOST:3000'],
    ['https://app.localhost', 'Localhost domains are not allowed in production mode: https://app.localhost'],
    ['https://localhost.', 'Localhost domains are not allowed in production mode: https://localhost.'],
    ['https://127.0.0.1', 'Localhost domains are not allowed in production mode: https://127.0.0.1'],
    ['https://127.10.20.30:8080', 'Localhost domains are not allowed in production mode: https://127.10.20.30:8080'],
    ['https://0x7f.1', 'Localhost domains are not allowed in production mode: https://0x7f.1'],
    ['https://203.0.113.9', 'Direct IP addresses are not allowed in production mode: https://203.0.113.9'],
    ['https://[2001:db8::1]', 'Direct IP addresses are not allowed in production mode: https://[2001:db8::1]'],
    ['https://[::1]', 'Direct IP addresses are not allowed in production mode: https://[::1]'],
    ['http://app.example.com', 'Trusted domains must use HTTPS in production mode: http://app.example.com'],
  ])('reports %j', (domain, message) => {
    expect(messagesFor([domain])).toEqual([message]);
  });

  it('reports every problem of a domain, and of every domain, in order', () => {
    expect(messagesFor(['http://localhost:3000', 'https://ok.example.com', 'http://10.0.0.1'], true)).toEqual([
      "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
      'Localhost domains are not allowed in production mode: http://localhost:3000',
      'Trusted domains must use HTTPS in production mode: http://localhost:3000',
      'Direct IP addresses are not allowed in production mode: http://10.0.0.1',
      'Trusted domains must use HTTPS in production mode: http://10.0.0.1',
    ]);
  });

  it('does not take look-alike names for localhost or IP addresses', () => {
    expect(
      messagesFor(['https://localhost.example.com', 'https://mylocalhost.com', 'https://1.2.3.4.example.com']),
    ).toEqual([]);
  });
});
