/** Recorded-style service answers (wire-protocol.md §3, §4). */
import {
  type AdminProjectWire,
  type ApiKeySetFirstViewWire,
  type ApiKeySetWire,
  type ClientProjectWire,
  type ClientUserWire,
  type ContactChannelWire,
  type EmailTemplateWire,
  encodeKnownError,
  headers,
  KnownError,
  type KnownErrorCode,
  type MetricsWire,
  type PasskeyCeremonyWire,
  type PasskeyWire,
  type RecoveryCodesWire,
  type RefreshResponseWire,
  type SentEmailWire,
  type ServerUserWire,
  type SignInResponseWire,
  type TotpEnrolmentWire,
} from '@latchkey/protocol';

/** A 2xx JSON answer. */
export function jsonAnswer(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

/**
 * A known-error answer. With `override` (the SDK always asks for it on API
 * calls) the status line is 200 and the real status rides in a header.
 */
export function knownErrorAnswer(error: KnownError | KnownErrorCode, override = true): Response {
  const known = typeof error === 'string' ? new KnownError(error as 'USER_NOT_FOUND') : error;
  const encoded = encodeKnownError(known);
  return new Response(JSON.stringify(encoded.body), {
    status: override ? 200 : encoded.status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      [headers.knownError]: encoded.code,
      ...(override ? { [headers.actualStatus]: String(encoded.status) } : {}),
    },
  });
}

/** A plain (non-known) error answer. */
export function plainErrorAnswer(status: number, text: string, extra: Record<string, string> = {}, override = true) {
  return new Response(text, {
    status: override ? 200 : status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      ...(override ? { [headers.actualStatus]: String(status) } : {}),
      ...extra,
    },
  });
}

/**
 * Answer bodies as the service sends them: recorded from `@latchkey/server`
 * (`signUp`, `currentUser`, `project`, `refresh`), and the full shapes of
 * wire-protocol.md §15 where the service's answer leaves optional parts empty.
 */
