// A charger's budget belongs to its identity, not to its socket: reconnecting
// does not refill its calls, and how often a charger (once authenticated) and an address (every
// attempt) may connect is bounded. Refused connections are logged; other chargers are unaffected.
import { RPCClient } from "ocpp-rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../setup/db";
import { createFixture, openOcppHarness, type Fixture, type OcppHarness } from "./harness";

describe.each(testBackends())("OCPP budgets across connections ($name)", (backend) => {
  let h: OcppHarness;
  let noisy: Fixture;
  let quiet: Fixture;
  let flapping: Fixture;
  beforeAll(async () => {
    h = await openOcppHarness(backend, {
      // A refill slow enough that the test's own pace does not matter.
      callLimit: { burst: 10, perSecond: 0.2, closeAfterRefused: 1_000 },
      connectionLimit: { perChargerPerMinute: 3, perAddressPerMinute: 6 },
      trustProxy: true,
    });
    noisy = await createFixture(h, `limits-noisy-${backend.name}`);
    quiet = await createFixture(h, `limits-quiet-${backend.name}`);
    flapping = await createFixture(h, `limits-flap-${backend.name}`);
  });
  afterAll(() => h.close());

  /** A charger behind a proxy that says it comes from `address`. */
  const client = (f: Pick<Fixture, "identity" | "password">, address: string, protocol = "ocpp1.6") =>
    new RPCClient({
      endpoint: h.endpoint,
      identity: f.identity,
      password: f.password,
      protocols: [protocol],
      strictMode: true,
      reconnect: false,
      headers: { "X-Forwarded-For": address },
    } as ConstructorParameters<typeof RPCClient>[0]);
  /** The HTTP status a connection was refused with, or 0 when it opened (and was closed again). */
  async function attempt(f: Pick<Fixture, "identity" | "password">, address: string): Promise<number> {
    const cli = client(f, address);
    const code = await cli.connect().then(
      () => 0,
      (e: { code?: unknown }) => Number(e.code),
    );
    await cli.close({ force: true });
    return code;
  }
  /** Sends `n` Heartbeats at once as raw frames; counts the answered and the refused. */
  async function burst(cli: RPCClient, n: number, prefix: string) {
    const answers = new Map<string, number>();
    const done = new Promise<void>((resolve) =>
      cli.on("message", ({ message, outbound }: { message: string; outbound: boolean }) => {
        const frame = JSON.parse(message) as unknown[];
        if (outbound || !String(frame[1]).startsWith(prefix)) return;
        answers.set(String(frame[1]), Number(frame[0]));
        if (answers.size === n) resolve();
      }),
    );
    for (let i = 0; i < n; i++) cli.sendRaw(JSON.stringify([2, `${prefix}-${i}`, "Heartbeat", {}]));
    await done;
    const kinds = [...answers.values()];
    return { answered: kinds.filter((k) => k === 3).length, refused: kinds.filter((k) => k === 4).length };
  }

  it.each(["ocpp1.6", "ocpp2.0.1"])("%s: a reconnection does not refill the charger's call budget; another charger keeps its own", async (protocol) => {
    const f = protocol === "ocpp1.6" ? noisy : quiet;
    const first = client(f, `203.0.113.${protocol === "ocpp1.6" ? 1 : 2}`, protocol);
    await first.connect();
    expect(await burst(first, 10, "a")).toEqual({ answered: 10, refused: 0 });
    await first.close();

    const second = client(f, `203.0.113.${protocol === "ocpp1.6" ? 1 : 2}`, protocol);
    await second.connect();
    const after = await burst(second, 10, "b");
    // Only what refilled meanwhile (0.2 a second) is answered.
    expect(after.refused).toBeGreaterThanOrEqual(8);
    expect(h.logs.some((l) => l.msg === "OCPP: demasiados mensajes, se rechazan" && (l.obj as { identity?: string }).identity === f.identity)).toBe(true);
    await second.close();

    const other = client(flapping, "198.51.100.9", protocol);
    await other.connect();
    expect((await burst(other, 5, `c-${protocol}`)).answered).toBe(5);
    await other.close();
  });

  it("a charger that reconnects too often is refused (429, logged) until its rate refills; other chargers connect", async () => {
    // flapping already connected twice above (one per protocol) from 198.51.100.9: one more is allowed.
    expect(await attempt(flapping, "192.0.2.10")).toBe(0);
    expect(await attempt(flapping, "192.0.2.11")).toBe(429);
    expect(h.logs.some((l) => l.msg === "OCPP: el cargador se reconecta demasiado seguido, conexión rechazada" && (l.obj as { identity?: string }).identity === flapping.identity)).toBe(true);
    // Wrong passwords do not count against the charger: a stranger cannot lock it out this way.
    expect(await attempt({ identity: quiet.identity, password: "not-the-password-0123456789" }, "192.0.2.12")).toBe(401);
    expect(await attempt({ identity: quiet.identity, password: "not-the-password-0123456789" }, "192.0.2.12")).toBe(401);
    expect(await attempt(quiet, "192.0.2.13")).toBe(0);
  });

  it("an address that opens too many connections is refused (429, logged), whatever the identities; other addresses connect", async () => {
    const from = "198.18.0.1";
    for (let i = 0; i < 6; i++) expect(await attempt({ identity: `unknown-${i}`, password: "x".repeat(24) }, from)).toBe(401);
    expect(await attempt(quiet, from)).toBe(429);
    expect(h.logs.some((l) => l.msg === "OCPP: demasiadas conexiones desde la misma dirección, rechazada" && (l.obj as { ip?: string }).ip === from)).toBe(true);
    expect(await attempt(noisy, "198.18.0.2")).toBe(0);
  });
});
