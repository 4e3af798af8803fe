// Rotating a connected charger's password (ADR 0031): "Accepted" only says the charger stored the
// new password. Until it connects with it, the password it last used keeps opening (a charger that
// accepts but keeps the old one is not locked out), and the charger screen says the new one is
// pending; its first connection with the new password retires the old one. Both protocols.
import type { RPCClient } from "ocpp-rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus } from "../api/helpers";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, eventually, onlineSince, openOcppHarness, type Fixture, type OcppHarness } from "./harness";

/** The charger's answer to the password call in its protocol: it stores whatever it is given. */
function acceptsPasswords(cli: RPCClient) {
  cli.handle("ChangeConfiguration", async () => ({ status: "Accepted" }));
  cli.handle("SetVariables", async ({ params }) => ({
    setVariableResult: (params as { setVariableData: { component: unknown; variable: unknown }[] }).setVariableData.map((d) => ({ attributeStatus: "Accepted", component: d.component, variable: d.variable })),
  }));
}

describe.each(testBackends())("OCPP password rotation ($name)", (backend) => {
  let h: OcppHarness;
  beforeAll(async () => {
    h = await openOcppHarness(backend);
  });
  afterAll(() => h.close());

  const charger = (f: Fixture) => h.call("GET", `/Business/Charger/${f.chargerId}`, { token: f.tenant.token }).then((r) => expectStatus(r, 200));
  const rotate = (f: Fixture) => h.call("POST", `/Business/Charger/${f.chargerId}/RotatePassword`, { token: f.tenant.token }).then((r) => expectStatus(r, 200));
  const offline = (f: Fixture) => eventually(() => charger(f), (c) => !c.online);
  /** Connects as the charger with `password`: the socket, or the HTTP status it was refused with. */
  async function connectWith(f: Fixture, protocol: string, password: string): Promise<RPCClient | number> {
    const cli = chargerClient(h, { identity: f.identity, password }, { protocols: [protocol] });
    acceptsPasswords(cli);
    const since = new Date();
    const refused = await cli.connect().then(
      () => undefined,
      (e: { code?: unknown }) => Number(e.code),
    );
    if (refused !== undefined) return refused;
    await onlineSince(h, f.chargerId, since);
    return cli;
  }
  async function socket(f: Fixture, protocol: string, password: string): Promise<RPCClient> {
    const cli = await connectWith(f, protocol, password);
    if (typeof cli === "number") throw new Error(`refused with ${cli}`);
    return cli;
  }

  it.each(["ocpp1.6", "ocpp2.0.1"])("%s: the old password opens until the charger connects with the accepted new one, which retires it", async (protocol) => {
    const f = await createFixture(h, `rotation-${protocol}-${backend.name}`);
    const first = await socket(f, protocol, f.password);
    expect(await charger(f)).toMatchObject({ hasPassword: true, passwordPending: false });

    const second = await rotate(f);
    expect(second.passwordDelivery).toBe("charger");
    expect(await charger(f)).toMatchObject({ passwordPending: true });
    await first.close();
    await offline(f);

    // The charger said Accepted but still uses the old password: it is let in, and it is logged.
    const stale = await socket(f, protocol, f.password);
    expect(h.logs.some((l) => l.msg === "OCPP: el cargador se conectó con la contraseña anterior; la nueva sigue pendiente" && (l.obj as { identity?: string }).identity === f.identity)).toBe(true);
    expect(await charger(f)).toMatchObject({ passwordPending: true });

    // Rotated again while pending: the password it last connected with still opens, the unused one does not.
    const third = await rotate(f);
    expect(third.passwordDelivery).toBe("charger");
    await stale.close();
    await offline(f);
    expect(await connectWith(f, protocol, second.ocppPassword)).toBe(401);
    const again = await socket(f, protocol, f.password);
    await again.close();
    await offline(f);

    // Its first connection with the new password retires the old one.
    const fresh = await socket(f, protocol, third.ocppPassword);
    expect(await charger(f)).toMatchObject({ passwordPending: false });
    await fresh.close();
    await offline(f);
    expect(await connectWith(f, protocol, f.password)).toBe(401);
    expect(JSON.stringify(h.logs)).not.toContain(third.ocppPassword);
  });

  it("a manual rotation (the charger offline) has nothing pending: only the new password opens", async () => {
    const f = await createFixture(h, `rotation-manual-${backend.name}`);
    const rotated = await rotate(f);
    expect(rotated.passwordDelivery).toBe("manual");
    expect(rotated.passwordPending).toBe(false);
    expect(await connectWith(f, "ocpp2.0.1", f.password)).toBe(401);
    const cli = await socket(f, "ocpp2.0.1", rotated.ocppPassword);
    await cli.close();
  });
});
