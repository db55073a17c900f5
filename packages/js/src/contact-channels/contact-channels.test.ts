/**
 * Contact channels through the SDK against the real service (in-process):
 * the signed-in user's addresses as app data (`'contactChannels'`), kept in
 * step with the user after every change; verification by the mailed code;
 * and server users' channels. Codes are read from the dev mailbox.
 */
import { describe, expect, it } from 'vitest';
import { codeFromMail, lastMailTo, mailsTo } from '../test-support/mail.js';
import { createTestServerApp } from '../test-support/server-apps.js';
import { createTestApp, newCredentials, useTestService } from '../test-support/service.js';

const service = useTestService();

const verificationPage = 'http://localhost:3000/handler/email-verification';

/** Channels without their methods: what the service stored. */
function dataOf(channels: object[]): Record<string, unknown>[] {
  return channels.map((channel) =>
    Object.fromEntries(Object.entries(channel).filter(([, value]) => typeof value !== 'function')),
  );
}

async function signedUp(options: { verificationCallbackUrl?: string } = {}) {
  const test = createTestApp(service(), { urls: { emailVerification: verificationPage } });
  const credentials = newCredentials();
  await test.app.signUpWithCredential({ ...credentials, noRedirect: true, ...options });
  const user = await test.app.getUser({ or: 'throw' });
  return { ...test, credentials, user };
}

