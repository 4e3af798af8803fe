// One "server node" for the two-process test: the central system on a PostgreSQL database,
// behind an HTTP server that takes chargers' WebSockets and, for the test, POST /command.
// Prints `ready <port>` when listening.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { openDatabase } from "#db/client";
import { createCentralSystem } from "#ocpp/central-system";
import type { ChargerCommand } from "#ocpp/commands";

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
const quiet = { info() {}, warn() {}, error: (o: object, m?: string) => console.error(m, o) };
const central = await createCentralSystem({ db: database.db, channels: database.channels, logger: quiet, nodeId: process.env.NODE_ID, commandTimeoutMs: 3_000 });
const server = http.createServer(async (req, res) => {
  if (req.method !== "POST" || req.url !== "/command") return void res.writeHead(404).end();
  let body = "";
  for await (const chunk of req) body += chunk;
  const { charger, command } = JSON.parse(body) as { charger: { id: string; ocppIdentity: string }; command: ChargerCommand };
  const result = await central.sendCommand(charger, command);
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result));
});
server.on("upgrade", central.handleUpgrade);
server.listen(0, "127.0.0.1", () => console.log(`ready ${(server.address() as AddressInfo).port}`));
process.once("SIGTERM", async () => {
  await central.close();
  server.close();
  await database.close();
  process.exit(0);
});
