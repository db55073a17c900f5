/**
 * Every piece of interface text comes from the labels table: render every
 * component in every state with a pseudo-translation (each label replaced by
 * a marker) and check that no other words are left but the user's own data,
 * and that every label was used.
 */
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { SignIn, SignUp } from './credential/credential-pages.js';
import { Handler } from './handler/handler.js';
import { englishLabels, type LatchkeyLabels } from './labels.js';
import { LatchkeyProvider } from './provider.js';
import { createFakeApp, fakeUser, visit } from './test-support/fake-app.js';
import { UserButton } from './user-button/user-button.js';

afterEach(cleanup);

const pseudo = Object.fromEntries(
  Object.entries(englishLabels).map(([key, value]) => [
    key,
    typeof value === 'function' ? (values: object) => `⟦${key}:${Object.values(values).join(',')}⟧` : `⟦${key}⟧`,
  ]),
) as unknown as LatchkeyLabels;

/** The words a person can see or hear in the document. */
function words(): string[] {
  const texts: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) texts.push(walker.currentNode.textContent ?? '');
  for (const element of document.body.querySelectorAll('*')) {
    for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
      const value = element.getAttribute(name);
      if (value) texts.push(value);
    }
  }
  return texts;
}

const seen = new Set<string>();
const leftovers: string[] = [];

function collect() {
  for (const text of words()) {
    for (const match of text.matchAll(/⟦([a-zA-Z]+)/g)) seen.add(match[1]!);
    const rest = text.replace(/⟦[^⟧]*⟧/g, '').replace(/Ada Lovelace|ada@example\.com|\bAL\b|Acme|Network down/g, '');
    if (/[A-Za-z]/.test(rest)) leftovers.push(rest.trim());
  }
}

/** Renders `ui`, collects its words at once, after pending work settles, and after each step. */
async function scene(ui: ReactNode, ...steps: (() => void)[]) {
  render(ui);
  collect();
  await act(async () => {});
  collect();
  for (const step of steps) {
    await act(async () => step());
    collect();
  }
  cleanup();
}

function page(node: ReactNode, options: Parameters<typeof createFakeApp>[0] = {}, projectName?: string) {
  return (
    <LatchkeyProvider app={createFakeApp(options).app} projectName={projectName} labels={pseudo}>
      {node}
    </LatchkeyProvider>
  );
}

function fillIn() {
  fireEvent.change(document.querySelector('[name="email"]')!, { target: { value: 'ada@example.com' } });
  fireEvent.change(document.querySelector('[name="password"]')!, { target: { value: 'long-enough' } });
}

const click = (selector: string) => () => void fireEvent.click(document.querySelector(selector)!);

describe('labels', () => {
  it('hold all the interface text of every component in every state, and every entry is used', async () => {
    visit('/handler/sign-in');
    await scene(page(<SignIn />, {}, 'Acme'), click('.lk-password-toggle'), fillIn, click('[type="submit"]'));
    await scene(page(<SignUp />, {}, 'Acme'), fillIn, click('[type="submit"]'));
    for (const projectName of ['Acme', null]) {
      await scene(page(<SignIn />, { projectName })); // loading, then named or unnamed by the service
      await scene(page(<SignUp />, { projectName }));
    }
    visit('/handler/nope');
    await scene(page(<Handler />));

    const user = fakeUser();
    user.signOut.mockRejectedValueOnce(new Error('Network down')).mockReturnValue(new Promise(() => {}));
    visit('/handler/sign-out');
    await scene(page(<Handler />, { user }), click('.lk-button-primary'));
    await scene(page(<UserButton showName />, { user }), click('.lk-user-trigger'), click('[role="menuitem"]'));

    expect(leftovers).toEqual([]);
    expect(Object.keys(englishLabels).filter((key) => !seen.has(key))).toEqual([]);
  });
});
