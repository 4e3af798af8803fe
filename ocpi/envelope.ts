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

export function envelope<T>(now: Date, data: T | undefined, statusCode: number = OCPI_STATUS.SUCCESS, message?: string): OcpiEnvelope<T> {
  return {
    ...(data === undefined ? {} : { data }),
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
