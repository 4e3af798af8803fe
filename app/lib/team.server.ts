// Joining a company with an invitation link, shared by the invitation screen and the
// login (a link opened before signing in or registering is accepted right after the sign-in).
import type { InvitationPreviewDto, JoinedDto } from "#contract/dto";
import { ROLE_LABELS } from "#domain/permissions";
import { endpoints } from "#contract/endpoints";
import { createApiClient, UNREACHABLE_PROBLEM } from "~/lib/api.server";
import { setChosenCompany, type RequestContext } from "~/lib/context";
import { openSecret, sealSecret, type AppSession } from "~/lib/session.server";

export const JOIN_FAILED_MESSAGE = "No pudimos aceptar la invitación en este momento. Probá de nuevo en unos minutos.";

/** What a link offers (public): null when the link is not valid; throws when the API cannot answer. */
export async function lookupInvitation(context: RequestContext, token: string): Promise<InvitationPreviewDto | null> {
  const result = await createApiClient(context).call(endpoints.invitationLookup, { body: { token } });
  if (result.ok) return result.data;
  if (result.status === 404 || result.status === 422) return null;
  throw new Error(`lookup ${result.status}`);
}

/** The signed-in account joins (endpoints.memberJoin); the session then acts for that company. */
export async function joinWithInvitation(
  context: RequestContext,
  session: AppSession,
  idToken: string,
  token: string,
): Promise<{ ok: true; joined: JoinedDto; message: string } | { ok: false; message: string; status: number }> {
  const result = await createApiClient(context, idToken).call(endpoints.memberJoin, { body: { token } });
  if (!result.ok) {
    // No answer (503) or no readable one (502): the screen's own message.
    if (result.problem.type === UNREACHABLE_PROBLEM) return { ok: false, message: JOIN_FAILED_MESSAGE, status: result.status };
    return { ok: false, message: result.problem.title ?? JOIN_FAILED_MESSAGE, status: result.status };
  }
  const joined = result.data;
  session.unset("invitation");
  session.set("businessId", joined.businessId);
  setChosenCompany(context, joined.businessId);
  const message = joined.created ? `Te uniste a «${joined.businessName}» como ${ROLE_LABELS[joined.role]}.` : `Ya eras miembro de «${joined.businessName}».`;
  return { ok: true, joined, message };
}

/** Keep a link opened before signing in, sealed in the session, for the next sign-in. */
export function rememberInvitation(session: AppSession, token: string, preview: InvitationPreviewDto) {
  session.set("invitation", { sealed: sealSecret(token, 64), email: preview.email, businessName: preview.businessName });
}

/** The token of the link kept in the session, if any (and still readable). */
export function rememberedInvitation(session: AppSession): string | undefined {
  const kept = session.get("invitation");
  return kept ? openSecret(kept.sealed) : undefined;
}
