// The team: the company's members and roles (/Business/Member), invitations by e-mail
// (/Business/Invitation), joining a company with an invitation (POST /Business/Member) and what an
// invitation link offers (POST /Invitation/Lookup, public).
//
// An invitation's link carries a random 256-bit token; only its SHA-256 is stored, so the link
// cannot be made up nor read back from the database. It works once (accepting marks it in the
// same statement that checks it is still open) and for INVITATION_DAYS, and only for the account
// whose verified e-mail it was sent to.
import { createHash, randomBytes } from "node:crypto";
import { and, asc, count, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { Hono } from "hono";
import { businessInvitations, businessMembers, businessUsers, pushRegistrations, type BusinessInvitation } from "#db/schema";
import { ROLE_LABELS, can, refusalMessage } from "#domain/permissions";
import { escapeHtml, MailError } from "#infra/mail";
import { RateLimiter, rateLimitMessage } from "#infra/rate-limit";
import { recordAudit } from "../audit";
import { tenant, type ApiServices, type AppEnv, type Ctx } from "../env";
import { idParam, iso, readJson } from "../http";
import { ApiError, conflict, notFound } from "../problem";
import { invitationInputSchema, invitationTokenSchema, memberPatchSchema } from "#contract/schemas/team";
import type { InvitationDto, InvitationPreviewDto, JoinedDto, MemberDto } from "#contract/dto";

export const INVITATION_DAYS = 7;
/** Members plus open invitations a company may have (the lists are bounded by it). */
export const TEAM_MAX = 500;
/** Invitations sent (created or resent) per company and hour. */
export const INVITATIONS_PER_HOUR = 30;

export const MESSAGES = {
  invitationNotFound: "La invitación no existe o ya no está pendiente.",
  ownerUntouchable: "El rol del dueño no se cambia: el dueño puede transferir la propiedad a otro miembro.",
  ownerNotRemovable: "No se puede quitar al dueño de la empresa. Primero tiene que transferir la propiedad.",
  notYourself: "No podés cambiar tu propio rol ni quitarte de la empresa.",
  transferToSelf: "Ya sos el dueño de la empresa.",
  alreadyMember: (email: string) => `${email} ya es miembro de la empresa.`,
  alreadyInvited: "Ya hay una invitación pendiente para ese correo: reenviala o revocala.",
  teamFull: `La empresa llegó al máximo de ${TEAM_MAX} miembros e invitaciones pendientes.`,
  mailFailed: "No pudimos enviar el correo de la invitación. Probá de nuevo en unos minutos.",
  invalidLink: "El enlace de la invitación no es válido.",
  expired: "La invitación venció. Pedile a quien te invitó que te la reenvíe.",
  used: "La invitación ya fue usada.",
  revoked: "La invitación fue revocada.",
  otherEmail: (email: string) => `Esta invitación es para ${email}. Ingresá con esa cuenta para aceptarla.`,
} as const;

const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");
const newToken = () => randomBytes(32).toString("base64url");

function toMemberDto(row: typeof businessMembers.$inferSelect, callerId: string | undefined): MemberDto {
  return { id: row.id, email: row.email, role: row.role, lastSignInAt: iso(row.lastSignInAt), joinedAt: row.createdAt.toISOString(), you: row.id === callerId };
}

function toInvitationDto(row: BusinessInvitation, now: Date): InvitationDto {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invitedByEmail: row.invitedByEmail,
    sentAt: row.sentAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    expired: row.expiresAt <= now,
  };
}

const open = and(isNull(businessInvitations.acceptedAt), isNull(businessInvitations.revokedAt));

/** Where the invitation link points: PUBLIC_URL, else the origin the request came in on. */
function invitationLink(services: ApiServices, c: Ctx, token: string): string {
  const origin = services.publicOrigin ?? new URL(c.req.url).origin;
  return `${origin}/auth/invitation?token=${encodeURIComponent(token)}`;
}

const dateTime = new Intl.DateTimeFormat("es-AR", { timeZone: "America/Argentina/Buenos_Aires", dateStyle: "long", timeStyle: "short" });

