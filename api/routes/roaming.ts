// /Business/Roaming — OCPI roaming (ADR 0020): the operator's party id, its partners
// (an invitation with a token A, or a registration with a partner's versions URL and token) and
// the stations it offers to them. The handshake itself lives in ocpi/registration.ts.
import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import { Hono } from "hono";
import { businessUsers, ocpiPartners, stations, type OcpiPartner } from "#db/schema";
import { PartnerAddressError, PartnerError } from "../../ocpi/client";
import { createInvitation, OCPI_COUNTRY_CODE, ocpiVersionsUrl, registerWithPartner, removePartner } from "../../ocpi/registration";
import { OcpiError } from "../../ocpi/envelope";
import { tenant, type ApiServices, type AppEnv } from "../env";
import { idParam, iso, pageOffset, readJson, readQuery } from "../http";
import { fieldError, notFound } from "../problem";
import { ROAMING_MESSAGES, roamingPartnerInputSchema, roamingPartnerListQuery, roamingSettingsSchema, roamingStationListQuery, roamingStationSchema } from "#contract/schemas/roaming";
import type { Page, RoamingPartnerCreatedDto, RoamingPartnerDto, RoamingSettingsDto, RoamingStationDto } from "#contract/dto";

export function partnerDto(p: OcpiPartner): RoamingPartnerDto {
  return {
    id: p.id,
    status: p.status,
    name: p.name ?? null,
    countryCode: p.countryCode ?? null,
    partyId: p.partyId ?? null,
    versionsUrl: p.versionsUrl ?? null,
    version: p.version ?? null,
    modules: p.endpoints.map((e) => `${e.identifier} ${e.role}`),
    lastSyncAt: iso(p.lastSyncAt),
    failures: p.failures,
    lastError: p.lastError ?? null,
    createdAt: p.createdAt.toISOString(),
  };
}

export function roamingRoutes(services: ApiServices) {
  const { db, ocpi } = services;
  const r = new Hono<AppEnv>();
  const settings = (partyId: string | null): RoamingSettingsDto => ({ countryCode: OCPI_COUNTRY_CODE, partyId, versionsUrl: ocpiVersionsUrl(ocpi.publicOrigin) });

  r.get("/", (c) => c.json(settings(tenant(c).ocpiPartyId ?? null)));

  r.put("/", async (c) => {
    const b = tenant(c);
    const { partyId } = await readJson(c, roamingSettingsSchema);
    await db.update(businessUsers).set({ ocpiPartyId: partyId }).where(eq(businessUsers.id, b.id));
    return c.json(settings(partyId));
  });

  r.get("/Partner", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, roamingPartnerListQuery);
    const where = eq(ocpiPartners.businessId, b.id);
    const [rows, [{ total }]] = await Promise.all([
      db.select().from(ocpiPartners).where(where).orderBy(desc(ocpiPartners.createdAt), asc(ocpiPartners.id)).limit(query.pageSize).offset(pageOffset(query.page, query.pageSize)),
      db.select({ total: count() }).from(ocpiPartners).where(where),
    ]);
    const body: Page<RoamingPartnerDto> = { items: rows.map(partnerDto), total, page: query.page, pageSize: query.pageSize };
    return c.json(body);
  });

  r.post("/Partner", async (c) => {
    const b = tenant(c);
    const input = await readJson(c, roamingPartnerInputSchema);
    if (!b.ocpiPartyId) throw fieldError("partyId", ROAMING_MESSAGES.partyIdFirst);
    const versionsUrl = ocpiVersionsUrl(ocpi.publicOrigin);
    if (input.versionsUrl && input.token) {
      try {
        const partner = await registerWithPartner(ocpi, b, { versionsUrl: input.versionsUrl, token: input.token });
        const body: RoamingPartnerCreatedDto = { id: partner.id, partner: partnerDto(partner), versionsUrl, token: null };
        return c.json(body, 201);
      } catch (err) {
        // A private or plain-http address in production (ADR 0021): the rule itself is the message.
        if (err instanceof PartnerAddressError) throw fieldError("versionsUrl", err.message);
        if (err instanceof PartnerError || err instanceof OcpiError) throw fieldError("versionsUrl", `No pudimos registrarnos con el socio: ${err.message}`);
        throw err;
      }
    }
    const { partner, token } = await createInvitation(ocpi, b);
    const body: RoamingPartnerCreatedDto = { id: partner.id, partner: partnerDto(partner), versionsUrl, token };
    return c.json(body, 201);
  });

  r.delete("/Partner/:id", async (c) => {
    const b = tenant(c);
    const id = idParam(c, "id", "El socio");
    const { found } = await removePartner(ocpi, b.id, id);
    if (!found) throw notFound("El socio");
    return c.body(null, 204);
  });

  r.get("/Station", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, roamingStationListQuery);
    const where = eq(stations.businessId, b.id);
    const [rows, [{ total }]] = await Promise.all([
      db
        .select({ id: stations.id, name: stations.name, city: stations.city, roamingPublished: stations.roamingPublished })
        .from(stations)
        .where(where)
        .orderBy(sql`lower(${stations.name})`, asc(stations.id))
        .limit(query.pageSize)
        .offset(pageOffset(query.page, query.pageSize)),
      db.select({ total: count() }).from(stations).where(where),
    ]);
    const body: Page<RoamingStationDto> = { items: rows, total, page: query.page, pageSize: query.pageSize };
    return c.json(body);
  });

  r.put("/Station/:id", async (c) => {
    const b = tenant(c);
    const id = idParam(c, "id", "La estación");
    // Another company's (or no) station is a 404 before the body is looked at.
    const [own] = await db.select({ id: stations.id }).from(stations).where(and(eq(stations.id, id), eq(stations.businessId, b.id))).limit(1);
    if (!own) throw notFound("La estación");
    const { roamingPublished } = await readJson(c, roamingStationSchema);
    const [row] = await db
      .update(stations)
      .set({ roamingPublished })
      .where(and(eq(stations.id, id), eq(stations.businessId, b.id)))
      .returning({ id: stations.id, name: stations.name, city: stations.city, roamingPublished: stations.roamingPublished });
    if (!row) throw notFound("La estación");
    return c.json(row satisfies RoamingStationDto);
  });

  return r;
}
