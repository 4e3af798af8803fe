// Calls to a partner's OCPI platform (the "client" side of transport_and_format.asciidoc): every
// request carries our credentials token (Base64, §Authorization header), X-Request-ID and
// X-Correlation-ID (§Request headers), and every answer is parsed as the response envelope and its
// data validated with the schema given. Base URLs come from the partner's versions URL and
// version details, never from configuration — so they are typed by operators and partners, and
// in production they must be https and public (ADR 0021): the host, every address its name
// resolves to, and the address actually connected to (infra/public-address.ts).
import { randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { z } from "zod";
import { AddressNotPublicError, assertPublicHost, publicOnlyLookup } from "../infra/public-address";
import { envelope as envelopeSchema, type endpoint, versionDetails, versionList } from "./schemas";
import { authorizationHeader } from "./tokens";
import { isStrictOcpiDateTime, OCPI_STATUS, ocpiNumbers, withoutNulls } from "./envelope";
import type { Logger } from "../infra/logger";

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface OcpiClientOptions {
  fetch?: Fetch;
  /** Milliseconds before a partner's answer is given up (default 10 s). */
  timeoutMs?: number;
  /**
   * Local mode, development and tests (not production, as for the payment emulators): partners
   * may use plain http:// and private addresses (the test eMSP listens on 127.0.0.1). Production
   * requires https and public addresses (ADR 0021).
   */
  local?: boolean;
  /** How a host name is checked (tests); default: assertPublicHost with the system resolver. */
  checkHost?: (host: string) => Promise<void>;
  /** Where answers read liberally (a malformed timestamp) are noted. */
  logger?: Pick<Logger, "warn">;
}

/** A party: ISO 3166 country code and party id (credentials.asciidoc §CredentialsRole). */
export interface OcpiParty {
  countryCode: string;
  partyId: string;
}

/**
 * transport_and_format.asciidoc §Pull and Push, §Request headers: who a request of a functional
 * module comes from and goes to, so a hub can route it.
 */
export interface Routing {
  from: OcpiParty;
  to: OcpiParty;
}

/** The four routing headers of `routing`. */
export function routingHeaders(routing: Routing): Record<string, string> {
  return {
    "OCPI-from-country-code": routing.from.countryCode,
    "OCPI-from-party-id": routing.from.partyId,
    "OCPI-to-country-code": routing.to.countryCode,
    "OCPI-to-party-id": routing.to.partyId,
  };
}

/** A partner's platform could not be used: unreachable, an HTTP error, a bad envelope or a non-1xxx status. */
export class PartnerError extends Error {
  override name = "PartnerError";
  constructor(
    message: string,
    readonly httpStatus?: number,
    readonly statusCode?: number,
  ) {
    super(message);
  }
}

/** The field message of a partner URL refused by the address rule (the Roaming screen shows it as is). */
export const PARTNER_ADDRESS_MESSAGE = "La dirección del socio tiene que ser pública y usar https.";

/** A partner URL that is not https or not public, in production (ADR 0021). */
export class PartnerAddressError extends PartnerError {
  override name = "PartnerAddressError";
  constructor() {
    super(PARTNER_ADDRESS_MESSAGE);
  }
}

/** Most bytes read of a partner's answer (ours are envelopes of a few objects). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * fetch over node:http(s) with the connection's DNS lookup given: in production
 * publicOnlyLookup, so no answer of the partner's DNS can point the socket at a private address
 * after the URL was checked. No redirects are followed (a 3xx is returned as is), answers are
 * read up to MAX_ANSWER_BYTES.
 */
export function partnerFetch(lookup?: typeof publicOnlyLookup): Fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const body = typeof init.body === "string" ? init.body : undefined;
      const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) };
      if (body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(body));
      const request = (url.protocol === "https:" ? https : http).request(
        url,
        { method: init.method ?? "GET", headers, lookup, signal: init.signal ?? undefined },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_ANSWER_BYTES) request.destroy(new Error("answer too large"));
            else chunks.push(chunk);
          });
          res.on("error", reject);
          res.on("end", () => {
            const status = res.statusCode ?? 502;
            const out = new Headers();
            for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) out.set(name, Array.isArray(value) ? value.join(", ") : value);
            const empty = status === 204 || status === 205 || status === 304 || status < 200;
            resolve(new Response(empty ? null : Buffer.concat(chunks), { status: status < 200 || status > 599 ? 502 : status, headers: out }));
          });
        },
      );
      request.on("error", reject);
      request.end(body);
    });
}

export const SUPPORTED_VERSION = "2.2.1";

export class OcpiClient {
  private readonly fetch: Fetch;
  private readonly timeoutMs: number;
  private readonly local: boolean;
  private readonly checkHost: (host: string) => Promise<void>;
  private readonly logger?: Pick<Logger, "warn">;

  constructor(opts: OcpiClientOptions = {}) {
    this.local = opts.local ?? false;
    this.fetch = opts.fetch ?? partnerFetch(this.local ? undefined : publicOnlyLookup);
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.checkHost = opts.checkHost ?? ((host) => assertPublicHost(host));
    this.logger = opts.logger;
  }