async function sendInvitation(services: ApiServices, c: Ctx, row: BusinessInvitation, token: string, businessName: string) {
  const link = invitationLink(services, c, token);
  const role = ROLE_LABELS[row.role];
  const until = dateTime.format(row.expiresAt);
  const app = services.appName;
  const text = [
    "Hola:",
    "",
    `${row.invitedByEmail} te invitó a unirte a «${businessName}» en ${app} con el rol ${role}.`,
    "",
    `Aceptá la invitación desde este enlace (vale una sola vez, hasta el ${until}):`,
    link,
    "",
    `Si no tenés cuenta en ${app}, creala con este mismo correo (${row.email}) desde el enlace.`,
    "Si no esperabas esta invitación, ignorá este correo.",
  ].join("\n");
  const html = [
    `<p>Hola:</p>`,
    `<p>${escapeHtml(row.invitedByEmail)} te invitó a unirte a <strong>«${escapeHtml(businessName)}»</strong> en ${escapeHtml(app)} con el rol <strong>${escapeHtml(role)}</strong>.</p>`,
    `<p><a href="${escapeHtml(link)}">Aceptar la invitación</a> (vale una sola vez, hasta el ${escapeHtml(until)}).</p>`,
    `<p>Si no tenés cuenta en ${escapeHtml(app)}, creala con este mismo correo (${escapeHtml(row.email)}) desde el enlace.</p>`,
    `<p>Si no esperabas esta invitación, ignorá este correo.</p>`,
  ].join("\n");
  try {
    await services.mailer.send({ kind: "invitation", to: row.email, subject: `Te invitaron a «${businessName}» en ${app}`, text, html });
  } catch (err) {
    services.logger.warn({ err: err instanceof MailError ? err.message : String(err), invitationId: row.id }, "invitación: el correo no se pudo enviar");
    throw new ApiError(502, "mail-failed", MESSAGES.mailFailed);
  }
}

/** GET/PATCH/DELETE /Business/Member — the company's members. */
export function memberRoutes(services: ApiServices) {
  const { db } = services;
  const r = new Hono<AppEnv>();

  r.get("/", async (c) => {
    const b = tenant(c);
    const rows = await db
      .select()
      .from(businessMembers)
      .where(eq(businessMembers.businessId, b.id))
      .orderBy(sql`${businessMembers.role} = 'OWNER' desc`, asc(businessMembers.email), asc(businessMembers.id))
      .limit(TEAM_MAX);
    return c.json({ items: rows.map((row) => toMemberDto(row, c.get("member")?.id)) });
  });

  const findMember = async (businessId: string, id: string) => {
    const [row] = await db
      .select()
      .from(businessMembers)
      .where(and(eq(businessMembers.id, id), eq(businessMembers.businessId, businessId)))
      .limit(1);
    if (!row) throw notFound("El miembro");
    return row;
  };

  r.patch("/:id", async (c) => {
    const b = tenant(c);
    const actor = c.get("member")!;
    const target = await findMember(b.id, idParam(c, "id", "El miembro"));
    const { role } = await readJson(c, memberPatchSchema);

    if (role === "OWNER") {
      // Ownership transfer: only the owner, to someone else; the owner stays as an administrator.
      if (!can(actor.role, "member.transfer")) throw new ApiError(403, "forbidden", refusalMessage(actor.role, "member.transfer"));
      if (target.id === actor.id) throw conflict(MESSAGES.transferToSelf);
      await db.transaction(async (tx) => {
        // Demote first: the partial unique index allows one OWNER per company at any moment.
        await tx.update(businessMembers).set({ role: "ADMIN" }).where(and(eq(businessMembers.id, actor.id), eq(businessMembers.businessId, b.id)));
        await tx.update(businessMembers).set({ role: "OWNER" }).where(and(eq(businessMembers.id, target.id), eq(businessMembers.businessId, b.id)));
      });
      await recordAudit(services, c, {
        action: "member.transfer",
        resourceType: "member",
        resourceId: target.id,
        resourceLabel: target.email,
        changes: { role: { before: target.role, after: "OWNER" } },
      });
      await recordAudit(services, c, {
        action: "member.update",
        resourceType: "member",
        resourceId: actor.id,
        resourceLabel: actor.email,
        changes: { role: { before: "OWNER", after: "ADMIN" } },
      });
    } else {
      if (target.id === actor.id) throw new ApiError(403, "forbidden", MESSAGES.notYourself);
      if (target.role === "OWNER") throw new ApiError(403, "forbidden", MESSAGES.ownerUntouchable);
      if (target.role !== role) await db.update(businessMembers).set({ role }).where(and(eq(businessMembers.id, target.id), eq(businessMembers.businessId, b.id)));
    }
    return c.json(toMemberDto(await findMember(b.id, target.id), actor.id));
  });

  r.delete("/:id", async (c) => {
    const b = tenant(c);
    const actor = c.get("member")!;
    const target = await findMember(b.id, idParam(c, "id", "El miembro"));
    if (target.role === "OWNER") throw new ApiError(403, "forbidden", MESSAGES.ownerNotRemovable);
    if (target.id === actor.id) throw new ApiError(403, "forbidden", MESSAGES.notYourself);
    await db.transaction(async (tx) => {
      await tx.delete(businessMembers).where(and(eq(businessMembers.id, target.id), eq(businessMembers.businessId, b.id)));
      // Their browsers stop getting the company's push notifications.
      await tx.delete(pushRegistrations).where(and(eq(pushRegistrations.businessId, b.id), eq(pushRegistrations.firebaseUid, target.firebaseUid)));
    });
    // From here every request of theirs for this company is refused: membership is read on each one.
    return c.body(null, 204);
  });

  return r;
}

