/**
 * axe-core in jsdom. jsdom has no layout, so `color-contrast` cannot be
 * judged here and is the only rule turned off; contrast is checked in real
 * Chromium by `e2e/accessibility.test.ts`, in both themes.
 */
import axe from 'axe-core';

/**
 * axe's violations in the document, one line each, of any impact. The
 * document is first given what the host page owes (a language and a title),
 * so what remains is the components' own.
 */
export async function axeViolations(root: Element | Document = document): Promise<string[]> {
  document.documentElement.lang ||= 'en';
  document.title ||= 'Component test';
  // jsdom has no canvas; axe asks for one to read icon fonts, and a quiet `null` says "none" without noise.
  HTMLCanvasElement.prototype.getContext = () => null;
  const results = await axe.run(root, { rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}