describe('the signed-in user’s contact channels', { timeout: 30_000 }, () => {
  it('are app data: [] signed out, the primary address once signed up, [] again after sign-out', async () => {
    const { app } = createTestApp(service());
    await expect(app.load('contactChannels')).resolves.toEqual([]);
    const credentials = newCredentials();
    await app.signUpWithCredential({ ...credentials, noRedirect: true });
    const [primary, ...others] = await app.load('contactChannels');
    expect(others).toEqual([]);
    expect(primary).toMatchObject({ value: credentials.email, type: 'email', isPrimary: true, usedForAuth: true });
    await (await app.getUser({ or: 'throw' })).signOut({ noRedirect: true });
    expect(app.getSnapshot('contactChannels')).toEqual([]);
  });

  it('adds an address, verifies it by the mailed code, makes it primary, then removes the old one', async () => {
    const { app, user, credentials } = await signedUp();
    const heard: number[] = [];
    const stop = app.subscribe('contactChannels', () => heard.push(app.getSnapshot('contactChannels')?.length ?? -1));
    const second = newCredentials().email;

    const added = await user.createContactChannel({ value: second, type: 'email', usedForAuth: false });
    expect(added).toMatchObject({ value: second, isVerified: false, isPrimary: false, usedForAuth: false });
    expect(app.getSnapshot('contactChannels')?.map((channel) => channel.value)).toEqual(
      expect.arrayContaining([credentials.email, second]),
    );
    expect(heard.at(-1)).toBe(2);

    await added.sendVerificationEmail();
    const mail = await lastMailTo(service(), second);
    expect(mail.kind).toBe('email_verification');
    await app.verifyEmail(codeFromMail(mail));
    const verified = (await user.listContactChannels()).find((channel) => channel.value === second)!;
    expect(verified.isVerified).toBe(true);
    // Verified already: no failure, and no new mail.
    await verified.sendVerificationEmail();
    expect(await mailsTo(service(), second)).toHaveLength(1);

    await verified.update({ isPrimary: true, usedForAuth: true });
    expect(app.getSnapshot('user')).toMatchObject({ primaryEmail: second, primaryEmailVerified: true });
    const old = app.getSnapshot('contactChannels')!.find((channel) => channel.value === credentials.email)!;
    expect(old.isPrimary).toBe(false);
    await old.delete();
    expect(app.getSnapshot('contactChannels')?.map((channel) => channel.value)).toEqual([second]);
    stop();

    // The new primary signs in; the removed address does not.
    const other = createTestApp(service()).app;
    await other.signInWithCredential({ email: second, password: credentials.password, noRedirect: true });
    await expect(other.signInWithCredential({ ...credentials, noRedirect: true })).rejects.toMatchObject({
      code: 'EMAIL_PASSWORD_MISMATCH',
    });
  });

  it('verifies the primary e-mail: by the sign-up mail, or one sent again; then the user shows it', async () => {
    const { app, credentials } = await signedUp({ verificationCallbackUrl: verificationPage });
    expect((await lastMailTo(service(), credentials.email)).kind).toBe('email_verification');

    const user = await app.getUser({ or: 'throw' });
    expect(user.primaryEmailVerified).toBe(false);
    await user.sendVerificationEmail();
    expect(await mailsTo(service(), credentials.email)).toHaveLength(2);
    const code = codeFromMail(await lastMailTo(service(), credentials.email));
    await app.verifyEmail(code);
    expect(app.getSnapshot('user')?.primaryEmailVerified).toBe(true);
    expect((await app.load('contactChannels'))[0]?.isVerified).toBe(true);

    // Verified already: asking again is no failure and mails nothing; the used code is refused.
    await user.sendVerificationEmail();
    expect(await mailsTo(service(), credentials.email)).toHaveLength(2);
    await expect(app.verifyEmail(code)).rejects.toMatchObject({ code: 'VERIFICATION_CODE_ALREADY_USED' });
  });

  it('throws the refusals as KnownErrors and changes nothing', async () => {
    const { credentials: taken } = await signedUp();
    const { app, user } = await signedUp();
    const before = dataOf(await user.listContactChannels());
    await expect(
      user.createContactChannel({ value: taken.email, type: 'email', usedForAuth: true }),
    ).rejects.toMatchObject({ code: 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE' });
    await expect(
      (await user.listContactChannels())[0]!.sendVerificationEmail({ callbackUrl: 'https://evil.example/verify' }),
    ).rejects.toMatchObject({ code: 'REDIRECT_URL_NOT_WHITELISTED' });
    await expect(app.verifyEmail('0'.repeat(45))).rejects.toMatchObject({ code: 'VERIFICATION_CODE_NOT_FOUND' });
    expect(dataOf(await user.listContactChannels())).toEqual(before);
    expect(
      dataOf(
        await createTestServerApp(service())
          .app.getUser(user.id)
          .then((u) => u!.listContactChannels()),
      ),
    ).toEqual(before);
  });

  it('needs { callbackUrl } outside a browser when the verification page is relative', async () => {
    const { app, calls } = createTestApp(service());
    await app.signUpWithCredential({ ...newCredentials(), noRedirect: true });
    const user = await app.getUser({ or: 'throw' });
    const [channel] = await user.listContactChannels();
    const sent = calls().length;
    await expect(user.sendVerificationEmail()).rejects.toThrow('CurrentUser.sendVerificationEmail: outside a browser');
    await expect(channel!.sendVerificationEmail()).rejects.toThrow('ContactChannel.sendVerificationEmail: outside');
    expect(calls()).toHaveLength(sent);
  });
});

describe('a server user’s contact channels', { timeout: 30_000 }, () => {
  it('lists, creates verified, updates, mails verification and deletes with the server key', async () => {
    const { app } = createTestServerApp(service());
    const user = await app.createUser({ primaryEmail: newCredentials().email, primaryEmailAuthEnabled: true });
    const [primary] = await user.listContactChannels();
    expect(primary).toMatchObject({ userId: user.id, value: user.primaryEmail, isPrimary: true });

    const work = newCredentials().email;
    const added = await user.createContactChannel({ value: work, type: 'email', usedForAuth: true, isVerified: true });
    expect(added).toMatchObject({ userId: user.id, value: work, isVerified: true, usedForAuth: true });
    await added.update({ isVerified: false, isPrimary: true });
    expect(await app.getUser(user.id)).toMatchObject({ primaryEmail: work, primaryEmailVerified: false });

    await user.sendVerificationEmail({ callbackUrl: verificationPage });
    expect((await lastMailTo(service(), work)).kind).toBe('email_verification');
    await added.sendVerificationEmail({ callbackUrl: verificationPage });
    expect(await mailsTo(service(), work)).toHaveLength(2);
    await createTestApp(service()).app.verifyEmail(codeFromMail(await lastMailTo(service(), work)));
    expect((await app.getUser(user.id))?.primaryEmailVerified).toBe(true);

    await primary!.delete();
    expect((await user.listContactChannels()).map((channel) => channel.value)).toEqual([work]);
  });

  it('needs the callback: server code has no page to default to', async () => {
    const { app, calls } = createTestServerApp(service());
    const user = await app.createUser({ primaryEmail: newCredentials().email });
    const [primary] = await user.listContactChannels();
    const missing = {} as { callbackUrl: string };
    const sent = calls().length;
    await expect(user.sendVerificationEmail(missing)).rejects.toThrow('ServerUser.sendVerificationEmail: pass');
    await expect(primary!.sendVerificationEmail(missing)).rejects.toThrow('sendVerificationEmail: pass');
    expect(calls()).toHaveLength(sent);
  });
});
