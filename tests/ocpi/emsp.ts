// A test eMSP: an OCPI 2.2.1 platform on a real HTTP server, written for the tests from the
// specification (credentials.asciidoc, version_information_endpoint.asciidoc). It registers with
// the CPO and lets the CPO register with it, records every request it receives, and validates
// every answer of the CPO with the zod schemas of ocpi/schemas.ts.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { z } from "zod";
import { credentials, envelope, location, tariff, versionDetails, versionList, type Credentials, type Tariff } from "../../ocpi/schemas";

export interface Received {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
  /** The request's headers (lower-case names). */
  headers: Record<string, string | string[] | undefined>;
}

export interface OcpiAnswer<T> {
  status: number;
  headers: Headers;
  body: { data?: T; status_code: number; status_message?: string; timestamp: string };
}

export const encodeToken = (token: string) => `Token ${Buffer.from(token, "utf8").toString("base64")}`;
const newToken = () => randomBytes(24).toString("base64url");

/** Calls the CPO with `token` and validates the envelope, and `data` with `schema` when 1xxx. */
export async function ocpiCall<T extends z.ZodTypeAny>(
  method: string,
  target: string,
  token: string | null,
  schema: T,
  body?: unknown,
  rawAuthorization?: string,
): Promise<OcpiAnswer<z.infer<T>>> {
  const headers: Record<string, string> = { "X-Request-ID": "req-1", "X-Correlation-ID": "corr-1" };
  if (rawAuthorization !== undefined) headers.Authorization = rawAuthorization;
  else if (token) headers.Authorization = encodeToken(token);
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(target, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  const parsed = envelope(z.unknown()).parse(json);
  if (parsed.status_code >= 1000 && parsed.status_code < 2000 && parsed.data !== undefined) schema.parse(parsed.data);
  return { status: res.status, headers: res.headers, body: parsed as OcpiAnswer<z.infer<T>>["body"] };
}

export class TestEmsp {
  server!: Server;
  base = "";
  readonly received: Received[] = [];
  /** Tokens the CPO may use with us: token A (before registration), then the one we issued. */
  readonly tokensForCpo = new Set<string>();
  /** The CPO's token to call it, and its versions URL, once registered. */
  cpoToken: string | null = null;
  cpoVersionsUrl: string | null = null;
  cpoCredentials: Credentials | null = null;
  registered = false;
  /** Extra routes of a test (e.g. the receivers of sessions and CDRs): answered before the defaults. */
  extra?: (req: Received) => { status?: number; body: unknown } | undefined | Promise<{ status?: number; body: unknown } | undefined>;
  /** What the CPO pushed to our Locations receiver (with `locationsReceiver`), in order. */
  readonly locationPushes: Received[] = [];
  /** What the CPO pushed to our Tariffs receiver (with `tariffsReceiver`), in order. */
  readonly tariffPushes: Received[] = [];
  /** The Tariffs we hold from the pushes, by id (mod_tariffs §Receiver interface: PUT replaces, DELETE removes). */
  readonly tariffsHeld = new Map<string, Tariff>();

  constructor(
    readonly partyId = "EMS",
    readonly countryCode = "NL",
    /** locationsReceiver: our version details list a Locations receiver (mod_locations §Receiver interface). */
    readonly options: { locationsReceiver?: boolean; tariffsReceiver?: boolean } = {},
  ) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    // Idle connections outlive the client's (undici keeps them 4 s): a request never lands on a socket the server is closing.
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/ocpi`;
    return this;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  get versionsUrl() {
    return `${this.base}/versions`;
  }

  /** A token A for the CPO to register with us (credentials.asciidoc §Registration, we are the Receiver). */
  issueTokenA(): string {
    const token = newToken();
    this.tokensForCpo.add(token);
    return token;
  }

  ourCredentials(token: string): Credentials {
    return {
      token,
      url: this.versionsUrl,
      roles: [{ role: "EMSP", party_id: this.partyId, country_code: this.countryCode, business_details: { name: "Test eMSP" } }],
    };
  }

  /** We are the Sender: discover the CPO with its token A, POST our token B, keep its token C. */
  async register(cpoVersionsUrl: string, tokenA: string): Promise<OcpiAnswer<Credentials>> {
    const versions = await ocpiCall("GET", cpoVersionsUrl, tokenA, versionList);
    const v221 = versions.body.data!.find((v) => v.version === "2.2.1")!;
    const details = await ocpiCall("GET", v221.url, tokenA, versionDetails);
    const credentialsUrl = details.body.data!.endpoints.find((e) => e.identifier === "credentials")!.url;
    const tokenB = newToken();
    this.tokensForCpo.add(tokenB);
    const answer = await ocpiCall("POST", credentialsUrl, tokenA, credentials, this.ourCredentials(tokenB));
    if (answer.body.status_code === 1000) {
      this.cpoCredentials = answer.body.data!;
      this.cpoToken = answer.body.data!.token;
      this.cpoVersionsUrl = answer.body.data!.url;
      this.registered = true;
    }
    return answer;
  }

  async cpoEndpoint(module: string): Promise<string> {
    const versions = await ocpiCall("GET", this.cpoVersionsUrl!, this.cpoToken, versionList);
    const details = await ocpiCall("GET", versions.body.data![0].url, this.cpoToken, versionDetails);
    return details.body.data!.endpoints.find((e) => e.identifier === module && e.role === "SENDER")?.url ?? details.body.data!.endpoints.find((e) => e.identifier === module)!.url;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://x");
    const received: Received = { method: req.method ?? "GET", path: url.pathname, authorization: req.headers.authorization, body: text ? JSON.parse(text) : undefined, headers: req.headers };
    this.received.push(received);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const ok = (data?: unknown) => send(200, { ...(data === undefined ? {} : { data }), status_code: 1000, timestamp: new Date().toISOString() });
    const token = /^Token (.+)$/.exec(received.authorization ?? "")?.[1];
    const decoded = token ? Buffer.from(token, "base64").toString("utf8") : "";
    if (!this.tokensForCpo.has(decoded)) return send(401, { status_code: 2000, status_message: "Unauthorized", timestamp: new Date().toISOString() });

    const extra = await this.extra?.(received);
    if (extra) return send(extra.status ?? 200, extra.body);

    if (received.path === "/ocpi/versions") return ok([{ version: "2.2.1", url: `${this.base}/2.2.1` }]);
    if (received.path === "/ocpi/2.2.1") {
      return ok({
        version: "2.2.1",
        endpoints: [
          { identifier: "credentials", role: "SENDER", url: `${this.base}/2.2.1/credentials` },
          { identifier: "credentials", role: "RECEIVER", url: `${this.base}/2.2.1/credentials` },
          { identifier: "sessions", role: "RECEIVER", url: `${this.base}/2.2.1/sessions` },
          { identifier: "cdrs", role: "RECEIVER", url: `${this.base}/2.2.1/cdrs` },
          { identifier: "tokens", role: "SENDER", url: `${this.base}/2.2.1/tokens` },
          ...(this.options.locationsReceiver ? [{ identifier: "locations", role: "RECEIVER", url: `${this.base}/2.2.1/locations` }] : []),
          ...(this.options.tariffsReceiver ? [{ identifier: "tariffs", role: "RECEIVER", url: `${this.base}/2.2.1/tariffs` }] : []),
        ],
      });
    }
    // mod_locations §Receiver interface: PUT a Location, PATCH a Location or an EVSE (validated).
    if (this.options.locationsReceiver && received.path.startsWith("/ocpi/2.2.1/locations/") && (received.method === "PUT" || received.method === "PATCH")) {
      const parts = received.path.split("/").slice(4);
      if (received.method === "PUT" && parts.length === 3) location.parse(received.body);
      if (received.method === "PATCH") z.object({ last_updated: z.string() }).passthrough().parse(received.body);
      this.locationPushes.push(received);
      return ok();
    }
    // mod_tariffs §Receiver interface: PUT a Tariff whole (validated), DELETE one by id.
    if (this.options.tariffsReceiver && received.path.startsWith("/ocpi/2.2.1/tariffs/") && (received.method === "PUT" || received.method === "DELETE")) {
      const id = received.path.split("/")[6];
      if (received.method === "PUT") this.tariffsHeld.set(id, tariff.parse(received.body));
      else this.tariffsHeld.delete(id);
      this.tariffPushes.push(received);
      return ok();
    }
    if (received.path === "/ocpi/2.2.1/credentials") {
      if (received.method === "POST" || received.method === "PUT") {
        // We are the Receiver: the CPO gives its token and versions URL; we read them and answer a new token.
        const theirs = credentials.parse(received.body);
        const versions = await ocpiCall("GET", theirs.url, theirs.token, versionList);
        await ocpiCall("GET", versions.body.data!.find((v) => v.version === "2.2.1")!.url, theirs.token, versionDetails);
        this.cpoCredentials = theirs;
        this.cpoToken = theirs.token;
        this.cpoVersionsUrl = theirs.url;
        this.registered = true;
        this.tokensForCpo.delete(decoded);
        const tokenC = newToken();
        this.tokensForCpo.add(tokenC);
        return ok(this.ourCredentials(tokenC));
      }
      if (received.method === "DELETE") {
        this.registered = false;
        this.cpoToken = null;
        this.tokensForCpo.delete(decoded);
        return ok();
      }
    }
    return send(404, { status_code: 2000, status_message: "Unknown", timestamp: new Date().toISOString() });
  }
}

/** Serves a Hono app (the CPO's /ocpi) on a real port; the app is made once the origin is known. */
export async function serveLate(make: (origin: string) => { fetch: (request: Request) => Response | Promise<Response> }): Promise<{ origin: string; close: () => Promise<void> }> {
  const late: { handler?: (req: IncomingMessage, res: ServerResponse) => void } = {};
  const server = createServer((req, res) => late.handler!(req, res));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const app = make(origin);
  late.handler = getRequestListener((request) => app.fetch(request));
  return {
    origin,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
