// The caller's company profile: GET /Business/BusinessUser, PATCH …/Update.
import { and, eq, ne } from "drizzle-orm";
import { Hono } from "hono";
import { businessUsers, type BusinessUser } from "#db/schema";
import { tenant, type ApiServices, type AppEnv } from "../env";
import { readJson } from "../http";
import { ApiError, conflict, pgError } from "../problem";
import { CUIT_UNAVAILABLE_MESSAGE, limitCuitChange } from "./cuit-claims";
import { updateBusinessUserSchema } from "#contract/schemas/business";
import type { BusinessUserDto } from "#contract/dto";
import { IMAGE_URL_RE, ownsImage, releaseImage } from "./images";

type ProfileFields = Pick<BusinessUser, "businessAddress" | "businessName" | "cuit" | "phoneNumber" | "photoUrl" | "status" | "email">;

export function toBusinessUserDto(row: ProfileFields): BusinessUserDto {
  return {
    businessAddress: row.businessAddress ?? "",
    businessName: row.businessName,
    cuit: row.cuit ?? "",
    phoneNumber: row.phoneNumber ?? "",
    photoUrl: row.photoUrl ?? null,
    status: row.status,
    email: row.email,
  };
}

/** Says neither that another company holds the CUIT nor which one. */
const cuitUnavailable = () => conflict(CUIT_UNAVAILABLE_MESSAGE, { cuit: [CUIT_UNAVAILABLE_MESSAGE] });

export function businessUserRoutes({ db }: ApiServices) {
  const r = new Hono<AppEnv>();

  r.get("/", (c) => c.json(toBusinessUserDto(tenant(c))));

  r.patch("/Update", async (c) => {
    const business = tenant(c);
    const input = await readJson(c, updateBusinessUserSchema);
    const patch: Partial<BusinessUser> = {};
    if (input.businessName !== undefined) patch.businessName = input.businessName;
    if (input.businessAddress !== undefined) patch.businessAddress = input.businessAddress;
    if (input.phoneNumber !== undefined) patch.phoneNumber = input.phoneNumber;

    if (input.cuit !== undefined && input.cuit !== business.cuit) {
      if (business.status === "ACTIVE") {
        throw new ApiError(422, "validation", "El CUIT no se puede cambiar con la empresa aprobada.", {
          errors: { cuit: ["El CUIT no se puede cambiar con la empresa aprobada. Comunicate con soporte."] },
        });
      }
      // Every attempt counts, so the generic refusal below cannot be used to test CUITs quickly.
      await limitCuitChange(business.id);
      const [taken] = await db
        .select({ id: businessUsers.id })
        .from(businessUsers)
        .where(and(eq(businessUsers.cuit, input.cuit), ne(businessUsers.id, business.id)))
        .limit(1);
      if (taken) throw cuitUnavailable();
      patch.cuit = input.cuit;
    }

    if (input.photoUrl !== undefined && input.photoUrl !== business.photoUrl) {
      if (input.photoUrl && IMAGE_URL_RE.test(input.photoUrl) && !(await ownsImage(db, business.id, input.photoUrl))) {
        throw new ApiError(422, "validation", "La imagen no existe.", { errors: { photoUrl: ["La imagen no existe. Subila de nuevo."] } });
      }
      patch.photoUrl = input.photoUrl;
    }

    if (Object.keys(patch).length === 0) return c.json(toBusinessUserDto(business));
    let updated: BusinessUser;
    try {
      [updated] = await db.update(businessUsers).set(patch).where(eq(businessUsers.id, business.id)).returning();
    } catch (err) {
      // Another company took the CUIT between the check and the update: the same refusal.
      const pg = pgError(err);
      if (pg?.code === "23505" && pg.constraint?.includes("cuit")) throw cuitUnavailable();
      throw err;
    }
    if (patch.photoUrl !== undefined && business.photoUrl) await releaseImage(db, business.id, business.photoUrl);
    return c.json(toBusinessUserDto(updated));
  });

  return r;
}
