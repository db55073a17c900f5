/**
 * The production-mode checks of spec §5: what keeps a project from running in
 * production mode, judged from its `allow_localhost` flag and its trusted
 * domains. The service refuses to switch a project into production mode while
 * any check fails; the SDK and the dashboard show the same list, each problem
 * with a link to the dashboard page that fixes it: the domain settings, or
 * the sign-in methods for a provider on shared keys.
 */

/** What the checks read: admin config keys of wire-protocol §15.6. */
export interface ProductionModeConfig {
  allow_localhost: boolean;
  domains: readonly { domain: string }[];
  /** Enabled `shared` providers use the development stand-in, which production refuses. */
  oauth_providers?: readonly { id: string; enabled: boolean; type: string }[];
}

/**
 * One reason the project cannot run in production mode, and where to fix it.
 *
 * @example
 * ```ts
 * const problem: ProductionModeError = { message: 'Trusted domains must use HTTPS: http://app.example.com', relativeFixUrl: '/projects/p1/domains' };
 * ```
 */
export interface ProductionModeError {
  message: string;
  /** The dashboard page that fixes it, e.g. `/projects/<id>/domains` or `/projects/<id>/sign-in-methods`. */
  relativeFixUrl: string;
}

/**
 * The dashboard path of a project's domain settings, where every production-mode problem is fixed.
 *
 * @example
 * ```ts
 * domainSettingsPath('internal'); // '/projects/internal/domains'
 * ```
 */
export function domainSettingsPath(projectId: string): string {
  return `/projects/${encodeURIComponent(projectId)}/domains`;
}

/** The dashboard path of a project's sign-in methods, where OAuth providers are configured. */
function signInMethodsPath(projectId: string): string {
  return `/projects/${encodeURIComponent(projectId)}/sign-in-methods`;
}

/**
 * The problems that keep a project out of production mode (spec §5), in the
 * order of the spec: localhost allowed, then per trusted domain an invalid
 * URL, a localhost host, a direct IP address, a scheme other than HTTPS.
 * An empty list means the project may run in production mode.
 *
 * @example
 * ```ts
 * productionModeErrors({ allow_localhost: true, domains: [{ domain: 'http://127.0.0.1:3000' }] }, projectId);
 * // [{ message: "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings", ... },
 * //  { message: 'Localhost domains are not allowed in production mode: http://127.0.0.1:3000', ... },
 * //  { message: 'Trusted domains must use HTTPS in production mode: http://127.0.0.1:3000', ... }]
 * ```
 */
export function productionModeErrors(config: ProductionModeConfig, projectId: string): ProductionModeError[] {
  const domainsUrl = domainSettingsPath(projectId);
  const problems: ProductionModeError[] = [];
  const add = (message: string, relativeFixUrl = domainsUrl) => problems.push({ message, relativeFixUrl });
  if (config.allow_localhost) {
    add("Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings");
  }
  for (const { domain } of config.domains) for (const message of domainProblems(domain)) add(message);
  for (const provider of config.oauth_providers ?? []) {
    if (provider.enabled && provider.type === 'shared') {
      add(
        `OAuth provider ${provider.id} uses shared development keys, which only sign in through the development stand-in; configure your own client id and secret (type standard) for production mode`,
        signInMethodsPath(projectId),
      );
    }
  }
  return problems;
}

function domainProblems(domain: string): string[] {
  let url: URL;
  try {
    url = new URL(domain);
  } catch {
    return [`Trusted domains must be valid URLs: ${domain}`];
  }
  const problems: string[] = [];
  if (isLocalhost(url.hostname)) problems.push(`Localhost domains are not allowed in production mode: ${domain}`);
  else if (isIpAddress(url.hostname)) {
    problems.push(`Direct IP addresses are not allowed in production mode: ${domain}`);
  }
  if (url.protocol !== 'https:') problems.push(`Trusted domains must use HTTPS in production mode: ${domain}`);
  return problems;
}

/** `localhost`, a `.localhost` name, or a loopback IPv4 address (127.x.x.x). URL host names arrive lower-cased. */
function isLocalhost(hostname: string): boolean {
  const name = hostname.replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** An IPv4 address (the URL parser normalizes `0x7f.1` and friends to dotted decimal) or a bracketed IPv6 one. */
function isIpAddress(hostname: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith('[');
}