/** GET/POST/DELETE /Business/Invitation — invitations by e-mail. */
export function invitationRoutes(services: ApiServices) {
  const { db, now } = services;
  const r = new Hono<AppEnv>();
  const perCompany = new RateLimiter("api:invitations", { limit: INVITATIONS_PER_HOUR, windowMs: 3_600_000 });
  const limit = async (businessId: string) => {
    const verdict = await perCompany.hit(businessId);
    if (!verdict.ok) {
      throw new ApiError(429, "rate-limited", rateLimitMessage(verdict.retryAfterMs), { headers: { "Retry-After": String(Math.ceil(verdict.retryAfterMs / 1000)) } });
    }
  };

  r.get("/", async (c) => {
    const b = tenant(c);
    const rows = await db
      .select()
      .from(businessInvitations)
      .where(and(eq(businessInvitations.businessId, b.id), open))
      .orderBy(desc(businessInvitations.sentAt), asc(businessInvitations.id))
      .limit(TEAM_MAX);
    const t = now();
    return c.json({ items: rows.map((row) => toInvitationDto(row, t)) });
  });

  r.post("/", async (c) => {
    const b = tenant(c);
    const { email, role } = await readJson(c, invitationInputSchema);
    const [member] = await db
      .select({ id: businessMembers.id })
      .from(businessMembers)
      .where(and(eq(businessMembers.businessId, b.id), eq(businessMembers.email, email)))
      .limit(1);
    if (member) throw conflict(MESSAGES.alreadyMember(email), { email: [MESSAGES.alreadyMember(email)] });
    const [pending] = await db
      .select({ id: businessInvitations.id })
      .from(businessInvitations)
      .where(and(eq(businessInvitations.businessId, b.id), eq(businessInvitations.email, email), open))
      .limit(1);
    if (pending) throw conflict(MESSAGES.alreadyInvited, { email: [MESSAGES.alreadyInvited] });
    const [{ members }] = await db.select({ members: count() }).from(businessMembers).where(eq(businessMembers.businessId, b.id));
    const [{ invited }] = await db.select({ invited: count() }).from(businessInvitations).where(and(eq(businessInvitations.businessId, b.id), open));
    if (members + invited >= TEAM_MAX) throw conflict(MESSAGES.teamFull);
    await limit(b.id);
    const token = newToken();
    const claims = c.get("claims");
    const t = now();
    const [row] = await db
      .insert(businessInvitations)
      .values({
        businessId: b.id,
        email,
        role,
        tokenHash: hashToken(token),
        invitedByUid: claims.uid,
        invitedByEmail: (claims.email ?? c.get("member")?.email ?? "").toLowerCase(),
        sentAt: t,
        expiresAt: new Date(t.getTime() + INVITATION_DAYS * 86_400_000),
      })
      .returning();
    try {
      await sendInvitation(services, c, row, token, b.businessName);
    } catch (err) {
      // Not sent: nothing was invited.
      await db.delete(businessInvitations).where(eq(businessInvitations.id, row.id));
      throw err;
    }
    return c.json(toInvitationDto(row, t), 201);
  });

  const findOpen = async (businessId: string, id: string) => {
    const [row] = await db
      .select()
      .from(businessInvitations)
      .where(and(eq(businessInvitations.id, id), eq(businessInvitations.businessId, businessId), open))
      .limit(1);
    if (!row) throw notFound("La invitación");
    return row;
  };

  // A new link (the old one stops working) and a new expiry.
  r.post("/:id/Resend", async (c) => {
    const b = tenant(c);
    const current = await findOpen(b.id, idParam(c, "id", "La invitación"));
    await limit(b.id);
    const token = newToken();
    const t = now();
    const [row] = await db
      .update(businessInvitations)
      .set({ tokenHash: hashToken(token), sentAt: t, expiresAt: new Date(t.getTime() + INVITATION_DAYS * 86_400_000) })
      .where(and(eq(businessInvitations.id, current.id), eq(businessInvitations.businessId, b.id)))
      .returning();
    await sendInvitation(services, c, row, token, b.businessName);
    return c.json(toInvitationDto(row, t));
  });

  r.delete("/:id", async (c) => {
    const b = tenant(c);
    const current = await findOpen(b.id, idParam(c, "id", "La invitación"));
    await db
      .update(businessInvitations)
      .set({ revokedAt: now() })
      .where(and(eq(businessInvitations.id, current.id), eq(businessInvitations.businessId, b.id)));
    return c.body(null, 204);
  });

  return r;
}

