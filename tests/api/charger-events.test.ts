// GET /Business/Charger/:id/Event: the charger's events (charger_events) newest first, paged,
// kinds and statuses in Spanish, the latest device-model report summed up, scoped to the company.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargerEvents } from "#db/schema";
import { recordChargerEvents } from "#ocpp/store201";
import { chargerInput, createTenant, expectProblem, expectStatus, openHarness, testBackends, type Harness, type Tenant } from "./helpers";

const T0 = Date.parse("2026-11-20T12:00:00Z");
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

describe.each(testBackends())("charger events ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let other: Tenant;
  let chargerId: string;
  let quietId: string;

  beforeAll(async () => {
    h = await openHarness(backend);
    t = await createTenant(h, "ev-owner");
    other = await createTenant(h, "ev-other");
    chargerId = (await expectStatus(await h.call("POST", "/Business/Charger", { token: t.token, body: chargerInput({ ocppIdentity: "EV-1" }) }), 201)).id;
    quietId = (await expectStatus(await h.call("POST", "/Business/Charger", { token: t.token, body: chargerInput({ ocppIdentity: "EV-2", name: "Silencioso" }) }), 201)).id;
    const row = (kind: string, summary: string, minutes: number, payload: object = {}) => ({ businessId: t.businessId, chargerId, kind, summary, payload, at: at(minutes) });
    await h.db.insert(chargerEvents).values([
      row("SecurityEventNotification", "StartupOfTheDevice: cold boot", 0),
      row("FirmwareStatusNotification", "Installed", 5),
      row("DiagnosticsStatusNotification", "Uploaded", 6),
      row("LogStatusNotification", "SomethingNew", 7),
      row("NotifyEvent", "Connector (EVSE 1, conector 1).Problem = true [E42]", 8),
      // An older report, then the latest one in three parts (the second stored truncated).
      row("NotifyReport", "Informe 7, parte 0: 1 variable", 9, { requestId: 7, seqNo: 0, reportData: [{}] }),
      row("NotifyReport", "Informe 41, parte 0 (sigue): 2 variables", 20, { requestId: 41, seqNo: 0, tbc: true, reportData: [{}, {}] }),
      row("NotifyReport", "Informe 41, parte 1 (sigue): 300 variables", 21, { requestId: 41, seqNo: 1, tbc: true, truncated: true, head: "{", lengths: { reportData: 300 } }),
      row("NotifyReport", "Informe 41, parte 2: 3 variables", 22, { requestId: 41, seqNo: 2, reportData: [{}, {}, {}] }),
    ]);
    // 25 more, older, to page through.
    await h.db.insert(chargerEvents).values(Array.from({ length: 25 }, (_, i) => row("NotifyEvent", `Viejo ${i}`, -100 + i)));
  });
  afterAll(() => h?.close());

  const list = (id: string, query = "", token = t.token) => h.call("GET", `/Business/Charger/${id}/Event${query}`, { token });

  it("newest first, 20 a page by default, kinds and known statuses in Spanish", async () => {
    const page = await expectStatus(await list(chargerId), 200);
    expect(page).toMatchObject({ total: 34, page: 1, pageSize: 20 });
    expect(page.items).toHaveLength(20);
    expect(page.items.slice(0, 9).map((e: { kindLabel: string; summary: string }) => [e.kindLabel, e.summary])).toEqual([
      ["Informe", "Informe 41, parte 2: 3 variables"],
      ["Informe", "Informe 41, parte 1 (sigue): 300 variables"],
      ["Informe", "Informe 41, parte 0 (sigue): 2 variables"],
      ["Informe", "Informe 7, parte 0: 1 variable"],
      ["Aviso del equipo", "Connector (EVSE 1, conector 1).Problem = true [E42]"],
      ["Registros", "SomethingNew"],
      ["Diagnóstico", "Archivo subido (Uploaded)"],
      ["Firmware", "Firmware instalado (Installed)"],
      ["Seguridad", "StartupOfTheDevice: cold boot"],
    ]);
    expect(page.items[0]).toMatchObject({ kind: "NotifyReport", at: at(22).toISOString() });
    const times = page.items.map((e: { at: string }) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("pages on: the second page holds the rest, no repeats", async () => {
    const first = await expectStatus(await list(chargerId, "?pageSize=20"), 200);
    const second = await expectStatus(await list(chargerId, "?page=2&pageSize=20"), 200);
    expect(second.items).toHaveLength(14);
    const ids = [...first.items, ...second.items].map((e: { id: number }) => e.id);
    expect(new Set(ids).size).toBe(34);
    expect(second.items.at(-1).summary).toBe("Viejo 0");
  });

  it("sums up the latest report: its parts (a truncated one counted by its list length), variables, complete", async () => {
    const page = await expectStatus(await list(chargerId, "?pageSize=1"), 200);
    expect(page.lastReport).toEqual({ requestId: 41, parts: 3, variables: 305, complete: true, firstAt: at(20).toISOString(), lastAt: at(22).toISOString() });
  });

  it("a report still arriving is not complete; a charger without events has an empty page and no report", async () => {
    await h.db.insert(chargerEvents).values({ businessId: t.businessId, chargerId, kind: "NotifyReport", summary: "Informe 42, parte 0 (sigue): 1 variable", payload: { requestId: 42, seqNo: 0, tbc: true, reportData: [{}] }, at: at(30) });
    expect((await expectStatus(await list(chargerId, "?pageSize=1"), 200)).lastReport).toMatchObject({ requestId: 42, parts: 1, variables: 1, complete: false });
    expect(await expectStatus(await list(quietId), 200)).toEqual({ items: [], total: 0, page: 1, pageSize: 20, lastReport: null });
  });

  it("the store keeps a report part too large to store whole with its requestId, tbc and list length", async () => {
    const reportData = Array.from({ length: 400 }, (_, i) => ({ component: { name: `Componente${i}` }, variable: { name: "Valor" }, variableAttribute: [{ value: "x".repeat(40) }] }));
    await recordChargerEvents(h.db, { id: quietId, businessId: t.businessId, name: "Silencioso", ocppIdentity: "EV-2" }, [{ kind: "NotifyReport", summary: "Informe 5, parte 0: 400 variables", payload: { requestId: 5, generatedAt: at(40).toISOString(), seqNo: 0, reportData } }], at(40));
    const page = await expectStatus(await list(quietId), 200);
    expect(page.lastReport).toMatchObject({ requestId: 5, parts: 1, variables: 400, complete: true });
  });

  it("another company's charger, or an unknown one, is a 404; a bad page size is a 422 in Spanish", async () => {
    await expectProblem(await list(chargerId, "", other.token), 404);
    await expectProblem(await list(crypto.randomUUID()), 404);
    const bad = await expectProblem(await list(chargerId, "?pageSize=0"), 422);
    expect(bad.errors?.pageSize).toEqual(["Debe ser mayor o igual a 1."]);
  });
});
