/**
 * The words in force for a component: its feature's English table (each
 * feature declares its own, so a page ships only the words it shows),
 * overridden by the provider's `labels`/`messages`, then by those of the
 * nearest page or form (`TextContext` carries the merged overrides down).
 */
import { createContext, useContext, useMemo } from 'react';
import type { LabelsOf, LatchkeyLabels, LatchkeyTranslation } from '../labels.js';
import type { LatchkeyMessages } from '../messages.js';

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

/** The words of `table` (a feature's English labels) with the overrides of `text` applied. */
export function wordsOf<T extends object>(text: Text, table: T): Readonly<LabelsOf<T>> {
  return { ...table, ...text.labels } as LabelsOf<T>;
}

/** The interface text in force for the words of `table` (a feature's English labels). */
export function useLabels<T extends object>(table: T): Readonly<LabelsOf<T>> {
  const text = useContext(TextContext);
  return useMemo(() => wordsOf(text, table), [text, table]);
}

/** The error wording in force (`undefined`: the catalogue's own). */
export function useMessages(): LatchkeyMessages | undefined {
  return useContext(TextContext).messages;
}

export function mergeText(outer: Text, { labels, messages }: LatchkeyTranslation): Text {
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