async function findByToken(services: ApiServices, token: string) {
  const [row] = await services.db
    .select({ invitation: businessInvitations, businessName: businessUsers.businessName })
    .from(businessInvitations)
    .innerJoin(businessUsers, eq(businessUsers.id, businessInvitations.businessId))
    .where(eq(businessInvitations.tokenHash, hashToken(token)))
    .limit(1);
  if (!row) throw new ApiError(404, "not-found", MESSAGES.invalidLink);
  return row;
}

function stateOf(row: BusinessInvitation, t: Date): InvitationPreviewDto["state"] {
  if (row.acceptedAt) return "ACCEPTED";
  if (row.revokedAt) return "REVOKED";
  return row.expiresAt <= t ? "EXPIRED" : "PENDING";
}

/** POST /Invitation/Lookup (public): the company, role and address of a link, and whether it still works. */
export function invitationLookupRoutes(services: ApiServices) {
  return new Hono<AppEnv>().post("/", async (c) => {
    const { token } = await readJson(c, invitationTokenSchema);
    const { invitation, businessName } = await findByToken(services, token);
    const body: InvitationPreviewDto = {
      businessName,
      email: invitation.email,
      role: invitation.role,
      expiresAt: invitation.expiresAt.toISOString(),
      state: stateOf(invitation, services.now()),
    };
    return c.json(body);
  });
}

/**
 * POST /Business/Member { token }: the caller joins the invitation's company with its role.
 * Any verified account may call it (it may belong to no company yet); the invitation must be
 * open and addressed to the caller's e-mail.
 */
export function joinRoutes(services: ApiServices) {
  const { db, now } = services;
  return new Hono<AppEnv>().post("/", async (c) => {
    const { token } = await readJson(c, invitationTokenSchema);
    const claims = c.get("claims");
    const { invitation, businessName } = await findByToken(services, token);
    const t = now();
    const state = stateOf(invitation, t);
    if (state === "ACCEPTED") throw new ApiError(410, "conflict", MESSAGES.used);
    if (state === "REVOKED") throw new ApiError(410, "conflict", MESSAGES.revoked);
    if (state === "EXPIRED") throw new ApiError(410, "conflict", MESSAGES.expired);
    const email = (claims.email ?? "").toLowerCase();
    if (email !== invitation.email) throw new ApiError(403, "forbidden", MESSAGES.otherEmail(invitation.email));

    const result = await db.transaction(async (tx) => {
      // Single use: only the statement that finds it still open takes it.
      const taken = await tx
        .update(businessInvitations)
        .set({ acceptedAt: t, acceptedByUid: claims.uid })
        .where(and(eq(businessInvitations.id, invitation.id), open, gt(businessInvitations.expiresAt, t)))
        .returning({ id: businessInvitations.id });
      if (taken.length === 0) throw new ApiError(410, "conflict", MESSAGES.used);
      const inserted = await tx
        .insert(businessMembers)
        .values({ businessId: invitation.businessId, firebaseUid: claims.uid, email, role: invitation.role, lastSignInAt: t })
        .onConflictDoNothing({ target: [businessMembers.businessId, businessMembers.firebaseUid] })
        .returning();
      if (inserted.length) return { member: inserted[0], created: true };
      const [existing] = await tx
        .select()
        .from(businessMembers)
        .where(and(eq(businessMembers.businessId, invitation.businessId), eq(businessMembers.firebaseUid, claims.uid)));
      return { member: existing, created: false };
    });
    if (result.created) {
      await recordAudit(services, c, {
        businessId: invitation.businessId,
        actorRole: result.member.role,
        action: "member.join",
        resourceType: "member",
        resourceId: result.member.id,
        resourceLabel: email,
        changes: { email: { before: null, after: email }, role: { before: null, after: result.member.role } },
      });
    } else {
      c.set("audited", true); // nothing changed but the invitation being used up
    }
    const body: JoinedDto = { businessId: invitation.businessId, businessName, memberId: result.member.id, role: result.member.role, created: result.created };
    return c.json(body, result.created ? 201 : 200);
  });
}
