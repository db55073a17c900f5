import { describe, expect, it } from 'vitest';
import { formatDevInfo, formatRows } from './format.js';

describe('formatRows', () => {
  it('aligns the values after the longest label', () => {
    expect(
      formatRows(
        [
          ['service', 'http://127.0.0.1:8102'],
          ['demo', 'http://localhost:5173'],
        ],
        '',
      ),
    ).toBe('service  http://127.0.0.1:8102\ndemo     http://localhost:5173\n');
  });
});

describe('formatDevInfo', () => {
  it('shows every value with its label and says the keys are for development', () => {
    const text = formatDevInfo({
      apiUrl: 'http://127.0.0.1:8102',
      projectId: 'p-1',
      publishableClientKey: 'pck_1',
      secretServerKey: 'ssk_1',
      superSecretAdminKey: 'sak_1',
      dataDir: '/srv/app/.latchkey',
    });
    expect(text).toContain('  API URL                 http://127.0.0.1:8102\n');
    expect(text).toContain('  Super secret admin key  sak_1\n');
    expect(text).toContain('Data directory          /srv/app/.latchkey');
    expect(text).toMatch(/development only/i);
  });
});
