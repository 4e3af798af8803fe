// Server side of Equipo: reading the members and the pending invitations, the invitation form,
// and one handler for the row buttons (role, transfer, remove, resend, revoke).
import { data } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import { UUID_RE } from "#contract/schemas/constants";
import { invitationInputSchema } from "#contract/schemas/team";
import { endpoints } from "#contract/endpoints";
import { ASSIGNABLE_ROLES, ROLE_LABELS, type Role } from "#domain/permissions";
import { createApiClient, UNREACHABLE_PROBLEM, type ApiClient, type ApiResult } from "~/lib/api.server";
import { problemReply } from "~/lib/problem-reply";
import { dataWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { RequestContext } from "~/lib/context";
import type { SessionUser } from "~/lib/session.server";

const UNAVAILABLE = "No pudimos cargar el equipo. Probá de nuevo en unos minutos.";
const FAILED = "No pudimos guardar el cambio. Probá de nuevo en unos minutos.";
const NOT_UNDERSTOOD = "No entendimos qué querías hacer. Probá de nuevo.";

export type Intent = "invite" | "role" | "transfer" | "remove" | "resend" | "revoke";

/** The members and the pending invitations; what could not be read shows empty, with the page's error. */
export async function loadTeam(context: RequestContext, user: SessionUser) {
  const api = createApiClient(context, user.idToken);
  const [members, invitations] = await Promise.all([api.call(endpoints.memberList), api.call(endpoints.invitationList)]);
  return {
    members: members.ok ? members.data.items : [],
    invitations: invitations.ok ? invitations.data.items : [],
    error: members.ok && invitations.ok ? null : UNAVAILABLE,
  };
}

/** The invitation form: refusals of the e-mail or the role on their fields, anything else on the form. */
export async function invite(context: RequestContext, api: ApiClient, form: FormData) {
  const intent = "invite" as const;
  const submission = parseWithZod(form, { schema: invitationInputSchema });
  if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
  const result = await api.call(endpoints.invitationCreate, { body: submission.value });
  if (result.ok) return redirectWithSuccess("/team", `Enviamos la invitación a ${submission.value.email}.`);
  const { reply, message } = problemReply(submission, result, { fallback: FAILED, field: new Set(["email", "role"]) });
  const status = result.problem.type === UNREACHABLE_PROBLEM ? 503 : result.status;
  return dataWithError(context, { intent, result: reply }, message, { status });
}

/** A row's button: the call it makes and what the toast says when it worked. */
function rowChange(api: ApiClient, intent: Intent, id: string, form: FormData): { call: () => Promise<ApiResult<unknown>>; done: string } | { refused: string } {
  const who = String(form.get("email") ?? "").slice(0, 254);
  switch (intent) {
    case "role": {
      const role = String(form.get("role") ?? "");
      if (!(ASSIGNABLE_ROLES as readonly string[]).includes(role)) return { refused: "Elegí un rol de la lista." };
      return {
        call: () => api.call(endpoints.memberUpdate, { params: { id }, body: { role: role as Role } }),
        done: `${who || "El miembro"} ahora tiene el rol ${ROLE_LABELS[role as Role]}.`,
      };
    }
    case "transfer":
      return {
        call: () => api.call(endpoints.memberUpdate, { params: { id }, body: { role: "OWNER" } }),
        done: `Transferimos la propiedad de la empresa a ${who || "otro miembro"}. Ahora sos administrador.`,
      };
    case "remove":
      return { call: () => api.call(endpoints.memberDelete, { params: { id } }), done: `Quitamos a ${who || "el miembro"} de la empresa.` };
    case "resend":
      return { call: () => api.call(endpoints.invitationResend, { params: { id } }), done: `Reenviamos la invitación a ${who || "la persona invitada"}.` };
    case "revoke":
      return { call: () => api.call(endpoints.invitationDelete, { params: { id } }), done: `Revocamos la invitación a ${who || "la persona invitada"}.` };
    default:
      return { refused: NOT_UNDERSTOOD };
  }
}

/** Role change, ownership transfer, removal, resend or revoke: a toast either way. */
export async function changeRow(context: RequestContext, api: ApiClient, intent: Intent, form: FormData) {
  const id = String(form.get("id") ?? "");
  if (!UUID_RE.test(id)) return dataWithError(context, { intent, result: null }, NOT_UNDERSTOOD, { status: 400 });
  const change = rowChange(api, intent, id, form);
  if ("refused" in change) return dataWithError(context, { intent, result: null }, change.refused, { status: 400 });
  const result = await change.call();
  if (result.ok) return redirectWithSuccess("/team", change.done);
  if (result.problem.type === UNREACHABLE_PROBLEM) return dataWithError(context, { intent, result: null }, FAILED, { status: 503 });
  return dataWithError(context, { intent, result: null }, result.problem.title ?? FAILED, { status: result.status });
}