export const recordedAnswers = {
  signUp: {
    access_token:
      'eyJhbGciOiJFUzI1NiIsImtpZCI6IkRDbkJzb3BLSWNDVSJ9.eyJicmFuY2hJZCI6Im1haW4iLCJzdWIiOiI4YzM0YWMxNS04MmY4LTQ2MzMtYjEzYi03YzU5ZDkxNDBjNTQiLCJpc3MiOiJodHRwczovL2FjY2Vzcy10b2tlbi5qd3Qtc2lnbmF0dXJlLnN0YWNrLWF1dGguY29tIiwiaWF0IjoxNzk1NDU2OTc5LCJhdWQiOiIyMWQ4YmQ5OS03ODgzLTQxMzEtOWY3ZS04N2ZjZGQ1NTYwYzIiLCJleHAiOjE3OTU0NTc1Nzl9.XVGv5aCu8OiIHlKloGndWZzhGpCkqotgMTtzM6_g-31oyZ-bgX2_cQWDNBoG7a0OjZdoHzqdj_c5mAo6VpHawA',
    refresh_token: 'n6aybwqkgdesap142xjwa8vkxapa8haw2n74p2bhd1rce',
    user_id: '8c34ac15-82f8-4633-b13b-7c59d9140c54',
  } satisfies SignInResponseWire,
  currentUser: {
    id: '8c34ac15-82f8-4633-b13b-7c59d9140c54',
    primary_email: 'alice@example.com',
    primary_email_verified: false,
    display_name: null,
    selected_team: null,
    selected_team_id: null,
    profile_image_url: null,
    signed_up_at_millis: 1795456979348,
    has_password: true,
    otp_auth_enabled: false,
    passkey_auth_enabled: false,
    client_metadata: null,
    client_read_only_metadata: null,
    oauth_providers: [],
    auth_with_email: true,
    requires_totp_mfa: false,
  } satisfies ClientUserWire,
  /** §15.1 with every part filled: a selected team (§15.2) and a connected account. */
  fullUser: {
    id: 'u1',
    primary_email: 'alice@example.com',
    primary_email_verified: true,
    display_name: 'Alice',
    selected_team: { id: 't1', display_name: 'Team', profile_image_url: null, client_metadata: { a: 1 } },
    selected_team_id: 't1',
    profile_image_url: 'https://img.example/a.png',
    signed_up_at_millis: 1_700_000_000_000,
    has_password: true,
    otp_auth_enabled: false,
    passkey_auth_enabled: true,
    client_metadata: { theme: 'dark' },
    client_read_only_metadata: { plan: 'pro' },
    oauth_providers: [{ id: 'github', account_id: '42', email: null }],
    auth_with_email: true,
    requires_totp_mfa: false,
  } satisfies ClientUserWire,
  /** §15.1 server view with every part filled: a selected team in its server view (§15.2). */
  serverUser: {
    id: 'u1',
    primary_email: 'alice@example.com',
    primary_email_verified: true,
    primary_email_auth_enabled: true,
    display_name: 'Alice',
    selected_team: {
      id: 't1',
      display_name: 'Team',
      profile_image_url: null,
      client_metadata: { a: 1 },
      created_at_millis: 1_690_000_000_000,
      server_metadata: { tier: 2 },
    },
    selected_team_id: 't1',
    profile_image_url: 'https://img.example/a.png',
    signed_up_at_millis: 1_700_000_000_000,
    has_password: true,
    otp_auth_enabled: false,
    passkey_auth_enabled: true,
    client_metadata: { theme: 'dark' },
    client_read_only_metadata: { plan: 'pro' },
    server_metadata: { stripe: 'cus_1' },
    last_active_at_millis: 1_700_000_500_000,
    oauth_providers: [{ id: 'github', account_id: '42', email: null }],
    auth_with_email: true,
    requires_totp_mfa: false,
  } satisfies ServerUserWire,
  /** `GET /auth/sessions?user_id=` with one session (wire-protocol.md §14.1). */
  sessionList: {
    items: [
      {
        id: '0b6f8f5e-7c1a-4f43-9a53-4c1e3f7a2b10',
        user_id: 'u1',
        created_at_millis: 1_700_000_000_000,
        last_used_at_millis: 1_700_000_100_000,
        expires_at_millis: 1_731_536_000_000,
        ip: '203.0.113.7',
        user_agent: 'Mozilla/5.0',
        browser: 'Firefox',
        os: 'macOS',
        country: 'FR',
        is_current: false,
        is_impersonation: true,
      },
    ],
    is_paginated: false,
  },
  project: {
    id: '21d8bd99-7883-4131-9f7e-87fcdd5560c2',
    display_name: 'Test project',
    config: {
      sign_up_enabled: true,
      credential_enabled: true,
      magic_link_enabled: false,
      passkey_enabled: false,
      client_team_creation_enabled: false,
      client_user_deletion_enabled: false,
      enabled_oauth_providers: [],
    },
  } satisfies ClientProjectWire,
  /** §15.6 admin view with every config key set. */
  adminProject: {
    id: 'p1',
    display_name: 'Shop',
    description: 'The shop',
    created_at_millis: 1_690_000_000_000,
    user_count: 42,
    is_production_mode: false,
    config: {
      id: 'p1',
      sign_up_enabled: true,
      credential_enabled: true,
      magic_link_enabled: false,
      passkey_enabled: false,
      client_team_creation_enabled: false,
      client_user_deletion_enabled: true,
      enabled_oauth_providers: [{ id: 'github' }],
      allow_localhost: true,
      create_team_on_sign_up: false,
      legacy_global_jwt_signing: false,
      oauth_providers: [
        { id: 'github', enabled: true, type: 'standard', client_id: 'gh-id', client_secret: 'gh-secret' },
        { id: 'google', enabled: false, type: 'shared' },
      ],
      domains: [{ domain: 'https://shop.example.com', handler_path: '/handler' }],
      email_config: {
        type: 'standard',
        host: 'smtp.example.com',
        port: 587,
        username: 'mailer',
        password: 'smtp-secret',
        sender_name: 'Shop',
        sender_email: 'no-reply@shop.example.com',
      },
      team_creator_default_permissions: [{ id: 'admin' }],
      team_member_default_permissions: [{ id: 'member' }],
    },
  } satisfies AdminProjectWire,
  /** §15.7 obfuscated: two of three keys, revoked. */
  apiKeySet: {
    id: '3f0c1c5e-2b7a-4d7e-9a51-7d6f0e2c9b11',
    description: 'Backend',
    created_at_millis: 1_700_000_000_000,
    expires_at_millis: 1_800_000_000_000,
    manually_revoked_at_millis: 1_700_000_500_000,
    publishable_client_key: { last_four: 'x7k2' },
    secret_server_key: { last_four: 'a9q4' },
  } satisfies ApiKeySetWire,
  /** §15.7 first view: the keys in full. */
  apiKeySetFirstView: {
    id: '3f0c1c5e-2b7a-4d7e-9a51-7d6f0e2c9b11',
    description: 'Backend',
    created_at_millis: 1_700_000_000_000,
    expires_at_millis: 1_800_000_000_000,
    publishable_client_key: `pck_${'p'.repeat(41)}x7k2`,
    secret_server_key: `ssk_${'s'.repeat(41)}a9q4`,
  } satisfies ApiKeySetFirstViewWire,
  /** §15.9 with one day per series and no recent users. */
  metrics: {
    total_users: 3,
    daily_users: [{ date: '2026-11-23', activity: 2 }],
    daily_active_users: [{ date: '2026-11-23', activity: 1 }],
    users_by_country: { DE: 2, US: 1 },
    recently_registered: [],
    recently_active: [],
    login_methods: [{ method: 'password', count: 3 }],
  } satisfies MetricsWire,
  /** §15.5: a verified primary address used for sign-in. */
  contactChannel: {
    user_id: '8c34ac15-82f8-4633-b13b-7c59d9140c54',
    id: '5b1d4f0e-6a2c-4f3e-8d7b-2e9a1c0f4b22',
    value: 'ada@example.com',
    type: 'email',
    used_for_auth: true,
    is_verified: true,
    is_primary: true,
  } satisfies ContactChannelWire,
  /** §15.8 with the editor document the official SDK sends. */
  emailTemplate: {
    type: 'password_reset',
    subject: 'Reset your password',
    content: { schemaVersion: 5, root: { type: 'EmailLayout', data: { childrenIds: [] } } },
    is_default: false,
  } satisfies EmailTemplateWire,
  /** One mail of `GET /internal/emails` that failed once and is waiting for its next attempt. */
  sentEmail: {
    id: '0e6f7a9c-1d2b-4c3e-9f8a-7b6c5d4e3f21',
    kind: 'password_reset',
    recipient: 'ada@example.com',
    subject: 'Reset your password',
    status: 'queued',
    attempts: 1,
    last_error: 'connect ECONNREFUSED 127.0.0.1:2525',
    created_at_millis: 1_700_000_000_000,
    sent_at_millis: null,
  } satisfies SentEmailWire,
  /** `POST /auth/passkey/initiate-passkey-registration` (options of `@simplewebauthn/server`, as the service makes them). */
  passkeyRegistrationStarted: {
    options_json: {
      challenge: 'B-yHCUbRFnJ38dhT2_dyR0nGmL1AaHGKxAa0e2yZ8Jw',
      rp: { name: 'Test project', id: 'THIS_VALUE_WILL_BE_REPLACED.example.com' },
      user: {
        id: 'OGMzNGFjMTUtODJmOC00NjMzLWIxM2ItN2M1OWQ5MTQwYzU0',
        name: 'alice@example.com',
        displayName: 'alice@example.com',
      },
      pubKeyCredParams: [
        { alg: -8, type: 'public-key' },
        { alg: -7, type: 'public-key' },
        { alg: -257, type: 'public-key' },
      ],
      timeout: 120000,
      attestation: 'none',
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred', requireResidentKey: true },
      extensions: { credProps: true },
      hints: [],
    },
    code: 'k3v1b7n2x9q4m8w5r6t0y2u4i1o3p5a7s9d0f2g4h6j8',
  } satisfies PasskeyCeremonyWire,
  /** `POST /auth/passkey/initiate-passkey-authentication`. */
  passkeySignInStarted: {
    options_json: {
      rpId: 'THIS_VALUE_WILL_BE_REPLACED.example.com',
      challenge: 'B1rfRKg5ywD0Owb3Fg_KT9pHxoZyCD7JviPuTsfYOtU',
      allowCredentials: [],
      timeout: 120000,
      userVerification: 'preferred',
    },
    code: 'q8w2e4r6t8y0u2i4o6p8a0s2d4f6g8h0j2k4l6z8x0c2v',
  } satisfies PasskeyCeremonyWire,
  /** `GET /users/me/passkeys`: one used, one never. */
  passkeyList: {
    items: [
      {
        id: '7d0c2f4e-1b3a-4c5d-8e9f-0a1b2c3d4e5f',
        name: 'Passkey',
        created_at_millis: 1_795_456_980_000,
        last_used_at_millis: 1_795_460_000_000,
      },
      {
        id: '9e1d3a5b-2c4d-4e6f-9a0b-1c2d3e4f5a6b',
        name: 'Work laptop',
        created_at_millis: 1_795_457_000_000,
        last_used_at_millis: null,
      },
    ] satisfies PasskeyWire[],
    is_paginated: false,
  },
  /** `POST /users/me/mfa/totp` and `POST /auth/mfa/setup`. */
  totpEnrolment: {
    secret_base32: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    otpauth_uri:
      'otpauth://totp/Test%20project:alice%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Test%20project&algorithm=SHA1&digits=6&period=30',
  } satisfies TotpEnrolmentWire,
  /** `POST /users/me/mfa/totp/confirm`, `/users/me/mfa/recovery-codes`. */
  recoveryCodes: {
    recovery_codes: [
      'a7k2-9mqx-4tz8-p3wd',
      'h5n8-2cvb-7rj4-x9le',
      'q3w6-8ety-1uio-5pas',
      'd4fg-6hjk-2lzx-8cvb',
      'n9m1-3qwe-5rty-7uio',
      'p2as-4dfg-6hjk-8lzx',
      'c1vb-3nmq-5wer-7tyu',
      'i8op-0asd-2fgh-4jkl',
      'z6xc-8vbn-0mqw-2ert',
      'y4ui-6opa-8sdf-0ghj',
    ],
  } satisfies RecoveryCodesWire,
  refresh: {
    access_token:
      'eyJhbGciOiJFUzI1NiIsImtpZCI6IkRDbkJzb3BLSWNDVSJ9.eyJicmFuY2hJZCI6Im1haW4iLCJzdWIiOiI4YzM0YWMxNS04MmY4LTQ2MzMtYjEzYi03YzU5ZDkxNDBjNTQiLCJpc3MiOiJodHRwczovL2FjY2Vzcy10b2tlbi5qd3Qtc2lnbmF0dXJlLnN0YWNrLWF1dGguY29tIiwiaWF0IjoxNzk1NDU2OTc5LCJhdWQiOiIyMWQ4YmQ5OS03ODgzLTQxMzEtOWY3ZS04N2ZjZGQ1NTYwYzIiLCJleHAiOjE3OTU0NTc1Nzl9.8ai1IqJxCsBiJk4pjVKh6OebEfIEl1r-9BMk5hX-oGT16DB35YgM0c_qmrpML9fX-GAVHk8TSZHXE9zsAEy-0g',
    token_type: 'Bearer',
    expires_in: 600,
    scope: 'legacy',
  } satisfies RefreshResponseWire,
};

/** A copy of `body` without `key`. */
export function without(body: object, key: string): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...body };
  delete copy[key];
  return copy;
}

/** A copy of `body` with `key` set to `value`. */
export function withField(body: object, key: string, value: unknown): Record<string, unknown> {
  return { ...body, [key]: value };
}
