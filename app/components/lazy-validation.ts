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

/** When the validator is fetched: `begin` runs now or later (app/components/first-interaction.ts); answers a cleanup. */
export type LoadWhen = (begin: () => void) => () => void;

const atOnce: LoadWhen = (begin) => (begin(), () => undefined);

/**
 * `onValidate` for useForm, backed by a validator loaded lazily, e.g.
 * `useLazyValidation(() => import("~/lib/schemas/auth-validate").then((m) => m.validateLogin))`.
 * `load` runs once per mounted form, after hydration or when `when` says (e.g. onFirstInteraction).
 */
export function useLazyValidation<S extends AnySubmission>(load: () => Promise<FormValidator<S>>, when: LoadWhen = atOnce): (context: { formData: FormData }) => S {
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
    const cancel = when(() => void start());
    return () => {
      live = false;
      cancel();
    };
  }, [when]);
  return useCallback(({ formData }) => (validator.current ?? serverValidates<S>)(formData), []);
}

/** `useLazyValidation` for a plain zod schema: `useLazySchema(() => import("~/lib/schemas/auth").then((m) => m.loginSchema))`. */
export function useLazySchema<S extends z.ZodType>(load: () => Promise<S>, when: LoadWhen = atOnce) {
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
