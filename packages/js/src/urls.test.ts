import { describe, expect, it } from 'vitest';
import { resolveUrls, sameOriginPath } from './urls.js';

describe('resolveUrls', () => {
  it('uses the spec defaults', () => {
    expect(resolveUrls()).toEqual({
      handler: '/handler',
      signIn: '/handler/sign-in',
      signUp: '/handler/sign-up',
      signOut: '/handler/sign-out',
      emailVerification: '/handler/email-verification',
      passwordReset: '/handler/password-reset',
      forgotPassword: '/handler/forgot-password',
      oauthCallback: '/handler/oauth-callback',
      magicLinkCallback: '/handler/magic-link-callback',
      accountSettings: '/handler/account-settings',
      error: '/handler/error',
      teamInvitation: '/handler/team-invitation',
      home: '/',
      afterSignIn: '/',
      afterSignUp: '/',
      afterSignOut: '/',
    });
  });

  it('chains overrides: after-sign-up follows after-sign-in, which follows home', () => {
    const urls = resolveUrls({ home: '/app', afterSignIn: '/welcome-back' });
    expect(urls).toMatchObject({ afterSignIn: '/welcome-back', afterSignUp: '/welcome-back', afterSignOut: '/app' });
    expect(resolveUrls({ home: '/app' })).toMatchObject({ afterSignIn: '/app', afterSignUp: '/app' });
  });

  it('moves pages with the handler base unless a page is overridden', () => {
    const urls = resolveUrls({ handler: '/auth/', signUp: '/join' });
    expect(urls).toMatchObject({ handler: '/auth', signIn: '/auth/sign-in', signUp: '/join' });
  });
});

describe('sameOriginPath', () => {
  const origin = 'https://app.example.com';

  it('gives the path of a relative or same-origin target', () => {
    expect(sameOriginPath('/account?tab=2#top', origin)).toBe('/account?tab=2#top');
    expect(sameOriginPath('https://app.example.com/account', origin)).toBe('/account');
  });

  it.each(['https://evil.com', '//evil.com', '/\\evil.com', '\\/evil.com', ' javascript:alert(1)', 'data:,x'])(
    'gives null for %s',
    (target) => {
      expect(sameOriginPath(target, origin)).toBeNull();
    },
  );

  it('outside a browser accepts relative targets only', () => {
    expect(sameOriginPath('/x')).toBe('/x');
    expect(sameOriginPath('https://app.example.com/x')).toBeNull();
  });
});
