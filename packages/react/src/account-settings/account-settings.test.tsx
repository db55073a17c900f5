// @vitest-environment node
/**
 * AccountSettings on the real SDK and an in-process service: the section
 * navigation (pointer, keyboard, URL fragment), each section's actions and
 * the refusals a person sees, axe in every section, and the redirect of a
 * signed-out visitor.
 */
import '../test-support/dom-in-node.js';
import { ClientApp } from '@latchkey/js';
import type { TestService } from '@latchkey/server/testing';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LatchkeyProvider } from '../provider.js';
import { axeViolations } from '../test-support/axe.js';
import { visit } from '../test-support/page.js';
import { realApp, startRealService, uniqueEmail } from '../test-support/real-app.js';
import { AccountSettings, type AccountSettingsProps } from './account-settings.js';

let service: TestService;
beforeAll(async () => {
  service = await startRealService();
}, 60_000);
afterAll(async () => {
  await service?.close();
});
afterEach(cleanup);

const password = 'correct-horse-battery';

/** A new user signed in on a new app. */
async function signedIn(email = uniqueEmail('ada')) {
  const real = realApp(service);
  await real.app.signUpWithCredential({ email, password, noRedirect: true });
  return { ...real, email };
}

function show(app: ClientApp, props: AccountSettingsProps = {}, path = '/handler/account-settings') {
  visit(path);
  render(
    <LatchkeyProvider app={app}>
      <AccountSettings {...props} />
    </LatchkeyProvider>,
  );
}

const sectionHeading = (name: string) => screen.findByRole('heading', { level: 2, name }, { timeout: 5_000 });
const statusText = () =>
  screen
    .getAllByRole('status')
    .map((region) => region.textContent)
    .join(' ');
const alertText = () =>
  screen
    .getAllByRole('alert')
    .map((region) => region.textContent)
    .join(' ');

