// /Business/Tag and /Business/AccessGroup: CRUD, case-insensitive idTag uniqueness,
// scoping to the company, the group's rate and role, the audit entries, CSV export and import.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { auditLog, businessMembers, rfidTags } from "#db/schema";
import { createTenant, expectProblem, expectStatus, mintToken, openHarness, rateInput, stationInput, testBackends, type Harness, type Tenant } from "./helpers";

const csv = (lines: string[]) => `\uFEFF${lines.join("\r\n")}\r\n`;
const HEADER = "idTag;titular;email;vencimiento;bloqueada;grupo";

describe.each(testBackends())("RFID tags and access groups ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let other: Tenant;
  let stationId: string;
  let rateId: string;
  let groupId: string;
  let tagId: string;

  beforeAll(async () => {
    h = await openHarness(backend);
    t = await createTenant(h, "tag-owner");
    other = await createTenant(h, "tag-other");
    stationId = (await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput({ name: "Palermo" }) }), 201)).id;
    rateId = (await expectStatus(await h.call("POST", "/Business/Fees", { token: t.token, body: rateInput({ name: "Flota" }) }), 201)).id;
  });
  afterAll(() => h?.close());

  it("creates a group with stations and a rate, and lists it", async () => {
    const g = await expectStatus(await h.call("POST", "/Business/AccessGroup", { token: t.token, body: { name: "Flota", allStations: false, stationIds: [stationId], rateId } }), 201);
    groupId = g.id;
    expect(g).toMatchObject({ name: "Flota", allStations: false, stations: [{ id: stationId, name: "Palermo" }], rateId, rateName: "Flota", tagCount: 0 });
    const list = await expectStatus(await h.call("GET", "/Business/AccessGroup?q=flo", { token: t.token }), 200);
    expect(list.items.map((x: { id: string }) => x.id)).toEqual([groupId]);
  });

  it("validates a group: a name, stations unless all, the company's own stations and rate, a unique name", async () => {
    const p = await expectProblem(await h.call("POST", "/Business/AccessGroup", { token: t.token, body: { name: "" } }), 422);
    expect(p.errors).toEqual({ name: ["Este campo es obligatorio."] });
    const none = await expectProblem(await h.call("POST", "/Business/AccessGroup", { token: t.token, body: { name: "Vacío", allStations: false } }), 422);
    expect(none.errors).toEqual({ stationIds: ["Elegí al menos una estación, o marcá «Todas las estaciones»."] });
    const foreignStation = (await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: other.token, body: stationInput() }), 201)).id;
    const q = await expectProblem(await h.call("POST", "/Business/AccessGroup", { token: t.token, body: { name: "X", allStations: false, stationIds: [foreignStation] } }), 422);
    expect(q.errors).toMatchObject({ stationIds: ["Elegí estaciones de la lista."] });
    const dup = await expectProblem(await h.call("POST", "/Business/AccessGroup", { token: t.token, body: { name: "FLOTA" } }), 409);
    expect(dup.errors).toMatchObject({ name: ["Ya tenés un grupo con ese nombre."] });
  });

  it("creates a tag (201) and refuses the same idTag in another case (409), a long or spaced idTag, a bad e-mail or date (422)", async () => {
    const tag = await expectStatus(
      await h.call("POST", "/Business/Tag", { token: t.token, body: { idTag: "AbC123", holderName: "Ana Pérez", email: "ana@example.com", expiresOn: "2030-12-31", groupId } }),
      201,
    );
    tagId = tag.id;
    expect(tag).toMatchObject({ idTag: "AbC123", holderName: "Ana Pérez", email: "ana@example.com", expiresOn: "2030-12-31", blocked: false, groupId, groupName: "Flota" });
    const dup = await expectProblem(await h.call("POST", "/Business/Tag", { token: t.token, body: { idTag: "abc123", holderName: "Otra" } }), 409);
    expect(dup.errors).toEqual({ idTag: ["Ya tenés una tarjeta con ese idTag."] });
    const bad = await expectProblem(await h.call("POST", "/Business/Tag", { token: t.token, body: { idTag: "X".repeat(21), holderName: "", email: "no", expiresOn: "2030-02-30" } }), 422);
    expect(bad.errors).toMatchObject({
      idTag: ["Máximo 20 caracteres."],
      holderName: ["Este campo es obligatorio."],
      email: ["Ingresá un correo electrónico válido."],
      expiresOn: ["Ingresá una fecha válida."],
    });
    const spaced = await expectProblem(await h.call("POST", "/Business/Tag", { token: t.token, body: { idTag: "AB CD", holderName: "Ana" } }), 422);
    expect(spaced.errors?.idTag).toEqual(["Usá hasta 20 letras, números o signos, sin espacios ni acentos."]);
    // The same idTag in another company is another tag.
    await expectStatus(await h.call("POST", "/Business/Tag", { token: other.token, body: { idTag: "ABC123", holderName: "Otro" } }), 201);
  });

  it("lists with search and paging, updates, and records create/update/delete in the audit log", async () => {
    for (let i = 0; i < 3; i++) await expectStatus(await h.call("POST", "/Business/Tag", { token: t.token, body: { idTag: `PAGE${i}`, holderName: `Zoe ${i}` } }), 201);
    const page = await expectStatus(await h.call("GET", "/Business/Tag?q=zoe&pageSize=2&page=2", { token: t.token }), 200);
    expect(page).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page.items.map((x: { holderName: string }) => x.holderName)).toEqual(["Zoe 2"]);
    const byTag = await expectStatus(await h.call("GET", "/Business/Tag?q=abc1", { token: t.token }), 200);
    expect(byTag.items).toHaveLength(1);

    const updated = await expectStatus(await h.call("PUT", `/Business/Tag/${tagId}`, { token: t.token, body: { idTag: "ABC123", holderName: "Ana Pérez", blocked: true, groupId: null } }), 200);
    expect(updated).toMatchObject({ idTag: "ABC123", blocked: true, groupId: null, email: null, expiresOn: null });
    const clash = await expectProblem(await h.call("PUT", `/Business/Tag/${tagId}`, { token: t.token, body: { idTag: "page0", holderName: "Ana" } }), 409);
    expect(clash.errors?.idTag).toEqual(["Ya tenés una tarjeta con ese idTag."]);

    const extra = await expectStatus(await h.call("POST", "/Business/Tag", { token: t.token, body: { idTag: "GONE", holderName: "Borrar" } }), 201);
    await expectStatus(await h.call("DELETE", `/Business/Tag/${extra.id}`, { token: t.token }), 204);
    const entries = await h.db.select().from(auditLog).where(and(eq(auditLog.businessId, t.businessId), eq(auditLog.resourceType, "tag")));
    const actions = entries.map((e) => `${e.action} ${e.resourceLabel}`);
    expect(actions).toContain("tag.create AbC123 · Ana Pérez");
    expect(actions).toContain("tag.update ABC123 · Ana Pérez");
    expect(actions).toContain("tag.delete GONE · Borrar");
    const update = entries.find((e) => e.action === "tag.update" && e.resourceId === tagId)!;
    expect(update.changes).toMatchObject({ blocked: { before: false, after: true }, group: { before: "Flota", after: null } });
    const groupEntries = await h.db.select().from(auditLog).where(and(eq(auditLog.businessId, t.businessId), eq(auditLog.resourceType, "access_group")));
    expect(groupEntries.map((e) => e.action)).toContain("access_group.create");
  });

  it("another company's tag or group is a 404 for reading, changing and deleting", async () => {
    for (const [method, path, body] of [
      ["GET", `/Business/Tag/${tagId}`, undefined],
      ["PUT", `/Business/Tag/${tagId}`, { idTag: "HACK", holderName: "X" }],
      ["DELETE", `/Business/Tag/${tagId}`, undefined],
      ["GET", `/Business/AccessGroup/${groupId}`, undefined],
      ["PUT", `/Business/AccessGroup/${groupId}`, { name: "Hack" }],
      ["DELETE", `/Business/AccessGroup/${groupId}`, undefined],
    ] as const) {
      await expectProblem(await h.call(method, path, { token: other.token, body }), 404);
    }
    // Nor can it use the company's group on its own tag.
    const p = await expectProblem(await h.call("POST", "/Business/Tag", { token: other.token, body: { idTag: "MINE", holderName: "X", groupId } }), 422);
    expect(p.errors).toEqual({ groupId: ["Elegí un grupo de la lista."] });
    const list = await expectStatus(await h.call("GET", "/Business/Tag", { token: other.token }), 200);
    expect(JSON.stringify(list)).not.toContain("Ana Pérez");
  });

  it("a group with tags cannot be deleted (409); a technician edits groups but not their rate", async () => {
    await expectStatus(await h.call("PUT", `/Business/Tag/${tagId}`, { token: t.token, body: { idTag: "ABC123", holderName: "Ana Pérez", groupId } }), 200);
    const p = await expectProblem(await h.call("DELETE", `/Business/AccessGroup/${groupId}`, { token: t.token }), 409);
    expect(p.title).toBe("El grupo tiene tarjetas. Pasalas a otro grupo (o dejalas sin grupo) antes de eliminarlo.");

    await h.db.insert(businessMembers).values({ businessId: t.businessId, firebaseUid: "tag-tech", email: "tag-tech@example.com", role: "TECHNICIAN" });
    const tech = mintToken("tag-tech");
    // Same rate: allowed (renaming, stations).
    await expectStatus(await h.call("PUT", `/Business/AccessGroup/${groupId}`, { token: tech, body: { name: "Flota norte", allStations: true, rateId } }), 200);
    const refused = await expectProblem(await h.call("PUT", `/Business/AccessGroup/${groupId}`, { token: tech, body: { name: "Flota norte", allStations: true, rateId: null } }), 403);
    expect(refused.title).toBe("Tu rol no permite elegir la tarifa de un grupo: pedíselo a un administrador.");
    // A reader sees them and changes nothing.
    await h.db.insert(businessMembers).values({ businessId: t.businessId, firebaseUid: "tag-reader", email: "tag-reader@example.com", role: "READER" });
    const reader = mintToken("tag-reader");
    await expectStatus(await h.call("GET", "/Business/Tag", { token: reader }), 200);
    await expectProblem(await h.call("POST", "/Business/Tag", { token: reader, body: { idTag: "R", holderName: "R" } }), 403);
  });

  it("exports the tags as a ;-separated CSV with BOM that Excel in Spanish reads", async () => {
    const res = await h.call("GET", "/Business/Tag/Export.csv", { token: t.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="tarjetas-\d{8}\.csv"$/);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
    expect(text.startsWith("\uFEFF")).toBe(true);
    const lines = text.slice(1).trimEnd().split("\r\n");
    expect(lines[0]).toBe(HEADER);
    expect(lines).toContain("ABC123;Ana Pérez;;;no;Flota norte");
    expect(lines).toHaveLength(5);
  });

  it("exports a holder with commas and a formula as one quoted text cell (spreadsheets that split on ',')", async () => {
    const created = await expectStatus(await h.call("POST", "/Business/Tag", { token: t.token, body: { idTag: "COMMA1", holderName: "x,=1+1,y" } }), 201);
    const text = await (await h.call("GET", "/Business/Tag/Export.csv", { token: t.token })).text();
    expect(text).toContain('\r\nCOMMA1;"x,=1+1,y";;;no;\r\n');
    await expectStatus(await h.call("DELETE", `/Business/Tag/${created.id}`, { token: t.token }), 204);
  });

  it("an import with bad rows imports nothing and reports every bad row in Spanish", async () => {
    const before = await h.db.select().from(rfidTags).where(eq(rfidTags.businessId, t.businessId));
    const file = csv([
      HEADER,
      "NEW1;Bruno Díaz;bruno@example.com;31/12/2030;no;Flota norte",
      "NEW2;;no-es-correo;31/02/2030;quizás;",
      "new1;Repetido;;;;",
      "CON ESPACIO;Carla;;;sí;Grupo inexistente",
      "NEW3;Dora;;;;Inexistente",
    ]);
    const p = await expectProblem(await h.call("POST", "/Business/Tag/Import", { token: t.token, body: file, headers: { "Content-Type": "text/csv" } }), 422);
    expect(p.title).toBe("No importamos nada: 3 filas tienen errores. Corregilas y volvé a subir el archivo.");
    const one = await expectProblem(
      await h.call("POST", "/Business/Tag/Import", { token: t.token, body: csv([HEADER, "NEW9;;;;;"]), headers: { "Content-Type": "text/csv" } }),
      422,
    );
    expect(one.title).toBe("No importamos nada: 1 fila tiene errores. Corregila y volvé a subir el archivo.");
    expect(p.errors).toEqual({
      "rows[3]": ["titular: Este campo es obligatorio.", "email: Ingresá un correo electrónico válido.", "vencimiento: Ingresá la fecha como dd/mm/aaaa.", "bloqueada: Escribí «sí» o «no»."],
      "rows[4]": ["idTag: «new1» ya está en la fila 2."],
      "rows[5]": ["idTag: Usá hasta 20 letras, números o signos, sin espacios ni acentos."],
    });
    // Rows that pass the file checks still need the company's groups.
    const g = await expectProblem(await h.call("POST", "/Business/Tag/Import", { token: t.token, body: csv([HEADER, "NEW3;Dora;;;;Inexistente"]), headers: { "Content-Type": "text/csv" } }), 422);
    expect(g.errors).toEqual({ "rows[2]": ["grupo: No tenés un grupo llamado «Inexistente»."] });
    const missing = await expectProblem(await h.call("POST", "/Business/Tag/Import", { token: t.token, body: "idTag;titular\nA;B\n", headers: { "Content-Type": "text/csv" } }), 422);
    expect(missing.title).toBe("Faltan columnas en la primera fila: email, vencimiento, bloqueada, grupo. Deben ser idTag;titular;email;vencimiento;bloqueada;grupo.");
    const after = await h.db.select().from(rfidTags).where(eq(rfidTags.businessId, t.businessId));
    expect(after).toHaveLength(before.length);
  });

  it("a good file creates new tags and updates existing ones (any case) in one go, with one audit entry", async () => {
    const file = csv([HEADER, "NEW1;Bruno Díaz;bruno@example.com;31/12/2030;no;flota NORTE", "abc123;Ana P. Pérez;;01/02/2031;sí;", '"QU;OTE";"Eva ""la"" Gómez";;;no;']);
    const res = await expectStatus(await h.call("POST", "/Business/Tag/Import", { token: t.token, body: file, headers: { "Content-Type": "text/csv" } }), 200);
    expect(res).toEqual({ created: 2, updated: 1 });
    const rows = await h.db.select().from(rfidTags).where(eq(rfidTags.businessId, t.businessId));
    const ana = rows.find((r) => r.id === tagId)!;
    expect(ana).toMatchObject({ idTag: "abc123", holderName: "Ana P. Pérez", blocked: true, expiresOn: "2031-02-01", groupId: null });
    expect(rows.find((r) => r.idTag === "NEW1")).toMatchObject({ groupId, email: "bruno@example.com", expiresOn: "2030-12-31" });
    expect(rows.find((r) => r.idTag === "QU;OTE")?.holderName).toBe('Eva "la" Gómez');
    const entries = await h.db.select().from(auditLog).where(and(eq(auditLog.businessId, t.businessId), eq(auditLog.action, "tag.import")));
    expect(entries).toHaveLength(1);
    expect(entries[0].changes).toMatchObject({ created: { after: 2 }, updated: { after: 1 } });
    // JSON is not a CSV.
    await expectProblem(await h.call("POST", "/Business/Tag/Import", { token: t.token, body: { a: 1 } }), 415);
  });

  it("a station's authorization policy defaults to OPEN and can be KNOWN_TAGS", async () => {
    const s = await expectStatus(await h.call("GET", `/Business/ChargingStation/${stationId}`, { token: t.token }), 200);
    expect(s.authorizationPolicy).toBe("OPEN");
    const put = await expectStatus(await h.call("PUT", `/Business/ChargingStation/${stationId}`, { token: t.token, body: stationInput({ name: "Palermo", authorizationPolicy: "KNOWN_TAGS" }) }), 200);
    expect(put.authorizationPolicy).toBe("KNOWN_TAGS");
    const bad = await expectProblem(await h.call("PUT", `/Business/ChargingStation/${stationId}`, { token: t.token, body: stationInput({ authorizationPolicy: "NOBODY" }) }), 422);
    expect(bad.errors?.authorizationPolicy).toEqual(["Elegí quién puede cargar en la estación."]);
  });
});
