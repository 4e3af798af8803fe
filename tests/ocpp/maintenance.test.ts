// A charger's maintenance against the started central system, with ocpp-rpc chargers
// in both protocols, on PGlite and (with TEST_DATABASE_URL) PostgreSQL: its recent OCPP messages
// (both directions, a ring of 1,000, secrets redacted, CSV), firmware updates (one charger and the
// whole model, with their progress) and diagnostics uploaded to Enchufá with a one-time URL.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargerDiagnostics, chargers, ocppMessages } from "#db/schema";
import { createMessageLog, OCPP_MESSAGES_KEPT } from "#ocpp/message-log";
import { chargerInput, createTenant, expectStatus } from "../api/helpers";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, eventually, openOcppHarness, type Fixture, type OcppHarness } from "./harness";

const V201 = { protocols: ["ocpp2.0.1"] };

describe.each(testBackends())("a charger's maintenance ($name)", (backend) => {
  let h: OcppHarness;
  beforeAll(async () => {
    // The ring test sends more calls than a charger's budget allows (ocpp/limits.ts).
    h = await openOcppHarness(backend, { commandTimeoutMs: 600, callLimit: { burst: 10_000, perSecond: 10_000, closeAfterRefused: 200 } });
  });
  afterAll(() => h.close());

  const chargerRow = async (id: string) => (await h.db.select().from(chargers).where(eq(chargers.id, id)))[0];
  const online = (f: Fixture) => eventually(() => chargerRow(f.chargerId), (r) => r.online);
  type MessagePage = { items: { direction: string; messageType: number; action: string | null; payload: string; messageTypeLabel: string; directionLabel: string }[]; total: number };
  const messages = async (f: Fixture, query = "") => (await expectStatus(await h.call("GET", `/Business/Charger/${f.chargerId}/Message${query}`, { token: f.tenant.token }), 200)) as MessagePage;

  describe("recent OCPP messages", () => {
    it("keeps both directions with the action each answer belongs to, newest first, filterable, as CSV; another company sees nothing", async () => {
      const f = await createFixture(h, `log-both-${backend.name}`);
      const cli = chargerClient(h, f);
      cli.handle("Reset", async () => ({ status: "Accepted" }));
      await cli.connect();
      await cli.call("BootNotification", { chargePointVendor: "ABB", chargePointModel: "Terra AC" });
      await expectStatus(await h.call("POST", `/Business/Charger/${f.chargerId}/Command`, { token: f.tenant.token, body: { command: "Reset", type: "Soft" } }), 200);
      await h.central.flushMessageLog();

      const page = await messages(f);
      expect(page.items.map((m) => [m.direction, m.messageType, m.action])).toEqual([
        ["IN", 3, "Reset"],
        ["OUT", 2, "Reset"],
        ["OUT", 3, "BootNotification"],
        ["IN", 2, "BootNotification"],
      ]);
      expect(page.items[3]).toMatchObject({ directionLabel: "Recibido", messageTypeLabel: "Llamada" });
      expect(JSON.parse(page.items[3].payload)).toEqual({ chargePointVendor: "ABB", chargePointModel: "Terra AC" });
      expect(JSON.parse(page.items[1].payload)).toEqual({ type: "Soft" });
      expect((await messages(f, "?direction=OUT")).items.map((m) => m.action)).toEqual(["Reset", "BootNotification"]);
      expect((await h.call("GET", `/Business/Charger/${f.chargerId}/Message?direction=SIDEWAYS`, { token: f.tenant.token })).status).toBe(422);

      const csv = await h.call("GET", `/Business/Charger/${f.chargerId}/Message/Export.csv`, { token: f.tenant.token });
      expect(csv.status).toBe(200);
      expect(csv.headers.get("content-disposition")).toContain(`mensajes-ocpp-${f.identity}.csv`);
      const bytes = new Uint8Array(await csv.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8 BOM: Excel in Spanish reads the accents
      const text = new TextDecoder().decode(bytes);
      expect(text.startsWith("Fecha y hora;Sentido;Tipo;Acción;Id del mensaje;Contenido\r\n")).toBe(true);
      expect(text.trim().split("\r\n")).toHaveLength(5);
      expect(text).toContain(";Enviado;Llamada;Reset;");

      const other = await createTenant(h, `log-other-${backend.name}`);
      expect((await h.call("GET", `/Business/Charger/${f.chargerId}/Message`, { token: other.token })).status).toBe(404);
      expect((await h.call("GET", `/Business/Charger/${f.chargerId}/Message/Export.csv`, { token: other.token })).status).toBe(404);
      await cli.close();
    });

    it("never stores a password: the rotation's AuthorizationKey (1.6) and BasicAuthPassword (2.0.1) are redacted", async () => {
      for (const protocols of [["ocpp1.6"], ["ocpp2.0.1"]]) {
        const f = await createFixture(h, `log-secret-${protocols[0]}-${backend.name}`);
        const cli = chargerClient(h, f, { protocols });
        cli.handle("ChangeConfiguration", async () => ({ status: "Accepted" }));
        cli.handle("SetVariables", async ({ params }) => ({
          setVariableResult: (params as { setVariableData: { component: unknown; variable: unknown }[] }).setVariableData.map((d) => ({ attributeStatus: "Accepted", component: d.component, variable: d.variable })),
        }));
        await cli.connect();
        await online(f);
        const rotated = await expectStatus(await h.call("POST", `/Business/Charger/${f.chargerId}/RotatePassword`, { token: f.tenant.token }), 200);
        expect(rotated.passwordDelivery).toBe("charger");
        await h.central.flushMessageLog();
        const stored = await h.db.select().from(ocppMessages).where(eq(ocppMessages.chargerId, f.chargerId));
        const call = stored.find((m) => m.direction === "OUT" && m.messageType === 2);
        expect(call?.action).toBe(protocols[0] === "ocpp1.6" ? "ChangeConfiguration" : "SetVariables");
        expect(call?.payload).toContain("•••");
        expect(stored.map((m) => m.payload).join("\n")).not.toContain(rotated.ocppPassword);
        await cli.close();
      }
    });

    it("holds the last 1,000 per charger: older messages give way to newer ones", async () => {
      const f = await createFixture(h, `log-ring-${backend.name}`);
      const cli = chargerClient(h, f);
      await cli.connect();
      await cli.call("BootNotification", { chargePointVendor: "ABB", chargePointModel: "Terra AC" });
      await h.central.flushMessageLog();
      // 520 heartbeats and their answers: 1,040 frames after the boot's two.
      for (let i = 0; i < 520; i++) {
        await cli.call("Heartbeat", {});
        if (i % 100 === 99) await h.central.flushMessageLog();
      }
      await h.central.flushMessageLog();
      const rows = await h.db.select().from(ocppMessages).where(eq(ocppMessages.chargerId, f.chargerId));
      expect(rows).toHaveLength(OCPP_MESSAGES_KEPT);
      expect(rows.some((m) => m.action === "BootNotification")).toBe(false);
      const seqs = rows.map((m) => m.seq).sort((a, b) => a - b);
      expect(seqs[seqs.length - 1] - seqs[0]).toBe(OCPP_MESSAGES_KEPT - 1);
      expect((await messages(f, "?pageSize=100&page=10")).items).toHaveLength(100);
      expect((await messages(f)).total).toBe(OCPP_MESSAGES_KEPT);
      await cli.close();
    });

    it("a deleted charger takes its messages with it (no foreign key, a trigger); connected, it is disconnected at the next flush and leaves nothing behind", async () => {
      const f = await createFixture(h, `log-deleted-${backend.name}`);
      const kept = await createFixture(h, `log-kept-${backend.name}`);
      const cli = chargerClient(h, f);
      const other = chargerClient(h, kept);
      await cli.connect();
      await other.connect();
      await cli.call("BootNotification", { chargePointVendor: "ABB", chargePointModel: "Terra AC" });
      await other.call("BootNotification", { chargePointVendor: "ABB", chargePointModel: "Terra AC" });
      await h.central.flushMessageLog();
      const count = async (id: string) => (await h.db.select().from(ocppMessages).where(eq(ocppMessages.chargerId, id))).length;
      expect(await count(f.chargerId)).toBe(2);

      await expectStatus(await h.call("DELETE", `/Business/Charger/${f.chargerId}`, { token: f.tenant.token }), 204);
      expect(await count(f.chargerId)).toBe(0);
      expect(await count(kept.chargerId)).toBe(2);

      // Still connected: what it sends now is dropped with its socket when its sign of life finds no charger.
      const closed = new Promise<{ code: number }>((resolve) => cli.once("close", resolve));
      await cli.call("Heartbeat", {});
      await other.call("Heartbeat", {});
      await h.central.flushSignsOfLife();
      expect((await closed).code).toBe(1008);
      await h.central.flushMessageLog();
      expect(await count(f.chargerId)).toBe(0);
      expect(await count(kept.chargerId)).toBe(4);
      await other.close();
    });
    it("frames a flush already took when the charger was deleted are removed once it has written them (the delete trigger ran before they landed)", async () => {
      const f = await createFixture(h, `log-raced-${backend.name}`);
      const businessId = (await chargerRow(f.chargerId)).businessId;
      const log = createMessageLog(h.db, () => new Date());
      const count = async () => (await h.db.select().from(ocppMessages).where(eq(ocppMessages.chargerId, f.chargerId))).length;
      log.note({ id: f.chargerId, businessId }, '[2,"hb-1","Heartbeat",{}]', false, new Map());
      log.note({ id: f.chargerId, businessId }, '[3,"hb-1",{"currentTime":"2026-11-27T03:00:00Z"}]', true, new Map());
      await h.db.delete(chargers).where(eq(chargers.id, f.chargerId));
      // The timer's flush takes the batch now; its insert runs after the delete and its trigger.
      const flushing = log.flush();
      await log.discard([f.chargerId]);
      await flushing;
      expect(await count()).toBe(0);
      // Without the discard, the same frames would have stayed behind.
      log.note({ id: f.chargerId, businessId }, '[2,"hb-2","Heartbeat",{}]', false, new Map());
      await log.flush();
      expect(await count()).toBe(1);
      await log.discard([f.chargerId]);
      expect(await count()).toBe(0);
    });
  });

  describe("firmware", () => {
    it("1.6: UpdateFirmware with the URL and date, progress from FirmwareStatusNotification; a bad URL is refused on its field", async () => {
      const f = await createFixture(h, `fw-16-${backend.name}`);
      const cli = chargerClient(h, f);
      const asked: unknown[] = [];
      cli.handle("UpdateFirmware", async ({ params }) => {
        asked.push(params);
        return {};
      });
      await cli.connect();
      await online(f);
      const bad = await h.call("POST", `/Business/Charger/${f.chargerId}/Firmware`, { token: f.tenant.token, body: { location: "file:///etc/passwd" } });
      expect(bad.status).toBe(422);
      expect((await bad.json()).errors.location).toEqual(["Ingresá la dirección del firmware (http, https, ftp o ftps)."]);

      const body = await expectStatus(
        await h.call("POST", `/Business/Charger/${f.chargerId}/Firmware`, { token: f.tenant.token, body: { location: "https://fw.example.com/terra-1.8.2.bin", retrieveAt: "2030-01-02T03:00:00Z" } }),
        200,
      );
      expect(body).toMatchObject({ outcome: "accepted", message: "El cargador aceptó «Actualizar firmware»: informa el avance en «Firmware y diagnóstico»." });
      expect(asked).toEqual([{ location: "https://fw.example.com/terra-1.8.2.bin", retrieveDate: "2030-01-02T03:00:00.000Z" }]);
      let state = await expectStatus(await h.call("GET", `/Business/Charger/${f.chargerId}/Firmware`, { token: f.tenant.token }), 200);
      expect(state.charger).toMatchObject({ location: "https://fw.example.com/terra-1.8.2.bin", status: null, statusLabel: "Sin informar" });

      await cli.call("FirmwareStatusNotification", { status: "Downloading" });
      await cli.call("FirmwareStatusNotification", { status: "Installed" });
      state = await expectStatus(await h.call("GET", `/Business/Charger/${f.chargerId}/Firmware`, { token: f.tenant.token }), 200);
      expect(state.charger).toMatchObject({ status: "Installed", statusLabel: "Instalado" });
      expect(state.model).toMatchObject({ model: "Terra AC W22" });
      await cli.close();
    });

    it("the whole model: each charger in its protocol, the answers per charger (accepted, refused, offline)", async () => {
      const f = await createFixture(h, `fw-model-${backend.name}`);
      const station = (await h.db.select({ stationId: chargers.stationId }).from(chargers).where(eq(chargers.id, f.chargerId)))[0].stationId;
      const second = await expectStatus(await h.call("POST", "/Business/Charger", { token: f.tenant.token, body: chargerInput({ name: "Cargador 2", stationId: station }) }), 201);
      const third = await expectStatus(await h.call("POST", "/Business/Charger", { token: f.tenant.token, body: chargerInput({ name: "Cargador 3", stationId: station }) }), 201);
      await expectStatus(await h.call("POST", "/Business/Charger", { token: f.tenant.token, body: chargerInput({ name: "Otro modelo", model: "Terra DC", stationId: station }) }), 201);
      const a = chargerClient(h, f);
      a.handle("UpdateFirmware", async () => ({}));
      const b = chargerClient(h, { identity: second.ocppIdentity, password: second.ocppPassword }, V201);
      const asked201: unknown[] = [];
      b.handle("UpdateFirmware", async ({ params }) => {
        asked201.push(params);
        return { status: "Rejected" };
      });
      await a.connect();
      await b.connect();
      await online(f);
      await eventually(() => chargerRow(second.id), (r) => r.online);

      const body = await expectStatus(await h.call("POST", `/Business/Charger/${f.chargerId}/Firmware`, { token: f.tenant.token, body: { location: "https://fw.example.com/x.bin", allOfModel: true } }), 200);
      expect(body.outcome).toBe("partial");
      expect(body.message).toBe("Aceptaron «Actualizar firmware» 1 de 3 cargadores del modelo: mirá el detalle por cargador.");
      expect(Object.fromEntries(body.results.map((r: { name: string; outcome: string }) => [r.name, r.outcome]))).toEqual({ "Cargador 1": "accepted", "Cargador 2": "rejected", "Cargador 3": "offline" });
      expect(asked201).toMatchObject([{ firmware: { location: "https://fw.example.com/x.bin" } }]);
      const state = await expectStatus(await h.call("GET", `/Business/Charger/${third.id}/Firmware`, { token: f.tenant.token }), 200);
      expect(state.model.chargers.map((c: { name: string; location: string | null }) => [c.name, c.location])).toEqual([
        ["Cargador 1", "https://fw.example.com/x.bin"],
        ["Cargador 2", null],
        ["Cargador 3", null],
      ]);
      await a.close();
      await b.close();
    });
  });

  describe("diagnostics", () => {
    const upload = (path: string, body: BodyInit, method = "PUT", headers: Record<string, string> = {}) =>
      h.api.fetch(new Request(`http://enchufa.test${path}`, { method, body, headers }));

    it("1.6: GetDiagnostics with a one-time URL; the charger uploads there, the operator downloads it; the URL works once", async () => {
      const f = await createFixture(h, `diag-16-${backend.name}`);
      const cli = chargerClient(h, f);
      let location = "";
      cli.handle("GetDiagnostics", async ({ params }) => {
        location = (params as { location: string }).location;
        return { fileName: "diag-2030.zip" };
      });
      await cli.connect();
      await online(f);
      const asked = await expectStatus(
        await h.call("POST", `/Business/Charger/${f.chargerId}/Diagnostics`, { token: f.tenant.token, body: { from: "2030-01-01T00:00:00Z", to: "2030-01-02T00:00:00Z" } }),
        200,
      );
      expect(asked).toMatchObject({ outcome: "accepted", fileName: "diag-2030.zip", diagnostics: { status: "REQUESTED", fileName: "diag-2030.zip" } });
      const url = new URL(location);
      expect(url.origin).toBe("https://enchufa.test");
      expect(url.pathname).toMatch(/^\/api\/ChargerUpload\/[0-9a-f-]{36}\/[A-Za-z0-9_-]{32}$/);

      await cli.call("DiagnosticsStatusNotification", { status: "Uploading" });
      expect((await expectStatus(await h.call("GET", `/Business/Charger/${f.chargerId}/Diagnostics`, { token: f.tenant.token }), 200)).items[0]).toMatchObject({ status: "UPLOADING", statusLabel: "Subiendo" });

      const wrong = url.pathname.replace(/\/[^/]+$/, "/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
      expect((await upload(wrong, "x")).status).toBe(401);
      const bytes = new Uint8Array([80, 75, 3, 4, 0, 1, 2, 3, 250, 251]);
      expect((await upload(`${url.pathname}/diag-2030.zip`, new Blob([bytes]))).status).toBe(201);
      expect((await upload(url.pathname, new Blob([bytes]))).status).toBe(401); // once
      await cli.call("DiagnosticsStatusNotification", { status: "Uploaded" });

      const list = await expectStatus(await h.call("GET", `/Business/Charger/${f.chargerId}/Diagnostics`, { token: f.tenant.token }), 200);
      expect(list.items[0]).toMatchObject({ status: "UPLOADED", statusLabel: "Recibido", sizeBytes: 10, fileName: "diag-2030.zip", chargerStatus: "Uploaded" });
      const file = await h.call("GET", `/Business/Charger/${f.chargerId}/Diagnostics/${list.items[0].id}/File`, { token: f.tenant.token });
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe("application/octet-stream");
      expect(file.headers.get("content-disposition")).toBe('attachment; filename="diag-2030.zip"');
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
      const other = await createTenant(h, `diag-other-${backend.name}`);
      expect((await h.call("GET", `/Business/Charger/${f.chargerId}/Diagnostics/${list.items[0].id}/File`, { token: other.token })).status).toBe(404);
      await cli.close();
    });

    it("2.0.1: GetLog; LogStatusNotification by requestId; a failed upload; a multipart POST; the size cap", async () => {
      const f = await createFixture(h, `diag-201-${backend.name}`);
      const cli = chargerClient(h, f, V201);
      const asked: { requestId: number; log: { remoteLocation: string } }[] = [];
      cli.handle("GetLog", async ({ params }) => {
        asked.push(params as (typeof asked)[number]);
        return { status: "Accepted", filename: "log.tar.gz" };
      });
      await cli.connect();
      await online(f);
      const first = await expectStatus(await h.call("POST", `/Business/Charger/${f.chargerId}/Diagnostics`, { token: f.tenant.token, body: {} }), 200);
      expect(first).toMatchObject({ outcome: "accepted", diagnostics: { status: "REQUESTED" } });
      expect(asked[0]).toMatchObject({ logType: "DiagnosticsLog" });
      await cli.call("LogStatusNotification", { status: "UploadFailure", requestId: asked[0].requestId });
      const second = await expectStatus(await h.call("POST", `/Business/Charger/${f.chargerId}/Diagnostics`, { token: f.tenant.token, body: {} }), 200);
      const path = new URL(asked[1].log.remoteLocation).pathname;
      expect((await upload(path, "x", "PUT", { "content-length": String(21 * 1024 * 1024) })).status).toBe(413);
      const form = new FormData();
      form.append("file", new Blob(["registro del cargador"], { type: "text/plain" }), "log.txt");
      expect((await upload(path, form, "POST")).status).toBe(201);
      const rows = await h.db.select().from(chargerDiagnostics).where(eq(chargerDiagnostics.chargerId, f.chargerId));
      expect(rows.find((r) => r.id === first.diagnostics.id)).toMatchObject({ status: "FAILED", chargerStatus: "UploadFailure" });
      expect(rows.find((r) => r.id === second.diagnostics.id)).toMatchObject({ status: "UPLOADED", fileName: "log.txt", sizeBytes: 21 });
      await cli.close();
    });

    it("a refusal is kept and shown; a charger that does not answer, or is offline, leaves nothing behind", async () => {
      const f = await createFixture(h, `diag-refused-${backend.name}`);
      const cli = chargerClient(h, f);
      let answer: "none" | "silent" = "none";
      cli.handle("GetDiagnostics", async () => (answer === "none" ? {} : new Promise(() => {})));
      await cli.connect();
      await online(f);
      expect(await expectStatus(await h.call("POST", `/Business/Charger/${f.chargerId}/Diagnostics`, { token: f.tenant.token, body: {} }), 200)).toMatchObject({
        outcome: "rejected",
        message: "El cargador no tiene diagnóstico para enviar («Pedir diagnóstico»).",
        diagnostics: { status: "REJECTED" },
      });
      answer = "silent";
      expect(await expectStatus(await h.call("POST", `/Business/Charger/${f.chargerId}/Diagnostics`, { token: f.tenant.token, body: {} }), 200)).toMatchObject({ outcome: "timeout", diagnostics: null });
      await cli.close({ force: true });
      await eventually(() => chargerRow(f.chargerId), (r) => !r.online);
      expect(await expectStatus(await h.call("POST", `/Business/Charger/${f.chargerId}/Diagnostics`, { token: f.tenant.token, body: {} }), 200)).toMatchObject({ outcome: "offline", diagnostics: null });
      const bad = await h.call("POST", `/Business/Charger/${f.chargerId}/Diagnostics`, { token: f.tenant.token, body: { from: "2030-01-02", to: "2030-01-01" } });
      expect(bad.status).toBe(422);
      expect((await bad.json()).errors.to).toEqual(["«Hasta» tiene que ser posterior a «Desde»."]);
      expect(await h.db.select().from(chargerDiagnostics).where(eq(chargerDiagnostics.chargerId, f.chargerId))).toHaveLength(1);
    });
  });
});
