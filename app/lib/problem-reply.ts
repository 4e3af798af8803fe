// The API's refusal of a form, as the form's answer: one rule for every screen. A validation
// refusal (400, 409, 422) puts each field's messages on the form's field of that name (or the
// name `field` maps it to) and the rest on the form; the toast says the first form message, else
// the problem's title. Anything else (a 5xx, no answer) is a failure the screen words itself.
import type { Submission } from "@conform-to/react";
import { UNREACHABLE_PROBLEM, type ApiProblem } from "~/lib/api.server";

/** The statuses whose `errors` are about what the user typed. */
const VALIDATION = new Set([400, 409, 422]);

export interface ProblemReplyOptions {
  /** The screen's message when the API gave none (or never answered): "No pudimos guardar…". */
  fallback: string;
  /**
   * The form's name for an API field, or undefined to show its messages on the form. A set of
   * names keeps those as they are; by default every field keeps its name.
   */
  field?: ReadonlySet<string> | ((apiField: string) => string | undefined);
  /** Only the first message of each field. */
  firstOnly?: boolean;
  /** Fields whose value does not come back to the form (a file). */
  hideFields?: string[];
  /** A failure (not a validation refusal) also shows its message on the form; default true. */
  failureOnForm?: boolean;
}

export interface ProblemReply {
  reply: ReturnType<Submission<unknown>["reply"]>;
  /** The status to answer with: the validation status, 503 when the API never answered, 502 otherwise. */
  status: number;
  /** The toast's message. */
  message: string;
}

/**
 * `const { reply, status, message } = problemReply(submission, result, { fallback: SAVE_FAILED })`
 * for a `result` of `api.call(…)` that is not ok; then `dataWithError(context, { result: reply }, message, { status })`.
 */
export function problemReply(submission: Submission<unknown>, result: { status: number; problem: ApiProblem }, options: ProblemReplyOptions): ProblemReply {
  const { problem } = result;
  const hideFields = options.hideFields;
  if (!VALIDATION.has(result.status)) {
    const unreachable = problem.type === UNREACHABLE_PROBLEM;
    const message = (!unreachable && problem.title) || options.fallback;
    const reply = submission.reply(options.failureOnForm === false ? { hideFields } : { formErrors: [message], hideFields });
    return { reply, status: unreachable && result.status === 503 ? 503 : 502, message };
  }
  const fieldOf = typeof options.field === "function" ? options.field : options.field ? (f: string) => ((options.field as ReadonlySet<string>).has(f) ? f : undefined) : (f: string) => f;
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const [key, all] of Object.entries(problem.errors ?? {})) {
    const messages = options.firstOnly ? all.slice(0, 1) : all;
    if (messages.length === 0) continue;
    const name = fieldOf(key);
    if (name === undefined) formErrors.push(...messages);
    else fieldErrors[name] = [...(fieldErrors[name] ?? []), ...messages];
  }
  const message = formErrors[0] ?? (problem.title || options.fallback);
  const hasFields = Object.keys(fieldErrors).length > 0;
  return { reply: submission.reply({ fieldErrors, formErrors: hasFields ? formErrors : [message], hideFields }), status: result.status, message };
}
