import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientVersionHeader, sdkVersion } from './version.js';

describe('version', () => {
  it('matches package.json and has the client-version format <platform> <package>@<semver>', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(sdkVersion).toBe(pkg.version);
    expect(clientVersionHeader).toMatch(/^js @latchkey\/js@\d+\.\d+\.\d+$/);
  });
});
