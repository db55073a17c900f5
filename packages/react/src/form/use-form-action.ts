'use client';
/**
 * `useFormAction`: the one state every form of the kit runs on. It runs one
 * SDK call at a time, remembers what is pending (for the submit button), the
 * outcome to announce (a success text, or an error for the alert region) and
 * the errors of single fields; the first field in error takes the focus.
 * Nothing is set after unmount.
 */
import { useEffect, useRef, useState } from 'react';
import { errorText } from '../internal/error-text.js';
import { useMessages } from '../internal/text.js';
import type { LatchkeyMessages } from '../messages.js';

/** What an action ended with: words to announce, as success or as error. */
export type Outcome = { kind: 'success' | 'error'; text: string } | null;

/** Errors of named fields; a field without an entry is fine. */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

export interface SubmitOptions<F extends string> {
  /** Checks made before calling the service; when any fails, nothing is sent. */
  check?: () => FieldErrors<F>;
  /** The call; a string it returns is announced as a success. */
  work: () => Promise<unknown>;
  /** The fields a refusal belongs to (none: it is a form-level error). */
  refusal?: (error: unknown) => FieldErrors<F> | null | undefined;
  /** Wording of a form-level error (`null`, or by default: the known-error wording in force). */
  describe?: ((error: unknown) => string | null) | undefined;
  /** The field that takes the focus after a form-level error (a busy button drops it). */
  focusOnError?: F;
  /** Stay pending after success: the SDK is taking the browser to another page. */
  stayPending?: boolean;
  /** What is pending, for a button that says it (e.g. `'sending'`); default `'busy'`. */
  as?: string;
}

export type FormAction<F extends string = never> = ReturnType<typeof useFormAction<F>>;

/**
 * The action state of a form whose fields, in focus order, are `fields`;
 * errors are worded with `messages` (default: the wording in force).
 */
export function useFormAction<F extends string = never>(fields: readonly F[] = [], messages?: LatchkeyMessages) {
  const inForce = useMessages();
  const [pending, setPending] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const elements = useRef<Partial<Record<F, HTMLElement | null>>>({});
  const inFlight = useRef(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const focus = (name: F | undefined) => name !== undefined && elements.current[name]?.focus();
  /** Shows `found` and focuses its first field; `false` when there is nothing wrong. */
  const showErrors = (found: FieldErrors<F>) => {
    const first = fields.find((name) => found[name]);
    if (first === undefined) return false;
    setErrors(found);
    focus(first);
    return true;
  };

  const submit = async (options: SubmitOptions<F>): Promise<boolean> => {
    if (inFlight.current) return false;
    if (options.check && showErrors(options.check())) {
      setOutcome(null);
      return false;
    }
    inFlight.current = true;
    setErrors({});
    setOutcome(null);
    setFailure(null);
    setPending(options.as ?? 'busy');
    try {
      const text = await options.work();
      if (!options.stayPending) inFlight.current = false;
      if (mounted.current) {
        setOutcome(typeof text === 'string' && text ? { kind: 'success', text } : null);
        if (!options.stayPending) setPending(null);
      }
      return true;
    } catch (error) {
      inFlight.current = false;
      if (!mounted.current) return false;
      setPending(null);
      setFailure(error);
      if (!showErrors(options.refusal?.(error) ?? {})) {
        setOutcome({ kind: 'error', text: options.describe?.(error) ?? errorText(error, messages ?? inForce) });
        focus(options.focusOnError);
      }
      return false;
    }
  };

  return {
    /** What is pending (`null`: nothing). */
    pending,
    busy: pending !== null,
    outcome,
    setOutcome,
    /** The error of the last failed call (`null` after a success or a new call). */
    failure,
    errors,
    setErrors,
    /** A ref for the control of field `name`, so that its error can focus it. */
    ref: (name: F) => (element: HTMLElement | null) => {
      elements.current[name] = element;
    },
    /** The value of `name` changed: its error goes. */
    edited: (name: F) => {
      if (errors[name]) setErrors(({ [name]: _, ...rest }) => rest as FieldErrors<F>);
    },
    focus,
    submit,
    /** `submit` with only the call and its wording (what the settings' buttons need). */
    run: (work: SubmitOptions<F>['work'], describe?: SubmitOptions<F>['describe']) => submit({ work, describe }),
  };
}