/** The mails the service sent to `to`, newest first (its dev mailbox, as a person reads it). */
async function mailsTo(to: string): Promise<{ text: string; kind: string }[]> {
  const response = await service.fetch(`/mailbox/api/messages?to=${encodeURIComponent(to)}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: { text: string; kind: string }[] }).items;
}

const serverHeaders = () => ({
  'content-type': 'application/json',
  'x-stack-project-id': service.projectId,
  'x-stack-access-type': 'server',
  'x-stack-secret-server-key': service.keys.secretServerKey,
});

/** The addresses of the signed-in user of `app`, as the service holds them. */
async function storedChannels(app: ClientApp): Promise<{ value: string; used_for_auth: boolean }[]> {
  const { id } = await app.getUser({ or: 'throw' });
  const response = await service.fetch(`/api/v1/contact-channels?user_id=${id}`, { headers: serverHeaders() });
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: { value: string; used_for_auth: boolean }[] }).items;
}

function codeIn(text: string): string {
  const match = /[?&]code=([0-9a-z]{45})\b/i.exec(text);
  if (!match?.[1]) throw new Error('no code in the mail');
  return match[1];
}

function rowOf(email: string): HTMLElement {
  const row = screen.getByText(email, { selector: '.lk-email-address' }).closest('li');
  if (!row) throw new Error(`no row for ${email}`);
  return row;
}

describe('AccountSettings: layout and navigation', () => {
  it('shows Profile first, switches sections by keyboard moving the focus to the heading, and is axe-clean in each', async () => {
    const { app, email } = await signedIn();
    const keyboard = userEvent.setup();
    show(app);
    await sectionHeading('Profile');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Account settings');
    const nav = screen.getByRole('navigation', { name: 'Account settings sections' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Profile',
      'E-mails',
      'Password',
      'Two-step sign-in',
      'Sessions',
      'Security activity',
      'Teams',
    ]);
    expect(links[0]?.getAttribute('aria-current')).toBe('page');
    expect(document.querySelector('.lk-root')).not.toBeNull();
    expect(await axeViolations()).toEqual([]);

    links[1]?.focus();
    await keyboard.keyboard('{Enter}');
    const emails = await sectionHeading('E-mails');
    expect(document.activeElement).toBe(emails);
    expect(window.location.hash).toBe('#emails');
    expect(links[1]?.getAttribute('aria-current')).toBe('page');
    expect(links[0]?.getAttribute('aria-current')).toBeNull();
    await screen.findByText(email, { selector: '.lk-email-address' }, { timeout: 5_000 });
    expect(await axeViolations()).toEqual([]);

    await keyboard.click(links[2]!);
    expect(document.activeElement).toBe(await sectionHeading('Password'));
    expect(await axeViolations()).toEqual([]);
  }, 30_000);

  it('opens the section the URL fragment names, follows later fragments, and takes a controlled section', async () => {
    const { app } = await signedIn();
    show(app, {}, '/handler/account-settings#password');
    await sectionHeading('Password');
    act(() => {
      window.location.hash = '#emails';
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    await sectionHeading('E-mails');
    cleanup();

    const chosen: string[] = [];
    show(app, { section: 'emails', onSectionChange: (id) => chosen.push(id) });
    await sectionHeading('E-mails');
    await userEvent.click(screen.getByRole('link', { name: 'Password' }));
    expect(chosen).toEqual(['password']);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('E-mails'); // the parent decides
  }, 30_000);

  it('sends a signed-out visitor to sign-in, to come back here', async () => {
    const { app, navigations } = realApp(service);
    show(app);
    await waitFor(() => expect(navigations).toHaveLength(1), { timeout: 5_000 });
    const target = new URL(navigations[0]!, 'http://localhost:3000');
    expect(target.pathname).toBe('/handler/sign-in');
    expect(target.searchParams.get('after_auth_return_to')).toBe('/handler/account-settings');
    expect(screen.queryByRole('navigation')).toBeNull();
  }, 30_000);

  it('takes sections of the app, forwards props and the ref, and its words from labels', async () => {
    const { app } = await signedIn();
    const ref = createRef<HTMLDivElement>();
    visit('/handler/account-settings#billing');
    render(
      <LatchkeyProvider app={app}>
        <AccountSettings
          ref={ref}
          data-testid="settings"
          labels={{ accountSettingsTitle: 'Your account' }}
          sections={[{ id: 'billing', title: 'Billing', content: () => <p>Plan: free</p> }]}
        />
      </LatchkeyProvider>,
    );
    expect(await screen.findByText('Plan: free', undefined, { timeout: 5_000 })).toBeTruthy();
    expect(ref.current).toBe(screen.getByTestId('settings'));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Your account');
  }, 30_000);
});

describe('AccountSettings: Profile', () => {
  it('saves the display name with Enter, and Escape cancels an edit', async () => {
    const { app } = await signedIn();
    const keyboard = userEvent.setup();
    show(app);
    await sectionHeading('Profile');
    const name = screen.getByRole('textbox', { name: 'Name' });
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    await keyboard.click(name);
    await keyboard.keyboard('Ada Lovelace{Enter}');
    await waitFor(() => expect(statusText()).toContain('Saved.'), { timeout: 5_000 });
    expect((await app.getUser({ or: 'throw' })).displayName).toBe('Ada Lovelace');

    await keyboard.keyboard(' Byron');
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
    await keyboard.keyboard('{Escape}');
    expect((name as HTMLInputElement).value).toBe('Ada Lovelace');
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  }, 30_000);

  it('uses an image address, refuses what is not one, and removes the picture', async () => {
    const { app } = await signedIn();
    const keyboard = userEvent.setup();
    show(app);
    await sectionHeading('Profile');
    const address = screen.getByRole('textbox', { name: 'Image address' });
    await keyboard.type(address, 'javascript:alert(1){Enter}');
    expect(address.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/web address starting with https/)).toBeTruthy();
    expect((await app.getUser({ or: 'throw' })).profileImageUrl).toBeNull();

    await keyboard.clear(address);
    await keyboard.type(address, 'https://images.example/ada.png{Enter}');
    await waitFor(() => expect(statusText()).toContain('Profile picture updated.'), { timeout: 5_000 });
    expect((await app.getUser({ or: 'throw' })).profileImageUrl).toBe('https://images.example/ada.png');
    expect(document.querySelector('img.lk-avatar')?.getAttribute('src')).toBe('https://images.example/ada.png');

    await keyboard.click(screen.getByRole('button', { name: 'Remove picture' }));
    await waitFor(() => expect(statusText()).toContain('Profile picture removed.'), { timeout: 5_000 });
    expect((await app.getUser({ or: 'throw' })).profileImageUrl).toBeNull();
    expect(document.querySelector('img.lk-avatar')).toBeNull();
  }, 30_000);

  it('refuses an uploaded file that is not an image, changing nothing', async () => {
    const { app } = await signedIn();
    show(app);
    await sectionHeading('Profile');
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await userEvent.upload(input, new File(['hello'], 'notes.txt', { type: 'text/plain' }), { applyAccept: false });
    await waitFor(() => expect(alertText()).toContain('not an image we can read'), { timeout: 5_000 });
    expect((await app.getUser({ or: 'throw' })).profileImageUrl).toBeNull();
  }, 30_000);
});

describe('AccountSettings: E-mails', () => {
  it('adds an address, verifies it from the mail, makes it primary and signs in with it, then removes the old one', async () => {
    const { app, email } = await signedIn();
    const other = uniqueEmail('work');
    const keyboard = userEvent.setup();
    show(app, { defaultSection: 'emails' });
    await screen.findByText(email, { selector: '.lk-email-address' }, { timeout: 5_000 });
    const first = within(rowOf(email));
    expect(first.getByText('Primary')).toBeTruthy();
    expect(first.getByText('Used for sign-in')).toBeTruthy();

    const field = screen.getByRole('textbox', { name: 'New e-mail address' });
    await keyboard.type(field, 'not-an-address{Enter}');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field);
    await keyboard.clear(field);
    await keyboard.type(field, `${other}{Enter}`);
    await waitFor(() => expect(statusText()).toContain(`${other} was added.`), { timeout: 5_000 });
    expect((field as HTMLInputElement).value).toBe('');
    const added = () => within(rowOf(other));
    expect(added().getByText('Unverified')).toBeTruthy();
    expect(added().queryByText('Primary')).toBeNull();
    // An unverified address cannot be made primary (the service refuses it): the menu does not offer it.
    await keyboard.click(added().getByRole('button', { name: `Options for ${other}` }));
    expect(screen.queryByRole('menuitem', { name: 'Make primary' })).toBeNull();
    await keyboard.keyboard('{Escape}');

    await keyboard.click(added().getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(statusText()).toContain(`We sent a verification link to ${other}`), { timeout: 5_000 });
    const [mail] = await mailsTo(other);
    await act(() => app.verifyEmail(codeIn(mail!.text)));
    await waitFor(() => expect(added().getByText('Verified')).toBeTruthy(), { timeout: 5_000 });

    // Make primary, by keyboard through the row's menu.
    added()
      .getByRole('button', { name: `Options for ${other}` })
      .focus();
    await keyboard.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Make primary');
    await keyboard.keyboard('{Enter}');
    await waitFor(() => expect(statusText()).toContain(`${other} is now your primary e-mail.`), { timeout: 5_000 });
    expect(added().getByText('Primary')).toBeTruthy();
    expect(within(rowOf(email)).queryByText('Primary')).toBeNull();
    expect((await app.getUser({ or: 'throw' })).primaryEmail).toBe(other);

    await keyboard.click(added().getByRole('button', { name: `Options for ${other}` }));
    await keyboard.click(screen.getByRole('menuitem', { name: 'Use for sign-in' }));
    await waitFor(() => expect(statusText()).toContain(`You can now sign in with ${other}.`), { timeout: 5_000 });
    expect(added().getByText('Used for sign-in')).toBeTruthy();
    const fresh = realApp(service).app;
    await expect(fresh.signInWithCredential({ email: other, password, noRedirect: true })).resolves.toBeTruthy();

    // Remove the first address: a confirmation first, Cancel focused.
    await keyboard.click(within(rowOf(email)).getByRole('button', { name: `Options for ${email}` }));
    await keyboard.click(screen.getByRole('menuitem', { name: 'Remove' }));
    expect(within(rowOf(email)).getByText(`Remove ${email}?`)).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Cancel');
    expect(await axeViolations()).toEqual([]);
    await keyboard.click(within(rowOf(email)).getByRole('button', { name: 'Remove address' }));
    await waitFor(() => expect(screen.queryByText(email, { selector: '.lk-email-address' })).toBeNull(), {
      timeout: 5_000,
    });
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'E-mails' }));
    expect((await storedChannels(app)).map((channel) => channel.value)).toEqual([other]);
  }, 60_000);

  it("shows on the row why an address cannot sign in: it signs in someone else's account", async () => {
    const taken = uniqueEmail('taken');
    await signedIn(taken);
    const { app } = await signedIn();
    const keyboard = userEvent.setup();
    show(app, { defaultSection: 'emails' });
    const field = await screen.findByRole('textbox', { name: 'New e-mail address' }, { timeout: 5_000 });
    await keyboard.type(field, `${taken}{Enter}`);
    await waitFor(() => expect(rowOf(taken)).toBeTruthy(), { timeout: 5_000 });

    await keyboard.click(within(rowOf(taken)).getByRole('button', { name: `Options for ${taken}` }));
    await keyboard.click(screen.getByRole('menuitem', { name: 'Use for sign-in' }));
    await waitFor(() => expect(within(rowOf(taken)).getByRole('alert').textContent).not.toBe(''), { timeout: 5_000 });
    expect(within(rowOf(taken)).queryByText('Used for sign-in')).toBeNull();
    const channel = (await storedChannels(app)).find((entry) => entry.value === taken);
    expect(channel?.used_for_auth).toBe(false);
  }, 30_000);

  it('keeps the address when the removal is cancelled', async () => {
    const { app, email } = await signedIn();
    const keyboard = userEvent.setup();
    show(app, { defaultSection: 'emails' });
    await screen.findByText(email, { selector: '.lk-email-address' }, { timeout: 5_000 });
    const options = within(rowOf(email)).getByRole('button', { name: `Options for ${email}` });
    options.focus();
    await keyboard.keyboard('{End}{ArrowUp}');
    await keyboard.keyboard('{Escape}');
    expect(document.activeElement).toBe(options);
    await keyboard.click(options);
    await keyboard.click(screen.getByRole('menuitem', { name: 'Remove' }));
    await keyboard.keyboard('{Enter}'); // on Cancel
    expect(screen.queryByText(`Remove ${email}?`)).toBeNull();
    expect(document.activeElement).toBe(options);
    expect((await storedChannels(app)).map((channel) => channel.value)).toEqual([email]);
  }, 30_000);
});

describe('AccountSettings: Password', () => {
  it('checks the fields, shows a wrong current password on its field, then changes it', async () => {
    const { app, email } = await signedIn();
    const keyboard = userEvent.setup();
    show(app, { defaultSection: 'password' });
    await sectionHeading('Password');
    const current = screen.getByLabelText('Current password');
    const next = screen.getByLabelText('New password');
    const confirm = screen.getByLabelText('Confirm new password');

    await keyboard.click(screen.getByRole('button', { name: 'Change password' }));
    expect(current.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(current);

    await keyboard.type(current, 'not-my-password');
    await keyboard.type(next, 'new-horse-battery-2');
    await keyboard.type(confirm, 'new-horse-battery-3{Enter}');
    expect(confirm.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('The two passwords are not the same.')).toBeTruthy();

    await keyboard.clear(confirm);
    await keyboard.type(confirm, 'new-horse-battery-2{Enter}');
    await waitFor(() => expect(current.getAttribute('aria-invalid')).toBe('true'), { timeout: 5_000 });
    expect(screen.getByText('Your current password is not correct.')).toBeTruthy();
    expect(document.activeElement).toBe(current);

    await keyboard.clear(current);
    await keyboard.type(current, `${password}{Enter}`);
    await waitFor(() => expect(statusText()).toContain('Your password was changed.'), { timeout: 5_000 });
    expect((current as HTMLInputElement).value).toBe('');
    const fresh = realApp(service).app;
    await expect(
      fresh.signInWithCredential({ email, password: 'new-horse-battery-2', noRedirect: true }),
    ).resolves.toBeTruthy();
  }, 30_000);

  it('lets a user without a password set one, then offers to change it', async () => {
    const email = uniqueEmail('nopass');
    const server = serverHeaders();
    const created = await service.fetch('/api/v1/users', {
      method: 'POST',
      headers: server,
      body: JSON.stringify({ primary_email: email, primary_email_auth_enabled: true }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const session = await service.fetch('/api/v1/auth/sessions', {
      method: 'POST',
      headers: server,
      body: JSON.stringify({ user_id: id, expires_in_millis: 3_600_000 }),
    });
    const tokens = (await session.json()) as { access_token: string; refresh_token: string };
    const app = new ClientApp({
      projectId: service.projectId,
      publishableClientKey: service.keys.publishableClientKey,
      baseUrl: service.url,
      tokenStore: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token },
      fetch: service.fetch,
      navigate: () => {},
    });

    const keyboard = userEvent.setup();
    show(app, { defaultSection: 'password' });
    await screen.findByRole('heading', { level: 3, name: 'Set a password' }, { timeout: 5_000 });
    expect(screen.queryByLabelText('Current password')).toBeNull();
    await keyboard.type(screen.getByLabelText('New password'), 'short');
    await keyboard.type(screen.getByLabelText('Confirm new password'), 'short{Enter}');
    expect(screen.getByLabelText('New password').getAttribute('aria-invalid')).toBe('true');

    await keyboard.clear(screen.getByLabelText('New password'));
    await keyboard.clear(screen.getByLabelText('Confirm new password'));
    await keyboard.type(screen.getByLabelText('New password'), 'first-horse-battery');
    await keyboard.type(screen.getByLabelText('Confirm new password'), 'first-horse-battery{Enter}');
    await screen.findByRole('heading', { level: 3, name: 'Change password' }, { timeout: 5_000 });
    expect(statusText()).toContain('Your password was set.');
    expect(screen.getByLabelText('Current password')).toBeTruthy();
    await expect(
      realApp(service).app.signInWithCredential({ email, password: 'first-horse-battery', noRedirect: true }),
    ).resolves.toBeTruthy();
  }, 30_000);
});
