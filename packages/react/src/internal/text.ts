/**
 * The words in force for a component: its features' English tables (each
 * feature declares its own, so a page ships only the words it shows) and the
 * shared words,
 * overridden by the provider's `labels`/`messages`, then by those of the
 * nearest page or form (`TextContext` carries the merged overrides down).
 */
import { createContext, useContext, useMemo } from 'react';
import type { LabelsOf, LatchkeyLabels, LatchkeyTranslation } from '../labels.js';
import type { LatchkeyMessages } from '../messages.js';
import { commonLabels } from './common-labels.js';

export interface Text {
  /** The `labels` overrides in force (over each feature's English table). */
  labels: Readonly<Partial<LatchkeyLabels>>;
  messages: LatchkeyMessages | undefined;
}

/** No rewording: what components outside any provider use. */
const english: Text = { labels: {}, messages: undefined };

export const TextContext = createContext<Text>(english);

/** The nearest text, with `overrides` applied (the same object while nothing changes). */
export function useText(overrides?: LatchkeyTranslation): Text {
  const outer = useContext(TextContext);
  const labels = overrides?.labels;
  const messages = overrides?.messages;
  return useMemo(() => mergeText(outer, { labels, messages }), [outer, labels, messages]);
}

type Words<A, B> = Readonly<LabelsOf<typeof commonLabels & A & B>>;

/**
 * The words of one or two features (their English tables) and the shared
 * ones (`commonLabels`), with the overrides of `text` applied.
 */
export function wordsOf<A extends object, B extends object = A>(text: Text, a: A, b?: B): Words<A, B> {
  return { ...commonLabels, ...a, ...b, ...text.labels } as Words<A, B>;
}

/** The interface text in force for the words of one or two features and the shared ones. */
export function useLabels<A extends object, B extends object = A>(a: A, b?: B): Words<A, B> {
  return wordsOf(useContext(TextContext), a, b);
}

/** The error wording in force (`undefined`: the catalogue's own). */
export function useMessages(): LatchkeyMessages | undefined {
  return useContext(TextContext).messages;
}

function mergeText(outer: Text, { labels, messages }: LatchkeyTranslation): Text {
  if (!labels && !messages) return outer;
  return {
    labels: labels ? { ...outer.labels, ...definedEntries(labels) } : outer.labels,
    messages: messages ? { ...outer.messages, ...definedEntries(messages) } : outer.messages,
  };
}

/** Drops keys set to `undefined`, so `{ signInSubmit: undefined }` keeps the outer text. */
function definedEntries<T extends object>(table: T): Partial<T> {
  return Object.fromEntries(Object.entries(table).filter(([, value]) => value !== undefined)) as Partial<T>;
}
