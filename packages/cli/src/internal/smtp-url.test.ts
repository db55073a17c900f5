import { describe, expect, it } from 'vitest';
import { CliError } from './errors.js';
import { checkSmtpUrl } from './smtp-url.js';

describe('checkSmtpUrl', () => {
  it('passes SMTP URLs through and treats unset or empty as none', () => {
    expect(checkSmtpUrl('smtp://user:pass@mail.example.com:587')).toBe('smtp://user:pass@mail.example.com:587');
    expect(checkSmtpUrl('smtps://mail.example.com:465')).toBe('smtps://mail.example.com:465');
    expect(checkSmtpUrl(undefined)).toBeUndefined();
    expect(checkSmtpUrl('')).toBeUndefined();
  });

  it('refuses what is not an SMTP URL with one line naming the variable, never the password', () => {
    for (const value of ['mail.example.com:587', 'https://user:hunter22@mail.example.com', 'smtp://']) {
      let error: unknown;
      try {
        checkSmtpUrl(value);
      } catch (caught) {
        error = caught;
      }
      expect(error, value).toBeInstanceOf(CliError);
      expect((error as Error).message).toMatch(/^LATCHKEY_SMTP_URL /);
      expect((error as Error).message).not.toContain('hunter22');
    }
  });
});