  /**
   * A partner URL we may call: valid, no credentials in it, and — in production — https on a
   * public address (the literal host, or every address its name resolves to). PartnerAddressError
   * when the address rule refuses it (its message is the Roaming screen's field message).
   */
  async checkUrl(raw: string): Promise<URL> {
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new PartnerError("La URL del socio no es válida.");
    }
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new PartnerError("La URL del socio no es válida.");
    if (parsed.username || parsed.password) throw new PartnerError("La URL del socio no puede llevar usuario ni contraseña.");
    if (this.local) return parsed;
    if (parsed.protocol !== "https:") throw new PartnerAddressError();
    try {
      await this.checkHost(parsed.hostname);
    } catch (err) {
      if (err instanceof AddressNotPublicError) throw new PartnerAddressError();
      throw new PartnerError(`No pudimos encontrar la dirección del socio (${(err as NodeJS.ErrnoException).code ?? (err as Error).name}).`);
    }
    return parsed;
  }

  /**
   * One request; `data` validated with `schema` when the status code is 1xxx. `timeoutMs`
   * overrides the client's; `routing` (every request to a functional module) adds the routing
   * headers. The body's numbers go with at most 4 decimals; the answer is read liberally: null
   * members are absent, a timestamp in another RFC 3339 spelling is accepted and logged.
   */
  async request<T extends z.ZodTypeAny>(
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
    target: string,
    token: string,
    schema: T,
    body?: unknown,
    opts: { timeoutMs?: number; routing?: Routing } = {},
  ): Promise<{ data: z.infer<T>; headers: Headers }> {
    const at = await this.checkUrl(target);
    const headers: Record<string, string> = {
      Authorization: authorizationHeader(token),
      "X-Request-ID": randomUUID(),
      "X-Correlation-ID": randomUUID(),
      Accept: "application/json",
      ...(opts.routing ? routingHeaders(opts.routing) : {}),
    };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let res: Response;
    try {
      res = await this.fetch(at, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(ocpiNumbers(body)),
        redirect: "error",
        signal: AbortSignal.timeout(opts.timeoutMs ?? this.timeoutMs),
      });
    } catch (err) {
      if (err instanceof AddressNotPublicError || (err as { cause?: unknown }).cause instanceof AddressNotPublicError) throw new PartnerAddressError();
      throw new PartnerError(`No pudimos conectar con el socio (${(err as Error).name}).`);
    }
    // Redirects are not followed: the next address would not have been checked.
    if (res.status >= 300 && res.status < 400) throw new PartnerError(`El socio respondió ${res.status} (una redirección, que no seguimos).`, res.status);
    let json: unknown;
    try {
      json = await res.json();
    } catch {
      throw new PartnerError(`El socio respondió ${res.status} sin un JSON OCPI.`, res.status);
    }
    const parsed = envelopeSchema(z.unknown()).safeParse(withoutNulls(json));
    if (!parsed.success) throw new PartnerError(`El socio respondió ${res.status} sin el formato de respuesta OCPI.`, res.status);
    if (!isStrictOcpiDateTime(parsed.data.timestamp)) this.logger?.warn({ host: at.host, timestamp: parsed.data.timestamp.slice(0, 64) }, "ocpi: el socio respondió con un timestamp fuera del formato OCPI (aceptado)");
    const { status_code: statusCode } = parsed.data;
    if (!res.ok || statusCode < 1000 || statusCode >= 2000) {
      throw new PartnerError(`El socio respondió ${res.status} con el código OCPI ${statusCode}.`, res.status, statusCode);
    }
    const data = schema.safeParse(parsed.data.data);
    if (!data.success) throw new PartnerError("El socio respondió con datos que no cumplen OCPI 2.2.1.", res.status, statusCode);
    return { data: data.data, headers: res.headers };
  }

  /**
   * version_information_endpoint.asciidoc: the partner's versions, then the details of 2.2.1 —
   * its endpoints. Throws PartnerError with 3002 when the partner has no 2.2.1.
   */
  async discover(versionsUrl: string, token: string): Promise<{ version: string; endpoints: z.infer<typeof endpoint>[] }> {
    const { data: versions } = await this.request("GET", versionsUrl, token, versionList);
    const chosen = versions.find((v) => v.version === SUPPORTED_VERSION);
    if (!chosen) throw new PartnerError("El socio no ofrece OCPI 2.2.1.", undefined, OCPI_STATUS.UNSUPPORTED_VERSION);
    const { data: details } = await this.request("GET", chosen.url, token, versionDetails);
    // Every endpoint the partner gives is a URL we will call: each host is checked now, so a
    // partner listing a private address is refused at registration, not at its first push.
    const hosts = new Map<string, string>();
    for (const e of details.endpoints) hosts.set(new URL(e.url).host, e.url);
    for (const url of hosts.values()) await this.checkUrl(url);
    return { version: SUPPORTED_VERSION, endpoints: details.endpoints };
  }
}

/** The URL of a partner's module in a role (the first one it lists). */
export function endpointUrl(endpoints: readonly { identifier: string; role: string; url: string }[], identifier: string, role: "SENDER" | "RECEIVER"): string | undefined {
  return endpoints.find((e) => e.identifier === identifier && e.role === role)?.url;
}
