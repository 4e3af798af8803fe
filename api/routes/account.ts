// /Account/Business: register the company of the signed-in account and read its status.
// Works before the company exists (it is how it comes to exist). A CUIT another company holds is
// answered like any registration pending review, without a company: the request is held and the
// account reads as pending review from then on (cuit-claims.ts). /Account/SignIn: the dashboard
// signed into a company (login, switching companies): its last sign-in is recorded.
import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { businessMembers, businessUsers, notifications, type Notification, type RegistrationRequest } from "#db/schema";
import { recordAudit } from "../audit";
import type { ApiServices, AppEnv, Ctx } from "../env";
import { readJson } from "../http";
import { conflict, pgError } from "../problem";
import { pushNotification } from "#infra/push";
import { registerBusinessSchema } from "#contract/schemas/business";
import type { AccountBusinessDto } from "#contract/dto";
import { companyWithCuit, dropHeldRegistration, heldRegistration, holdRegistration, limitRegistration, reportCuitClaim } from "./cuit-claims";
import { toBusinessUserDto } from "./profile";

export const ALREADY_REGISTERED_MESSAGE = "Tu cuenta ya tiene una empresa registrada.";

export function accountRoutes(services: ApiServices) {
  const { db, autoApproveBusinesses } = services;
  const r = new Hono<AppEnv>();

  r.get("/", async (c) => c.json(await accountAnswer(services, c)));

  r.post("/", async (c) => {
    if (c.get("business")) throw conflict(ALREADY_REGISTERED_MESSAGE);
    const input = await readJson(c, registerBusinessSchema);
    const claims = c.get("claims");
    await limitRegistration(claims.uid);
    const values = {
      firebaseUid: claims.uid,
      email: (claims.email ?? "").toLowerCase(),
      businessName: input.businessName,
      cuit: input.cuit,
      businessAddress: input.businessAddress,
      phoneNumber: input.phoneNumber,
      photoUrl: null,
    };
    // A CUIT already registered: the answer of a registration pending review, no company (the
    // request is held instead), and the holder's owner is told (see cuit-claims.ts).
    const held = async (holder: { id: string; businessName: string; email: string }) => {
      await holdRegistration(services, claims.uid, { email: values.email, businessName: values.businessName, cuit: values.cuit, businessAddress: values.businessAddress, phoneNumber: values.phoneNumber });
      reportCuitClaim(services, c, input.cuit, holder);
      return c.json(toBusinessUserDto({ ...values, status: "PENDING" }), 201);
    };
    const holder = await companyWithCuit(services, input.cuit);
    if (holder) return held(holder);
    const status = autoApproveBusinesses ? "ACTIVE" : "PENDING";
    try {
      let notice: Notification | undefined;
      const created = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(businessUsers)
          .values({ ...values, status })
          .returning();
        if (status === "ACTIVE") {
          [notice] = await tx
            .insert(notifications)
            .values({
              businessId: row.id,
              type: "BUSINESS_APPROVED",
              title: "¡Tu empresa fue aprobada!",
              body: `${row.businessName} ya puede cargar estaciones, cargadores y tarifas.`,
              link: "/station/new",
            })
            .returning();
        }
        await dropHeldRegistration(tx, claims.uid);
        return row;
      });
      // Web push to the company's browsers, after the commit (never fails the request).
      if (notice) await pushNotification(services, notice);
      const { businessName, cuit, businessAddress, phoneNumber } = created;
      await recordAudit(services, c, {
        businessId: created.id,
        actorRole: "OWNER",
        action: "profile.create",
        resourceType: "profile",
        resourceId: created.id,
        resourceLabel: businessName,
        changes: Object.fromEntries(Object.entries({ businessName, cuit, businessAddress, phoneNumber, status }).map(([k, v]) => [k, { before: null, after: v }])),
      });
      return c.json(toBusinessUserDto(created), 201);
    } catch (err) {
      // Two registrations racing: the unique constraints decide.
      const pg = pgError(err);
      if (pg?.code === "23505") {
        const winner = pg.constraint?.includes("cuit") ? await companyWithCuit(services, input.cuit) : undefined;
        if (winner) return held(winner);
        throw conflict(ALREADY_REGISTERED_MESSAGE);
      }
      throw err;
    }
  });

  return r;
}

/** POST /Account/SignIn: the account signed into the request's company (none: nothing to record). */
export function signInRoutes(services: ApiServices) {
  const { db, now } = services;
  return new Hono<AppEnv>().post("/", async (c) => {
    const member = c.get("member");
    const business = c.get("business");
    if (member && business) {
      await db
        .update(businessMembers)
        .set({ lastSignInAt: now() })
        .where(and(eq(businessMembers.id, member.id), eq(businessMembers.businessId, business.id)));
    }
    return c.json(await accountAnswer(services, c));
  });
}

/** The account as GET /Account/Business answers it, a registration held without a company included. */
async function accountAnswer(services: ApiServices, c: Ctx): Promise<AccountBusinessDto> {
  return accountDto(c, c.get("business") ? undefined : await heldRegistration(services, c.get("claims").uid));
}

/**
 * The request's company and role, and every company of the account. An account whose only
 * registration was held (its CUIT is another company's) reads exactly as a registrant whose
 * company awaits review: the request stands in for the company, so the answer says nothing of
 * the CUIT.
 */
export function accountDto(c: Ctx, held?: RegistrationRequest): AccountBusinessDto {
  const business = c.get("business");
  const member = c.get("member");
  const email = c.get("claims").email ?? business?.email ?? undefined;
  const companies = c.get("memberships").map(({ businessId, businessName, status, role }) => ({ businessId, businessName, status, role }));
  if (business && member) {
    return { exists: true, email, status: business.status, businessName: business.businessName, cuit: business.cuit ?? undefined, businessId: business.id, role: member.role, companies };
  }
  if (held) {
    const pending = { businessId: held.id, businessName: held.businessName, status: "PENDING", role: "OWNER" } as const;
    return { exists: true, email, status: pending.status, businessName: held.businessName, cuit: held.cuit, businessId: held.id, role: pending.role, companies: [...companies, pending] };
  }
  return { exists: false, email, companies };
}
