// Client-side form validation that does not weigh on the first load (docs/benchmarks.md §1).
// The zod schemas and @conform-to/zod (~26 KB gz) load with a dynamic import() right after
// hydration, or, for the screens a visitor often only looks at (the sign-in forms), at the first
// sign of use: a focus, a key or a touch anywhere on the page. Until they arrive (and without
// JavaScript) the server validates with the same schema and the same messages, which is
// conform's "validation undefined" path.
import { useCallback, useEffect, useRef } from "react";
import { parse, type Submission } from "@conform-to/react";
import type { z } from "zod";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySubmission = Submission<any, any, any>;
export type FormValidator<S extends AnySubmission> = (formData: FormData) => S;

/** Defers to the server: conform submits the form and shows the errors the action replies with. */
function serverValidates<S extends AnySubmission>(formData: FormData): S {
  return parse(formData, { resolve: () => ({ error: null }) }) as S;
}

/** When the validator is fetched: right after hydration, or at the first interaction with the page. */
export type LoadWhen = "mount" | "interaction";

/** What counts as starting to use a form: every way to reach a field (mouse, touch, keyboard, autofill's focus). */
const INTERACTION_EVENTS = ["focusin", "pointerdown", "keydown", "touchstart"] as const;

/** Runs `start` at the first interaction with the document (or at once if a field already has the focus); answers the cleanup. */
function onFirstInteraction(start: () => void): () => void {
  const active = document.activeElement;
  if (active && active !== document.body && active.closest("form")) {
    start();
    return () => undefined;
  }
  const fire = () => {
    stop();
    start();
  };
  const stop = () => INTERACTION_EVENTS.forEach((type) => document.removeEventListener(type, fire, true));
  INTERACTION_EVENTS.forEach((type) => document.addEventListener(type, fire, { capture: true, passive: true }));
  return stop;
}

/**
 * `onValidate` for useForm, backed by a validator loaded lazily, e.g.
 * `useLazyValidation(() => import("~/lib/schemas/auth-validate").then((m) => m.validateLogin))`.
 * `load` runs once per mounted form, after hydration or (`when: "interaction"`) once the page is
 * first used.
 */
export function useLazyValidation<S extends AnySubmission>(load: () => Promise<FormValidator<S>>, when: LoadWhen = "mount"): (context: { formData: FormData }) => S {
  const validator = useRef<FormValidator<S> | null>(null);
  const loader = useRef(load);
  useEffect(() => {
    let live = true;
    const start = () =>
      loader.current().then(
        (v) => {
          if (live) validator.current = v;
        },
        () => {
          // A failed chunk download leaves validation to the server.
        },
      );
    const cancel = when === "interaction" ? onFirstInteraction(() => void start()) : (void start(), () => undefined);
    return () => {
      live = false;
      cancel();
    };
  }, [when]);
  return useCallback(({ formData }) => (validator.current ?? serverValidates<S>)(formData), []);
}

/** `useLazyValidation` for a plain zod schema: `useLazySchema(() => import("~/lib/schemas/auth").then((m) => m.loginSchema))`. */
export function useLazySchema<S extends z.ZodType>(load: () => Promise<S>, when: LoadWhen = "mount") {
  return useLazyValidation<Submission<z.input<S>, string[], z.output<S>>>(
    () =>
      Promise.all([import("@conform-to/zod/v4"), load()]).then(
        ([{ parseWithZod }, schema]) =>
          (formData: FormData) =>
            parseWithZod(formData, { schema }) as Submission<z.input<S>, string[], z.output<S>>,
      ),
    when,
  );
}
