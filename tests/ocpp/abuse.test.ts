// A charger with valid credentials that misbehaves (robustness): frames beyond the
// size bound are closed with 1009 unread, a burst of calls beyond its budget is answered with
// CALLERRORs and then disconnected, both logged, and other chargers are unaffected.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OCPP_MAX_FRAME_BYTES } from "#ocpp/limits";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, openOcppHarness, type Fixture, type OcppHarness } from "./harness";

// PGlite is enough: this is about the socket, not the database.
const [pglite] = testBackends();

describe("OCPP: frame size and call rate per charger", () => {
  let h: OcppHarness;
  let noisy: Fixture;
  let bursty: Fixture;
  let quiet: Fixture;
  beforeAll(async () => {
    h = await openOcppHarness(pglite);
    noisy = await createFixture(h, "ocpp-abuse-noisy");
    // The call budget is per charger and outlives a connection: the burst starts from a full one.
    bursty = await createFixture(h, "ocpp-abuse-bursty");
    quiet = await createFixture(h, "ocpp-abuse-quiet");
  });
  afterAll(() => h.close());

  const closed = (cli: ReturnType<typeof chargerClient>) => new Promise<{ code?: number }>((resolve) => cli.once("close", resolve));

  it("closes a 5 MB frame with 1009 and logs it; a frame under the bound is answered", async () => {
    const cli = chargerClient(h, noisy);
    await cli.connect();
    // Just under the bound: a (padded) Heartbeat is read and answered.
    const padded = `[2,"ok-1","Heartbeat",{}]${" ".repeat(OCPP_MAX_FRAME_BYTES - 100)}`;
    const answer = new Promise<string>((resolve) => cli.on("message", ({ message, outbound }: { message: string; outbound: boolean }) => !outbound && resolve(message)));
    cli.sendRaw(padded);
    expect(JSON.parse(await answer)[1]).toBe("ok-1");

    const whenClosed = closed(cli);
    cli.sendRaw(`[2,"big-1","DataTransfer",{"vendorId":"x","data":"${"x".repeat(5 * 1024 * 1024)}"}]`);
    expect((await whenClosed).code).toBe(1009);
    await expect.poll(() => h.logs.some((l) => l.msg === "OCPP: mensaje demasiado grande, conexión cerrada" && (l.obj as { identity?: string }).identity === noisy.identity)).toBe(true);
  });

  it("answers a burst of 1,000 calls beyond the budget with CALLERRORs, then disconnects; another charger is unaffected", async () => {
    const cli = chargerClient(h, bursty);
    const other = chargerClient(h, quiet);
    await Promise.all([cli.connect(), other.connect()]);
    const whenClosed = closed(cli);
    // Raw frames, all at once: ocpp-rpc's own client would wait for each answer.
    const answers: unknown[][] = [];
    cli.on("message", ({ message, outbound }: { message: string; outbound: boolean }) => {
      if (!outbound) answers.push(JSON.parse(message) as unknown[]);
    });
    for (let i = 0; i < 1000; i++) cli.sendRaw(JSON.stringify([2, `burst-${i}`, "Heartbeat", {}]));
    const code = (await whenClosed).code;
    const outcomes = answers.filter((a) => String(a[1]).startsWith("burst-")).map((a) => (a[0] === 3 ? "accepted" : `refused:${String(a[2])}`));
    const count = (what: string) => outcomes.filter((o) => o === what).length;
    // The burst allowance (and what refills while it is processed) is answered; the rest is refused.
    expect(count("accepted")).toBeGreaterThanOrEqual(60);
    expect(count("accepted")).toBeLessThan(200);
    expect(count("refused:GenericError")).toBeGreaterThan(200);
    expect(code).toBe(1008);
    // Once closed, nothing more is read: the last of the 1,000 were never processed.
    expect(outcomes.length).toBeLessThan(1000);
    expect(h.logs.some((l) => l.msg === "OCPP: demasiados mensajes, se rechazan" && (l.obj as { identity?: string }).identity === bursty.identity)).toBe(true);
    expect(h.logs.some((l) => l.msg === "OCPP: demasiados mensajes, conexión cerrada")).toBe(true);

    // The other charger's budget is its own.
    await expect(other.call("Heartbeat", {})).resolves.toMatchObject({ currentTime: expect.any(String) });
    await other.close();
  });

  it("an OCPP 2.0.1 charger has the same budget", async () => {
    const cli = chargerClient(h, quiet, { protocols: ["ocpp2.0.1"] });
    await cli.connect();
    const whenClosed = closed(cli);
    const answers: unknown[][] = [];
    cli.on("message", ({ message, outbound }: { message: string; outbound: boolean }) => {
      if (!outbound) answers.push(JSON.parse(message) as unknown[]);
    });
    for (let i = 0; i < 1000; i++) cli.sendRaw(JSON.stringify([2, `b201-${i}`, "Heartbeat", {}]));
    expect((await whenClosed).code).toBe(1008);
    expect(answers.filter((a) => a[0] === 4 && a[2] === "GenericError").length).toBeGreaterThan(200);
  });
  // A CALLERROR for an invalid call says what was wrong (the validation errors), never echoes the
  // call's values back: an idTag, an idToken, a password in a frame nobody else should read.
  it.each([
    ["ocpp1.6", { idTag: "SECRET-TAG-0123456789-TOO-LONG" }],
    ["ocpp2.0.1", { idToken: { idToken: "SECRET-TOKEN-0123", type: "NotAType" } }],
  ] as const)("%s: an invalid call's CALLERROR carries the validation errors only, not the request's values", async (protocol, params) => {
    const cli = chargerClient(h, quiet, { protocols: [protocol] });
    await cli.connect();
    try {
      const answer = new Promise<unknown[]>((resolve) =>
        cli.on("message", ({ message, outbound }: { message: string; outbound: boolean }) => {
          const frame = JSON.parse(message) as unknown[];
          if (!outbound && frame[1] === "bad-1") resolve(frame);
        }),
      );
      cli.sendRaw(JSON.stringify([2, "bad-1", "Authorize", params]));
      const [type, , code, , details] = await answer;
      expect(type).toBe(4);
      expect(code).toMatch(/Violation/);
      expect(details).toEqual({ errors: expect.arrayContaining([expect.objectContaining({ instancePath: expect.any(String), keyword: expect.any(String) })]) });
      expect(JSON.stringify(details)).not.toContain("SECRET");
    } finally {
      await cli.close();
    }
  });
});
