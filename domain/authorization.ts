// Who may charge: a station's authorization policy and the company's RFID tags decide
// the answer to OCPP Authorize / StartTransaction (1.6) and Authorize / TransactionEvent (2.0.1).
// Pure: the OCPP store reads the rows, this decides; the forms share the labels.

export const AUTHORIZATION_POLICIES = ["OPEN", "KNOWN_TAGS"] as const;
export type AuthorizationPolicy = (typeof AUTHORIZATION_POLICIES)[number];

export const AUTHORIZATION_POLICY_LABELS: Record<AuthorizationPolicy, string> = {
  OPEN: "Abierta: cualquier tarjeta",
  KNOWN_TAGS: "Solo tarjetas registradas",
};

/** The answers both protocols share (1.6 AuthorizationStatus ⊂ 2.0.1 AuthorizationStatusEnumType). */
export type TagAnswer = "Accepted" | "Blocked" | "Expired" | "Invalid";

/** OCPP 1.6 IdToken is CiString20; we keep tags within it so they work on both protocols. */
export const ID_TAG_MAX = 20;

export interface KnownTag {
  blocked: boolean;
  /** Last valid day (YYYY-MM-DD, inclusive, company time zone); null: never expires. */
  expiresOn: string | null;
  /** null: the tag has no group (every station). */
  group: { allStations: boolean; stationIds: readonly string[]; rateId: string | null } | null;
}

export interface AuthorizationInput {
  /** The charger is disabled or its company suspended/rejected: every tag is Blocked. */
  chargerBlocked: boolean;
  /** The station of the charger; null when the charger is not on a station yet (treated as OPEN). */
  stationId: string | null;
  policy: AuthorizationPolicy;
  /** The company's tag with this idTag (case-insensitive), if any. */
  tag: KnownTag | null;
  /** Today in the company's time zone, YYYY-MM-DD. */
  today: string;
}

/** Whether the tag's group lets it use this station (no group: every station). */
export function groupAllows(tag: KnownTag, stationId: string | null): boolean {
  if (!tag.group || tag.group.allStations) return true;
  return stationId !== null && tag.group.stationIds.includes(stationId);
}

/**
 * The answer for a tag at a station:
 * - a blocked charger or company: Blocked;
 * - a tag the company knows: Blocked when blocked, Expired after its last day — at any station, so
 *   blocking a lost card stops it everywhere;
 * - KNOWN_TAGS: an unknown tag, or one whose group excludes the station, is Invalid;
 * - OPEN (the default): any other tag is Accepted, as before.
 */
export function decideAuthorization(input: AuthorizationInput): TagAnswer {
  if (input.chargerBlocked) return "Blocked";
  const { tag } = input;
  const policy = input.stationId === null ? "OPEN" : input.policy;
  if (tag) {
    if (tag.blocked) return "Blocked";
    if (tag.expiresOn !== null && tag.expiresOn < input.today) return "Expired";
    if (policy === "KNOWN_TAGS" && !groupAllows(tag, input.stationId)) return "Invalid";
    return "Accepted";
  }
  return policy === "KNOWN_TAGS" ? "Invalid" : "Accepted";
}

/** The rate a session of this tag is priced with: its group's rate where the group applies, else the connector's. */
export function sessionRateId(tag: KnownTag | null, stationId: string | null, connectorRateId: string | null): string | null {
  if (tag?.group?.rateId && groupAllows(tag, stationId)) return tag.group.rateId;
  return connectorRateId;
}

/** YYYY-MM-DD of `now` in a time zone. */
/** One formatter per time zone: building an Intl.DateTimeFormat is far costlier than using one, and every Authorize asks. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

export function localDate(now: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    // Time zones are the stations' (a short list); the cap only guards against a flood of odd ones.
    if (dayFormats.size < 1_000) dayFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}
