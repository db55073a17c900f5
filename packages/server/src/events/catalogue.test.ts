/**
 * Derived from the event catalogue: every row is recorded somewhere (no dead
 * entries), the audit log's wire names are exactly the audited rows, and the
 * events still written by hand (`audit`, `auditWrite`: code not yet made of
 * actions) are a list that only shrinks. That each event is recorded once,
 * in the transaction of its change, is proved for the recorder in
 * `recorder.test.ts` and route by route in `route-actions.test.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditEventTypes as protocolAuditEventTypes } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { auditEventTypes, eventCatalogue, eventTypes } from './catalogue.js';

const sourceRoot = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The text of each call of `name(` in `text`, up to its closing parenthesis. */
function callsOf(text: string, name: string): string[] {
  const calls: string[] = [];
  const pattern = new RegExp(`\\b${name}\\(`, 'g');
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    let depth = 0;
    let end = match.index + match[0].length - 1;
    for (; end < text.length; end++) {
      if (text[end] === '(') depth++;
      else if (text[end] === ')' && --depth === 0) break;
    }
    calls.push(text.slice(match.index, end + 1));
  }
  return calls;
}

/**
 * The event types named in calls of `names` across the service's source;
 * with `wholeFile`, anywhere in a file that makes such a call (the hand-written
 * sites pick a type before the call).
 */
function typesNamedBy(names: string[], { wholeFile = false } = {}): Set<string> {
  const known = new Set<string>(eventTypes);
  const found = new Set<string>();
  for (const file of sourceFiles(sourceRoot)) {
    if (file.endsWith(join('events', 'catalogue.ts'))) continue;
    // Code only: examples in doc comments record nothing.
    const text = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\*|\/\/|\/\*\*)/.test(line))
      .join('\n');
    const calls = names.flatMap((name) => callsOf(text, name));
    for (const part of wholeFile && calls.length > 0 ? [text] : calls) {
      for (const [, literal] of part.matchAll(/'([a-z_.]+)'/g)) if (known.has(literal!)) found.add(literal!);
    }
  }
  return found;
}

/**
 * Events that only code not yet made of actions writes, by hand. A feature
 * converted to actions takes its events off this list. Left: a replayed
 * refresh token, and the OAuth callback's account rules.
 */
const writtenByHand: string[] = [];

describe('the event catalogue', () => {
  const recorded = typesNamedBy(['record', 'recordWrites']);
  const byHand = typesNamedBy(['audit', 'auditWrite'], { wholeFile: true });

  it('has no dead entries: every event is recorded by some action or written by hand', () => {
    expect(eventTypes.filter((type) => !recorded.has(type) && !byHand.has(type))).toEqual([]);
  });

  it('lists exactly the events still written by hand', () => {
    const onlyByHand = eventTypes.filter((type) => byHand.has(type) && !recorded.has(type));
    expect(onlyByHand.sort()).toEqual([...writtenByHand].sort());
  });

  it('gives the audit log exactly its audited rows, each with a data shape and known caches', () => {
    expect(auditEventTypes).toEqual(eventTypes.filter((type) => eventCatalogue[type].audited));
    for (const type of eventTypes) {
      const spec = eventCatalogue[type];
      expect(spec.invalidates.every((cache) => ['project', 'user', 'team'].includes(cache))).toBe(true);
      expect(spec.data.safeParse({ unexpected: 'fact' }).success, `${type} refuses facts it does not name`).toBe(false);
    }
  });

  it('keeps the audit log wire names it always had', () => {
    expect(auditEventTypes).toEqual(
      expect.arrayContaining([
        'sign_up',
        'sign_in.failed',
        'api_key.revoked',
        'project.deleted',
        'email_template.reset',
        'mfa.enabled',
      ]),
    );
    expect(auditEventTypes).toHaveLength(54);
  });

  it("names the audit log's types as the protocol does, in the same order", () => {
    expect(auditEventTypes).toEqual([...protocolAuditEventTypes]);
  });
});
