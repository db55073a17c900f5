import { describe, expect, it } from 'vitest';
import { formatDevInfo, formatRows, formatTable, formatTime } from './format.js';

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
      ownerEmail: 'owner@latchkey.localhost',
      ownerPassword: 'pw-1',
      internalPublishableClientKey: 'pck_internal',
      mailboxUrl: 'http://127.0.0.1:8102/mailbox',
    });
    expect(text).toContain('  API URL                 http://127.0.0.1:8102\n');
    expect(text).toContain('  E-mail                    owner@latchkey.localhost\n');
    expect(text).toContain('  Password                  pw-1\n');
    expect(text).toContain('x-stack-admin-access-token with x-stack-project-id: p-1');
    expect(text).toContain('  Super secret admin key  sak_1\n');
    expect(text).toContain('Data directory          /srv/app/.latchkey');
    expect(text).toContain('  Mailbox                 http://127.0.0.1:8102/mailbox\n');
    expect(text).toMatch(/development only/i);
  });
});

describe('formatTable', () => {
  it('pads every column but the last to its widest cell', () => {
    expect(
      formatTable(
        ['ID', 'NAME'],
        [
          ['a', 'Ada'],
          ['long-id', ''],
        ],
      ),
    ).toBe('ID       NAME\na        Ada\nlong-id\n');
  });

  it('shows control characters and bidirectional overrides as ?', () => {
    expect(formatTable(['X'], [['a\u001b[2Jb\u202ec\nd']])).toBe('X\na?[2Jb?c?d\n');
  });
});

describe('formatTime', () => {
  it('shows UTC minutes, and - for nothing', () => {
    expect(formatTime(Date.parse('2031-03-15T12:34:56Z'))).toBe('2031-03-15 12:34');
    expect(formatTime(undefined)).toBe('-');
  });
});
