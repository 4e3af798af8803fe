// A CUIT is unique across companies, and which CUITs are customers is not anyone's to learn.
// Registering a company under a CUIT that is already registered therefore gets the same answer
// as a registration pending review (the caller's account stays without a company), and the
// registered company's owner is told by e-mail, the way sign-up flows avoid account
// enumeration. Changing a company's CUIT to another company's gets a refusal that does not say
// why. Both are rate-limited so that even the little they leak (a later screen, a refusal)
// cannot be collected quickly.
import { and, eq } from "drizzle-orm";
import type { Db } from "#db/client";
import { businessMembers, businessUsers, registrationRequests, type RegistrationRequest } from "#db/schema";
import { formatCuit } from "#domain/cuit";
import { escapeHtml, MailError } from "#infra/mail";
import { RateLimiter, rateLimitMessage } from "#infra/rate-limit";
import type { ApiServices, Ctx } from "../env";
import { ApiError } from "../problem";

/** Company registrations an account may attempt per hour (valid input; each attempt counts). */
export const REGISTRATIONS_PER_HOUR = 10;
/** CUIT changes a company may attempt per hour on its profile. */
export const CUIT_CHANGES_PER_HOUR = 10;
/** E-mails to one company's owner about attempts on its CUIT per day (more add nothing the owner needs). */
export const CUIT_CLAIM_MAILS_PER_DAY = 3;

export const CUIT_UNAVAILABLE_MESSAGE = "No pudimos usar ese CUIT. Si es el de tu empresa, escribinos.";

const registrations = new RateLimiter("account:register", { limit: REGISTRATIONS_PER_HOUR, windowMs: 3_600_000 });
const cuitChanges = new RateLimiter("profile:cuit-change", { limit: CUIT_CHANGES_PER_HOUR, windowMs: 3_600_000 });
const claimMails = new RateLimiter("account:cuit-claim-mail", { limit: CUIT_CLAIM_MAILS_PER_DAY, windowMs: 86_400_000 });

async function limit(limiter: RateLimiter, key: string, field: string) {
  const verdict = await limiter.hit(key);
  if (verdict.ok) return;
  const message = rateLimitMessage(verdict.retryAfterMs);
  throw new ApiError(429, "rate-limited", message, { errors: { [field]: [message] }, headers: { "Retry-After": String(Math.ceil(verdict.retryAfterMs / 1000)) } });
}

/** Counts one registration attempt by the account; 429 past REGISTRATIONS_PER_HOUR. */
export const limitRegistration = (uid: string) => limit(registrations, uid, "cuit");

/** Counts one CUIT change attempt by the company; 429 past CUIT_CHANGES_PER_HOUR. */
export const limitCuitChange = (businessId: string) => limit(cuitChanges, businessId, "cuit");

/** The company holding `cuit`, if any. */
export async function companyWithCuit(services: ApiServices, cuit: string) {
  const [row] = await services.db
    .select({ id: businessUsers.id, businessName: businessUsers.businessName, email: businessUsers.email })
    .from(businessUsers)
    .where(eq(businessUsers.cuit, cuit))
    .limit(1);
  return row;
}

/** What a registrant typed: the company's fields as the registration stores them. */
export interface RegistrationFields {
  email: string;
  businessName: string;
  cuit: string;
  businessAddress: string;
  phoneNumber: string;
}

/**
 * Keeps the account's registration of a CUIT another company holds (one per account: a new one
 * replaces it), so that the account reads as pending review like any registrant (accountDto).
 */
export async function holdRegistration(services: ApiServices, uid: string, fields: RegistrationFields): Promise<void> {
  await services.db
    .insert(registrationRequests)
    .values({ firebaseUid: uid, ...fields })
    .onConflictDoUpdate({ target: registrationRequests.firebaseUid, set: { ...fields, updatedAt: new Date() } });
}

/** The account's registration held without a company, if any. */
export async function heldRegistration(services: ApiServices, uid: string): Promise<RegistrationRequest | undefined> {
  const [row] = await services.db.select().from(registrationRequests).where(eq(registrationRequests.firebaseUid, uid)).limit(1);
  return row;
}

/** The account registered a company of its own: its held registration is over. */
export async function dropHeldRegistration(db: Db, uid: string): Promise<void> {
  await db.delete(registrationRequests).where(eq(registrationRequests.firebaseUid, uid));
}

/**
 * Someone tried to register `cuit`, which `company` holds: log it for support and e-mail the
 * company's owner. Never throws and is not awaited by the caller, so neither a mail failure nor
 * the time it takes shows in the registrant's answer.
 */
export function reportCuitClaim(services: ApiServices, c: Ctx, cuit: string, company: { id: string; businessName: string; email: string }): void {
  const registrant = (c.get("claims").email ?? "").toLowerCase();
  // Support's trail (a registrant who writes in is answered after checking this): which company, which account; no e-mail address in logs.
  services.logger.info({ businessId: company.id, registrantUid: c.get("claims").uid, requestId: c.get("requestId") }, "registro: el CUIT ya está registrado; se avisa al dueño");
  void mailOwner(services, c, cuit, company, registrant).catch((err) => {
    services.logger.warn({ err: err instanceof MailError ? err.message : String(err), businessId: company.id }, "registro: el aviso al dueño no se pudo enviar");
  });
}

async function mailOwner(services: ApiServices, c: Ctx, cuit: string, company: { id: string; businessName: string; email: string }, registrant: string) {
  if (!(await claimMails.hit(company.id)).ok) return;
  const [owner] = await services.db
    .select({ email: businessMembers.email })
    .from(businessMembers)
    .where(and(eq(businessMembers.businessId, company.id), eq(businessMembers.role, "OWNER")))
    .limit(1);
  const to = owner?.email ?? company.email;
  if (!to) return;
  const app = services.appName;
  const team = `${services.publicOrigin ?? new URL(c.req.url).origin}/team`;
  const who = registrant || "una cuenta";
  const shown = formatCuit(cuit);
  const text = [
    "Hola:",
    "",
    `${who} intentó registrar en ${app} una empresa con el CUIT ${shown}, que ya es el de «${company.businessName}». No le dijimos que ese CUIT está registrado ni le dimos acceso a tu empresa.`,
    "",
    `Si es alguien de tu equipo, invitalo desde Equipo (${team}) con el rol que corresponda: así trabaja en «${company.businessName}» sin registrar otra empresa.`,
    "Si no sabés quién es, no tenés que hacer nada; si te preocupa, escribinos respondiendo este correo.",
  ].join("\n");
  const html = [
    `<p>Hola:</p>`,
    `<p>${escapeHtml(who)} intentó registrar en ${escapeHtml(app)} una empresa con el CUIT ${escapeHtml(shown)}, que ya es el de <strong>«${escapeHtml(company.businessName)}»</strong>. No le dijimos que ese CUIT está registrado ni le dimos acceso a tu empresa.</p>`,
    `<p>Si es alguien de tu equipo, invitalo desde <a href="${escapeHtml(team)}">Equipo</a> con el rol que corresponda: así trabaja en «${escapeHtml(company.businessName)}» sin registrar otra empresa.</p>`,
    `<p>Si no sabés quién es, no tenés que hacer nada; si te preocupa, escribinos respondiendo este correo.</p>`,
  ].join("\n");
  await services.mailer.send({ kind: "cuit-claim", to, subject: `Alguien intentó registrar el CUIT de «${company.businessName}» en ${app}`, text, html });
}
