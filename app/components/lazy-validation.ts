// Client-side form validation that does not weigh on the first load (docs/benchmarks.md §1).
// The zod schemas and @conform-to/zod (~26 KB gz) load with a dynamic import() right after
// hydration; until they arrive (and without JavaScript) the server validates with the same
// schema and the same messages, which is conform's "validation undefined" path.
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

/**
 * `onValidate` for useForm, backed by a validator loaded lazily, e.g.
 * `useLazyValidation(() => import("~/lib/schemas/auth-validate").then((m) => m.validateLogin))`.
 * `load` runs once per mounted form.
 */
export function useLazyValidation<S extends AnySubmission>(load: () => Promise<FormValidator<S>>): (context: { formData: FormData }) => S {
  const validator = useRef<FormValidator<S> | null>(null);
  const loader = useRef(load);
  useEffect(() => {
    let live = true;
    loader.current().then(
      (v) => {
        if (live) validator.current = v;
      },
      () => {
        // A failed chunk download leaves validation to the server.
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return useCallback(({ formData }) => (validator.current ?? serverValidates<S>)(formData), []);
}

/** `useLazyValidation` for a plain zod schema: `useLazySchema(() => import("~/lib/schemas/auth").then((m) => m.loginSchema))`. */
export function useLazySchema<S extends z.ZodType>(load: () => Promise<S>) {
  return useLazyValidation<Submission<z.input<S>, string[], z.output<S>>>(() =>
    Promise.all([import("@conform-to/zod/v4"), load()]).then(
      ([{ parseWithZod }, schema]) =>
        (formData: FormData) =>
          parseWithZod(formData, { schema }) as Submission<z.input<S>, string[], z.output<S>>,
    ),
  );
}
