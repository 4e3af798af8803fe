// Two server processes on one PostgreSQL: a command given to the node that does not hold the
// charger's socket reaches it over LISTEN/NOTIFY, and a reconnection to the other node takes
// the charger away from the first. PostgreSQL only (PGlite is one process by design).
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { eq } from "drizzle-orm";
import ocppRpc from "ocpp-rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargers } from "#db/schema";
import { testBackends } from "../setup/db";
import { createFixture, eventually, openOcppHarness, type Fixture, type OcppHarness } from "./harness";

const { RPCClient } = ocppRpc;
const postgres = testBackends().find((b) => b.name === "postgres");

async function startNode(databaseUrl: string, nodeId: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "node-process.ts")], {
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ID: nodeId },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  for await (const chunk of child.stdout!) {
    out += String(chunk);
    const m = /ready (\d+)/.exec(out);
    if (m) return { child, port: Number(m[1]) };
  }
  throw new Error(`el nodo ${nodeId} no arrancó`);
}

describe.skipIf(!postgres)("two server processes on one PostgreSQL", () => {
  let h: OcppHarness;
  let f: Fixture;
  const nodes: { child: ChildProcess; port: number }[] = [];

  beforeAll(async () => {
    h = await openOcppHarness(postgres!);
    f = await createFixture(h, "ocpp-two-nodes");
    // The harness's database URL: the pool knows it.
    const url = (h.db as unknown as { $client: { options: { connectionString: string } } }).$client.options.connectionString;
    nodes.push(await startNode(url, "proc-a"), await startNode(url, "proc-b"));
  }, 60_000);

  afterAll(async () => {
    for (const n of nodes) {
      n.child.kill("SIGTERM");
      await once(n.child, "exit");
    }
    await h.close();
  });

  const client = (port: number) =>
    new RPCClient({ endpoint: `ws://127.0.0.1:${port}/ocpp`, identity: f.identity, password: f.password, protocols: ["ocpp1.6"], strictMode: true, reconnect: false } as ConstructorParameters<typeof RPCClient>[0]);
  const command = async (port: number, body: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}/command`, { method: "POST", body: JSON.stringify(body) });
    return res.json();
  };

  it("routes a command to the node holding the socket, and follows the charger when it reconnects elsewhere", async () => {
    const [a, b] = nodes;
    const onA = client(a.port);
    onA.handle("Reset", async () => ({ status: "Accepted" }));
    await onA.connect();
    await eventually(async () => (await h.db.select().from(chargers).where(eq(chargers.id, f.chargerId)))[0], (r) => r.connectedNode === "proc-a");

    const charger = { id: f.chargerId, ocppIdentity: f.identity };
    expect(await command(b.port, { charger, command: { command: "Reset", type: "Soft" } })).toMatchObject({ outcome: "accepted", status: "Accepted" });

    // The charger reconnects to node B: node A drops its old socket, and B answers locally.
    const closedOnA = once(onA, "close");
    const onB = client(b.port);
    onB.handle("Reset", async () => ({ status: "Rejected" }));
    await onB.connect();
    await closedOnA;
    await eventually(async () => (await h.db.select().from(chargers).where(eq(chargers.id, f.chargerId)))[0], (r) => r.connectedNode === "proc-b" && r.online);
    expect(await command(a.port, { charger, command: { command: "Reset", type: "Hard" } })).toMatchObject({ outcome: "rejected", status: "Rejected" });
    await onB.close();
  });
});
