// Calls to a partner's OCPI platform (the "client" side of transport_and_format.asciidoc): every
// request carries our credentials token (Base64, §Authorization header), X-Request-ID and
// X-Correlation-ID (§Request headers), and every answer is parsed as the response envelope and its
// data validated with the schema given. Base URLs come from the partner's versions URL and
// version details, never from configuration.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { envelope as envelopeSchema, type endpoint, versionDetails, versionList } from "./schemas";
import { authorizationHeader } from "./tokens";
import { OCPI_STATUS } from "./envelope";

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface OcpiClientOptions {
  fetch?: Fetch;
  /** Milliseconds before a partner's answer is given up (default 10 s). */
  timeoutMs?: number;
  /** Plain http:// partner URLs (tests, local mode); production requires https (ADR 0020). */
  allowHttp?: boolean;
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

export const SUPPORTED_VERSION = "2.2.1";

export class OcpiClient {
  private readonly fetch: Fetch;
  private readonly timeoutMs: number;
  private readonly allowHttp: boolean;

  constructor(opts: OcpiClientOptions = {}) {
    this.fetch = opts.fetch ?? ((input, init) => fetch(input, init));
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.allowHttp = opts.allowHttp ?? false;
  }

  checkUrl(raw: string): URL {
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new PartnerError("La URL del socio no es válida.");
    }
    if (parsed.protocol !== "https:" && !(this.allowHttp && parsed.protocol === "http:")) {
      throw new PartnerError("La URL del socio tiene que usar https.");
    }
    if (parsed.username || parsed.password) throw new PartnerError("La URL del socio no puede llevar usuario ni contraseña.");
    return parsed;
  }

  /** One request; `data` validated with `schema` when the status code is 1xxx. */
  async request<T extends z.ZodTypeAny>(
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
    target: string,
    token: string,
    schema: T,
    body?: unknown,
  ): Promise<{ data: z.infer<T>; headers: Headers }> {
    const at = this.checkUrl(target);
    const headers: Record<string, string> = {
      Authorization: authorizationHeader(token),
      "X-Request-ID": randomUUID(),
      "X-Correlation-ID": randomUUID(),
      Accept: "application/json",
    };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let res: Response;
    try {
      res = await this.fetch(at, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: "error",
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new PartnerError(`No pudimos conectar con el socio (${(err as Error).name}).`);
    }
    let json: unknown;
    try {
      json = await res.json();
    } catch {
      throw new PartnerError(`El socio respondió ${res.status} sin un JSON OCPI.`, res.status);
    }
    const parsed = envelopeSchema(z.unknown()).safeParse(json);
    if (!parsed.success) throw new PartnerError(`El socio respondió ${res.status} sin el formato de respuesta OCPI.`, res.status);
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
    return { version: SUPPORTED_VERSION, endpoints: details.endpoints };
  }
}

/** The URL of a partner's module in a role (the first one it lists). */
export function endpointUrl(endpoints: readonly { identifier: string; role: string; url: string }[], identifier: string, role: "SENDER" | "RECEIVER"): string | undefined {
  return endpoints.find((e) => e.identifier === identifier && e.role === role)?.url;
}
