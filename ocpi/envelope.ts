// The OCPI response envelope and status codes (transport_and_format.asciidoc §Response format,
// status_codes.asciidoc). Every answer of /ocpi carries one, errors included.

/** status_codes.asciidoc. */
export const OCPI_STATUS = {
  SUCCESS: 1000,
  CLIENT_ERROR: 2000,
  INVALID_PARAMETERS: 2001,
  NOT_ENOUGH_INFORMATION: 2002,
  UNKNOWN_LOCATION: 2003,
  UNKNOWN_TOKEN: 2004,
  SERVER_ERROR: 3000,
  CLIENT_API_ERROR: 3001,
  UNSUPPORTED_VERSION: 3002,
  NO_MATCHING_ENDPOINTS: 3003,
} as const;

export interface OcpiEnvelope<T = unknown> {
  data?: T;
  status_code: number;
  status_message?: string;
  timestamp: string;
}

/** types.asciidoc §DateTime: UTC, second precision, `Z`. */
export function ocpiDateTime(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * types.asciidoc §DateTime as partners send it, read liberally: RFC 3339 with `T` or a space
 * between date and time, any fraction (microseconds and beyond are cut to milliseconds), `Z`,
 * an offset, or no zone at all (UTC). Null when it is not a date-time.
 */
export function parseOcpiDateTime(value: string): Date | null {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/i.exec(value.trim());
  if (!m) return null;
  const fraction = m[3] ? `.${m[3].slice(0, 3).padEnd(3, "0")}` : "";
  const zone = !m[4] || m[4].toUpperCase() === "Z" ? "Z" : m[4].includes(":") ? m[4] : `${m[4].slice(0, 3)}:${m[4].slice(3)}`;
  const at = new Date(`${m[1]}T${m[2]}${fraction}${zone}`);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** A DateTime exactly as types.asciidoc §DateTime writes it (`T`, at most milliseconds, `Z` or none): anything else was read liberally. */
export const isStrictOcpiDateTime = (value: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z?$/.test(value);

/**
 * What a partner sent, with every `null` member of an object dropped: an optional field sent as
 * null (Jackson, pydantic) is read as absent; a required one is then missing and refused as before.
 */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (v !== null) out[k] = withoutNulls(v);
    return out;
  }
  return value;
}

/** types.asciidoc §number: "unless mentioned otherwise, numbers use 4 decimals". */
export const OCPI_DECIMALS = 4;

/**
 * Everything we emit, with every number rounded to OCPI_DECIMALS: the one rounding at the
 * boundary, for the envelopes we answer and the bodies we send. Integers pass unchanged.
 */
export function ocpiNumbers<T>(value: T): T {
  if (typeof value === "number") return (Number.isInteger(value) ? value : Math.round(value * 10 ** OCPI_DECIMALS) / 10 ** OCPI_DECIMALS) as T;
  if (Array.isArray(value)) return value.map(ocpiNumbers) as T;
  if (value && typeof value === "object" && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = ocpiNumbers(v);
    return out as T;
  }
  return value;
}

export function envelope<T>(now: Date, data: T | undefined, statusCode: number = OCPI_STATUS.SUCCESS, message?: string): OcpiEnvelope<T> {
  return {
    ...(data === undefined ? {} : { data: ocpiNumbers(data) }),
    status_code: statusCode,
    ...(message ? { status_message: message } : {}),
    timestamp: ocpiDateTime(now),
  };
}

/** An error answered as an envelope with an HTTP status (401, 404, 405…) and an OCPI status code. */
export class OcpiError extends Error {
  override name = "OcpiError";
  constructor(
    readonly httpStatus: 200 | 400 | 401 | 404 | 405 | 413 | 429 | 500 | 503,
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}
