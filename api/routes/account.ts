// /Account/Business: register the company of the signed-in account and read its status.
// Works before the company exists (it is how it comes to exist). A CUIT another company holds is
// answered like any registration pending review, without a company (cuit-claims.ts). /Account/SignIn: the dashboard
// signed into a company (login, switching companies): its last sign-in is recorded.
import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { businessMembers, businessUsers, notifications, type Notification } from "#db/schema";
import { recordAudit } from "../audit";
import type { ApiServices, AppEnv, Ctx } from "../env";
import { readJson } from "../http";
import { conflict, pgError } from "../problem";
import { pushNotification } from "#infra/push";
import { registerBusinessSchema } from "#contract/schemas/business";
import type { AccountBusinessDto } from "#contract/dto";
import { companyWithCuit, limitRegistration, reportCuitClaim } from "./cuit-claims";
import { toBusinessUserDto } from "./profile";

export const ALREADY_REGISTERED_MESSAGE = "Tu cuenta ya tiene una empresa registrada.";

export function accountRoutes(services: ApiServices) {
  const { db, autoApproveBusinesses } = services;
  const r = new Hono<AppEnv>();

  r.get("/", (c) => c.json(accountDto(c)));

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
    // A CUIT already registered: the answer of a registration pending review, no company, and the
    // holder's owner is told (see cuit-claims.ts).
    const holder = await companyWithCuit(services, input.cuit);
    if (holder) {
      reportCuitClaim(services, c, input.cuit, holder);
      return c.json(toBusinessUserDto({ ...values, status: "PENDING" }), 201);
    }
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
        if (winner) {
          reportCuitClaim(services, c, input.cuit, winner);
          return c.json(toBusinessUserDto({ ...values, status: "PENDING" }), 201);
        }
        throw conflict(ALREADY_REGISTERED_MESSAGE);
      }
      throw err;
    }
  });

  return r;
}

/** POST /Account/SignIn: the account signed into the request's company (none: nothing to record). */
export function signInRoutes({ db, now }: ApiServices) {
  return new Hono<AppEnv>().post("/", async (c) => {
    const member = c.get("member");
    const business = c.get("business");
    if (member && business) {
      await db
        .update(businessMembers)
        .set({ lastSignInAt: now() })
        .where(and(eq(businessMembers.id, member.id), eq(businessMembers.businessId, business.id)));
    }
    return c.json(accountDto(c));
  });
}

/** The request's company and role, and every company of the account. */
export function accountDto(c: Ctx): AccountBusinessDto {
  const business = c.get("business");
  const member = c.get("member");
  const email = c.get("claims").email ?? business?.email ?? undefined;
  const companies = c.get("memberships").map(({ businessId, businessName, status, role }) => ({ businessId, businessName, status, role }));
  return business && member
    ? { exists: true, email, status: business.status, businessName: business.businessName, cuit: business.cuit ?? undefined, businessId: business.id, role: member.role, companies }
    : { exists: false, email, companies };
}
