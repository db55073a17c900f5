/**
 * The words in force for a component: `englishLabels` and the catalogue
 * wording, overridden by the provider's `labels`/`messages`, then by those of
 * the nearest page or form (`TextContext` carries the merged tables down).
 */
import { createContext, useContext, useMemo } from 'react';
import { englishLabels, type LatchkeyLabels, type LatchkeyTranslation } from '../labels.js';
import type { LatchkeyMessages } from '../messages.js';

export interface Text {
  labels: Readonly<LatchkeyLabels>;
  messages: LatchkeyMessages | undefined;
}

/** English, with no rewording: what components outside any provider use. */
const english: Text = { labels: englishLabels, messages: undefined };

export const TextContext = createContext<Text>(english);

/** The nearest text, with `overrides` applied (the same object while nothing changes). */
export function useText(overrides?: LatchkeyTranslation): Text {
  const outer = useContext(TextContext);
  const labels = overrides?.labels;
  const messages = overrides?.messages;
  return useMemo(() => mergeText(outer, { labels, messages }), [outer, labels, messages]);
}

/** The interface text in force. */
export function useLabels(): Readonly<LatchkeyLabels> {
  return useContext(TextContext).labels;
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
