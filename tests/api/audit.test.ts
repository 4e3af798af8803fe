// The audit log: every change of stations, chargers (and their commands), rates,
// payment accounts, members and the profile is recorded — who, role, what, the fields that
// changed before → after, when, from which address — per company, without secrets; a list with
// filters and a CSV export.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getTableColumns } from "drizzle-orm";
import { AUDITED_TABLES, auditSnapshot } from "#api/audit";
import { auditLog, businessMembers } from "#db/schema";
import { memoryInbox } from "#infra/mail";
import { chargerInput, createTenant, expectProblem, expectStatus, imageForm, mintToken, openHarness, PNG_1x1, rateInput, stationInput, testBackends, type Harness, type Tenant } from "./helpers";

describe.each(testBackends())("audit log ($name)", (backend) => {
  let h: Harness;
  let owner: Tenant;
  let other: Tenant;
  const inbox = memoryInbox();
  const tech = mintToken("audit-tech", { email: "tec@example.com" });

  beforeAll(async () => {
    h = await openHarness(backend, { mailer: inbox, accountRequestsPerMinute: 100_000 });
    owner = await createTenant(h, "audit-owner");
    other = await createTenant(h, "audit-other");
    await h.db.insert(businessMembers).values({ businessId: owner.businessId, firebaseUid: "audit-tech", email: "tec@example.com", role: "TECHNICIAN" });
  });
  afterAll(() => h?.close());

  /** The API as the dashboard calls it in-process: with the browser's address bound. */
  const call = (method: string, path: string, init: { token: string; body?: unknown }) =>
    h.api.fetch(
      new Request(`http://enchufa.test/api${path}`, {
        method,
        headers: { Authorization: `Bearer ${init.token}`, ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}) },
        body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
      }),
      { clientIp: "::ffff:203.0.113.9" },
    );
  const entries = async (query = "") => (await expectStatus(await h.call("GET", `/Business/Audit${query}`, { token: owner.token }), 200)).items as {
    action: string;
    actorEmail: string;
    actorRole: string;
    resourceLabel: string;
    resourceId: string;
    changes: Record<string, { before: unknown; after: unknown }>;
    ip: string | null;
  }[];

  it("stations: creation with its fields, an edit with only the changed ones (before → after), deletion; who, role and address", async () => {
    const station = await expectStatus(await call("POST", "/Business/ChargingStation", { token: owner.token, body: stationInput({ name: "Audit Centro" }) }), 201);
    await expectStatus(await call("PUT", `/Business/ChargingStation/${station.id}`, { token: tech, body: stationInput({ name: "Audit Centro 2", published: false }) }), 200);
    // Saved without changes: nothing to record.
    await expectStatus(await call("PUT", `/Business/ChargingStation/${station.id}`, { token: tech, body: stationInput({ name: "Audit Centro 2", published: false }) }), 200);
    await expectStatus(await call("DELETE", `/Business/ChargingStation/${station.id}`, { token: owner.token }), 204);
    const [deleted, updated, created] = await entries("?resource=station");
    expect(created).toMatchObject({ action: "station.create", actorEmail: "audit-owner@example.com", actorRole: "OWNER", resourceLabel: "Audit Centro", resourceId: station.id, ip: "203.0.113.9" });
    expect(created.changes.name).toEqual({ before: null, after: "Audit Centro" });
    expect(created.changes.services).toEqual({ before: null, after: ["CAFE", "WIFI"] });
    expect(updated).toMatchObject({ action: "station.update", actorEmail: "tec@example.com", actorRole: "TECHNICIAN", resourceLabel: "Audit Centro 2" });
    expect(updated.changes).toEqual({ name: { before: "Audit Centro", after: "Audit Centro 2" }, published: { before: true, after: false } });
    expect(deleted).toMatchObject({ action: "station.delete", resourceLabel: "Audit Centro 2" });
    expect(deleted.changes.name).toEqual({ before: "Audit Centro 2", after: null });
    expect((await entries("?resource=station")).length).toBe(3);
  });

  it("chargers: edits, a new OCPP password and commands are recorded without any secret", async () => {
    const station = await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: owner.token, body: stationInput({ name: "Audit Estación" }) }), 201);
    const created = await expectStatus(await call("POST", "/Business/Charger", { token: tech, body: chargerInput({ name: "Audit CP", stationId: station.id }) }), 201);
    const rotated = await expectStatus(await call("POST", `/Business/Charger/${created.id}/RotatePassword`, { token: tech }), 200);
    await expectStatus(await call("POST", `/Business/Charger/${created.id}/Command`, { token: tech, body: { command: "Reset", type: "Soft" } }), 200);
    const list = await entries("?resource=charger");
    expect(list.map((e) => e.action)).toEqual(["charger.command", "charger.password", "charger.create"]);
    expect(list[0]).toMatchObject({ resourceLabel: "Audit CP", changes: { command: { before: null, after: "Reset" }, type: { before: null, after: "Soft" }, outcome: { before: null, after: "offline" } } });
    expect(list[1].changes).toEqual({});
    expect(list[2].changes.station).toEqual({ before: null, after: "Audit Estación" });
    const all = JSON.stringify(await h.db.select().from(auditLog));
    for (const secret of [created.ocppPassword, rotated.ocppPassword]) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/ocppPassword|passwordHash|\$scrypt|argon/i);
  });

  it("rates and payment accounts: the changed prices; the provider, label and last 4 — never the credentials", async () => {
    const rate = await expectStatus(await h.call("POST", "/Business/Fees", { token: owner.token, body: rateInput({ name: "Audit Tarifa" }) }), 201);
    await expectStatus(await h.call("PUT", `/Business/Fees/${rate.id}`, { token: owner.token, body: rateInput({ name: "Audit Tarifa", pricePerKwhCents: 40000 }) }), 200);
    const [update] = await entries("?resource=rate");
    expect(update).toMatchObject({ action: "rate.update", changes: { pricePerKwhCents: { before: 35000, after: 40000 } } });

    await expectStatus(await h.call("PUT", "/MercadoPago/BusinessUser", { token: owner.token, body: { publicKey: "APP_USR-audit-public", accessToken: "APP_USR-audit-secret-9876" } }), 200);
    await expectStatus(await h.call("PUT", "/Pagos360/BusinessUser", { token: owner.token, body: { accountName: "Cuenta 360", apiKey: "p360-audit-secret-key-5555" } }), 200);
    await expectStatus(await h.call("DELETE", "/Pagos360/BusinessUser", { token: owner.token }), 200);
    const payments = await entries("?resource=payment_account");
    expect(payments.map((e) => e.action)).toEqual(["payment_account.disconnect", "payment_account.connect", "payment_account.connect"]);
    expect(payments[2]).toMatchObject({ resourceLabel: "Mercado Pago", changes: { provider: { after: "MERCADOPAGO" }, last4: { before: null, after: "9876" }, status: { after: "CONNECTED" } } });
    const all = JSON.stringify(await h.db.select().from(auditLog));
    for (const secret of ["APP_USR-audit-secret", "APP_USR-audit-public", "p360-audit-secret-key", "credentials"]) expect(all).not.toContain(secret);
  });

  it("the profile, its photo and the team: members and invitations", async () => {
    await expectStatus(await h.call("PATCH", "/Business/BusinessUser/Update", { token: owner.token, body: { phoneNumber: "+54 11 4000-0000" } }), 200);
    await expectStatus(await h.call("PATCH", "/Business/Images/ProfilePicture", { token: owner.token, body: imageForm(PNG_1x1) }), 200);
    const [photo, phone] = await entries("?resource=profile");
    expect(phone).toMatchObject({ action: "profile.update", changes: { phoneNumber: { before: "+54 11 5555-0000", after: "+54 11 4000-0000" } } });
    expect(photo.action).toBe("profile.photo");
    expect(photo.changes.photoUrl.after).toMatch(/^\/api\/images\/[0-9a-f]{64}\.png$/);

    const inv = await expectStatus(await h.call("POST", "/Business/Invitation", { token: owner.token, body: { email: "nueva@example.com", role: "BILLING" } }), 201);
    await expectStatus(await h.call("POST", `/Business/Invitation/${inv.id}/Resend`, { token: owner.token }), 200);
    const token = /token=([A-Za-z0-9_-]+)/.exec(inbox.messages[0].text)![1];
    const joined = await expectStatus(await h.call("POST", "/Business/Member", { token: mintToken("audit-new", { email: "nueva@example.com" }), body: { token } }), 201);
    await expectStatus(await h.call("PATCH", `/Business/Member/${joined.memberId}`, { token: owner.token, body: { role: "READER" } }), 200);
    await expectStatus(await h.call("DELETE", `/Business/Member/${joined.memberId}`, { token: owner.token }), 204);
    const team = [...(await entries("?resource=member")), ...(await entries("?resource=invitation"))];
    expect(team.map((e) => e.action)).toEqual(["member.remove", "member.update", "member.join", "invitation.resend", "invitation.create"]);
    expect(team[0]).toMatchObject({ resourceLabel: "nueva@example.com", changes: { role: { before: "READER", after: null } } });
    expect(team[1].changes).toEqual({ role: { before: "BILLING", after: "READER" } });
    expect(team[2]).toMatchObject({ actorEmail: "nueva@example.com", actorRole: "BILLING" });
    expect(team[4]).toMatchObject({ changes: { email: { after: "nueva@example.com" }, role: { after: "BILLING" }, status: { after: "Pendiente" } } });
    expect(JSON.stringify(await h.db.select().from(auditLog))).not.toContain(token);
  });

  it("filters by person and dates, exports CSV in Spanish, and stays within the company", async () => {
    const byTech = await entries("?actor=TEC@example.com");
    expect(byTech.length).toBeGreaterThan(0);
    expect(byTech.every((e) => e.actorEmail === "tec@example.com")).toBe(true);
    const page = await expectStatus(await h.call("GET", "/Business/Audit?pageSize=2", { token: owner.token }), 200);
    expect(page.items).toHaveLength(2);
    expect(page.total).toBeGreaterThan(10);
    expect(page.actors).toEqual(["audit-owner@example.com", "nueva@example.com", "tec@example.com"]);
    expect((await entries("?from=2000-01-01&to=2000-01-02")).length).toBe(0);
    await expectProblem(await h.call("GET", "/Business/Audit?from=2030-01-02&to=2030-01-01", { token: owner.token }), 422);

    const csv = await h.call("GET", "/Business/Audit/Export.csv?resource=station", { token: owner.token });
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="auditoria-\d{8}\.csv"$/);
    const text = await csv.text();
    const lines = text.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(lines[0]).toBe("Fecha;Persona;Rol;Acción;Sección;Recurso;Cambios;Dirección IP");
    expect(lines).toHaveLength(1 + 4);
    // The date holds a comma ("28/11/26, 9:40:50 a. m."): quoted, so it stays one cell anywhere.
    expect(lines[1]).toMatch(/^"\d{2}\/\d{2}\/\d{2}, [^"]+";/);
    expect(text).toContain("tec@example.com;Técnico;Modificó la estación;Estación;Audit Centro 2;Nombre: Audit Centro → Audit Centro 2 | Publicada: Sí → No;203.0.113.9");

    // Another company sees none of it, and a technician may not read the log.
    const theirs = await expectStatus(await h.call("GET", "/Business/Audit", { token: other.token }), 200);
    expect(theirs.items.every((e: { actorEmail: string }) => e.actorEmail === "audit-other@example.com")).toBe(true);
    expect((await expectProblem(await h.call("GET", "/Business/Audit", { token: tech }), 403)).title).toBe("Tu rol (Técnico) no permite ver la auditoría.");
  });

  it("stations: the QR payment settings are recorded when they change, and read as the form names them", async () => {
    const station = await expectStatus(await call("POST", "/Business/ChargingStation", { token: owner.token, body: stationInput({ name: "Audit QR" }) }), 201);
    await expectStatus(await call("PUT", `/Business/ChargingStation/${station.id}`, { token: owner.token, body: stationInput({ name: "Audit QR", qrPaymentEnabled: true, qrMinCents: 250_000 }) }), 200);
    const [updated] = await entries("?resource=station");
    expect(updated).toMatchObject({ action: "station.update", resourceId: station.id });
    expect(updated.changes.qrPaymentEnabled).toEqual({ before: false, after: true });
    expect(updated.changes.qrMinCents).toMatchObject({ after: 250_000 });
    const csv = await (await h.call("GET", "/Business/Audit/Export.csv?resource=station", { token: owner.token })).text();
    expect(csv).toContain("Cobrar con QR: No → Sí");
    expect(csv).toMatch(/Pago mínimo: \$\s[\d.]+,00 → \$\s2\.500,00/);
    await expectStatus(await call("DELETE", `/Business/ChargingStation/${station.id}`, { token: owner.token }), 204);
  });

  it("each audited table's snapshot holds every column that is not left out on purpose", async () => {
    const station = await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: owner.token, body: stationInput({ name: "Audit Cobertura" }) }), 201);
    const rate = await expectStatus(await h.call("POST", "/Business/Fees", { token: owner.token, body: rateInput({ name: "Audit Cobertura" }) }), 201);
    const charger = await expectStatus(await h.call("POST", "/Business/Charger", { token: owner.token, body: chargerInput({ name: "Audit Cobertura", stationId: station.id }) }), 201);
    const group = await expectStatus(await h.call("POST", "/Business/AccessGroup", { token: owner.token, body: { name: "Audit Cobertura", allStations: true, rateId: rate.id, billingCuit: "30500010912", billingName: "Cobertura SA", billingTaxCondition: "EXENTO", billingMonthly: true } }), 201);
    const tag = await expectStatus(await h.call("POST", "/Business/Tag", { token: owner.token, body: { idTag: "COBERTURA", holderName: "Ana", groupId: group.id } }), 201);
    // Connectors as the charger's form names them, not their stored codes.
    const chargerSnapshot = await auditSnapshot(h.db, owner.businessId, "charger", charger.id);
    expect(chargerSnapshot?.connectors).toEqual(["1: Tipo 2 · Toma · AC trifásica · 22 kW · sin tarifa", "2: CCS2 (Combo 2) · Cable · DC · 50 kW · sin tarifa"]);
    const ids: Partial<Record<string, string>> = { station: station.id, rate: rate.id, charger: charger.id, access_group: group.id, tag: tag.id, profile: owner.businessId };
    for (const [name, spec] of Object.entries(AUDITED_TABLES)) {
      const id = ids[spec.resource];
      if (!id) continue; // members, invitations, accounts, partners: covered by their own entries' tests
      const snapshot = await auditSnapshot(h.db, owner.businessId, spec.resource, id);
      const recorded = spec.recorded as Record<string, string>;
      const missing = Object.keys(getTableColumns(spec.table))
        .filter((c) => !(c in (spec.notRecorded as Record<string, string>)))
        .map((c) => recorded[c] ?? c)
        .filter((field) => !(field in (snapshot ?? {})));
      expect({ table: name, missing }).toEqual({ table: name, missing: [] });
    }
  });
});
