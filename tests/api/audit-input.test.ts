// What the audit log keeps of a request is what the API validated, never the raw body: a body
// nested deep enough to break the database's JSON parser is refused before anything reads it, an
// unknown field (even one a database cannot store, such as a NUL character) is not recorded, and
// a command whose entry cannot be written is not sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "#infra/sql";
import type { OcppGateway } from "#api/env";
import { chargerInput, createTenant, expectProblem, expectStatus, openHarness, testBackends, type Harness, type Tenant } from "./helpers";

describe.each(testBackends())("audit of validated input ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let chargerId: string;
  const sent: string[] = [];
  const ocpp = {
    sendCommand: async (_charger: unknown, command: { command: string }) => {
      sent.push(command.command);
      return { command: command.command, outcome: "accepted", message: "El cargador aceptó el comando." };
    },
    live: { subscribe: () => () => {}, publish: () => {} },
  } as unknown as OcppGateway;

  beforeAll(async () => {
    h = await openHarness(backend, { accountRequestsPerMinute: 100_000, ocpp });
    t = await createTenant(h, `audit-input-${backend.name}`);
    chargerId = (await expectStatus(await h.call("POST", "/Business/Charger", { token: t.token, body: chargerInput({ name: "Auditado" }) }), 201)).id;
  });
  afterAll(() => h?.close());

  const commandEntries = async () =>
    queryRows<{ changes: Record<string, { after: unknown }> }>(h.db, sql`select changes from audit_log where business_id = ${t.businessId} and action = 'charger.command' order by at`);

  it("a body nested 2,000 deep → 400 in Spanish before anything reads it; the database keeps answering", async () => {
    const deep = "[".repeat(2000) + "]".repeat(2000);
    for (const path of [`/Business/Charger/${chargerId}/Diagnostics`, `/Business/Charger/${chargerId}/Command`, "/Business/ChargingStation"]) {
      const res = await h.call("POST", path, { token: t.token, body: `{"a":${deep}}`, headers: { "Content-Type": "application/json" } });
      const problem = await expectProblem(res, 400);
      expect(problem.title).toMatch(/anidad/);
    }
    // Nested objects as well as arrays, and a body whose strings only look nested are fine.
    const objects = '{"a":'.repeat(100) + "1" + "}".repeat(100);
    await expectProblem(await h.call("POST", `/Business/Charger/${chargerId}/Command`, { token: t.token, body: objects, headers: { "Content-Type": "application/json" } }), 400);
    const quoted = JSON.stringify({ command: "Reset", type: "Soft", comment: "[".repeat(500) });
    await expectStatus(await h.call("POST", `/Business/Charger/${chargerId}/Command`, { token: t.token, body: quoted, headers: { "Content-Type": "application/json" } }), 200);
    await expectStatus(await h.call("GET", "/Business/Charger", { token: t.token }), 200);
  });

  it("a NUL character, even in an unknown field: 422, the command is not sent and nothing is audited", async () => {
    const before = (await commandEntries()).length;
    const sentBefore = sent.length;
    const res = await h.call("POST", `/Business/Charger/${chargerId}/Command`, {
      token: t.token,
      body: '{"command":"Reset","type":"Soft","note":"\\u0000","deep":{"x":[1,2,{"y":"\\u0000"}]}}',
      headers: { "Content-Type": "application/json" },
    });
    const p = await expectProblem(res, 422);
    expect(JSON.stringify(p.errors)).toContain("caracteres no permitidos");
    expect(sent.length).toBe(sentBefore);
    expect((await commandEntries()).length).toBe(before);
  });

  it("an unknown field: the command is audited with its validated fields only", async () => {
    const before = (await commandEntries()).length;
    const res = await h.call("POST", `/Business/Charger/${chargerId}/Command`, {
      token: t.token,
      body: '{"command":"Reset","type":"Soft","note":"hola","deep":{"x":[1,2,{"y":"z"}]}}',
      headers: { "Content-Type": "application/json" },
    });
    await expectStatus(res, 200);
    const rows = await commandEntries();
    expect(rows.length).toBe(before + 1);
    const changes = rows.at(-1)!.changes;
    expect(changes.command).toEqual({ before: null, after: "Reset" });
    expect(changes.type).toEqual({ before: null, after: "Soft" });
    expect(changes.note).toBeUndefined();
    expect(changes.deep).toBeUndefined();
    expect(changes.outcome).toEqual({ before: null, after: "accepted" });
  });

  it("a command whose audit entry cannot be written is not sent, and the request fails", async () => {
    const sentBefore = sent.length;
    await h.db.execute(sql`alter table audit_log add constraint audit_refuses_commands check (action <> 'charger.command') not valid`);
    try {
      const res = await h.call("POST", `/Business/Charger/${chargerId}/Command`, { token: t.token, body: { command: "Reset", type: "Hard" } });
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(sent.length).toBe(sentBefore);
    } finally {
      await h.db.execute(sql`alter table audit_log drop constraint audit_refuses_commands`);
    }
  });
});
