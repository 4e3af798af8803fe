// The app side of push registration: the browser posts its record to the
// Notificaciones action (intent=push-register), which stores it through the API with the
// user's token. No toast: success or failure is only logged.
import { data } from "react-router";
import { pushRegistrationSchema } from "#contract/schemas/notification";
import { endpoints } from "#contract/endpoints";
import { createApiClient, UNREACHABLE_PROBLEM } from "~/lib/api.server";
import { type RequestContext } from "~/lib/context";

export { PUSH_INTENT } from "./shared";

export async function pushRegisterAction(
  context: RequestContext,
  idToken: string,
  form: FormData
) {
  let raw: unknown;
  try {
    raw = JSON.parse(String(form.get("record") ?? ""));
  } catch {
    return data({ ok: false as const, error: "invalid" }, { status: 400 });
  }
  const parsed = pushRegistrationSchema.safeParse(raw);
  if (!parsed.success)
    return data({ ok: false as const, error: "invalid" }, { status: 400 });
  const result = await createApiClient(context, idToken).call(endpoints.notificationPushRegistration, { body: parsed.data });
  if (!result.ok) {
    // Never reached the API (network failure or timeout): unavailable, not the API's refusal.
    if (result.problem.type === UNREACHABLE_PROBLEM && result.status === 503)
      return data({ ok: false as const, error: "unavailable" }, { status: 503 });
    return data({ ok: false as const, error: "api" }, { status: result.status >= 500 ? 502 : result.status });
  }
  return data({ ok: true as const, error: null });
}
