// Roaming partners' drivers at our chargers (OCPI, ADR 0021). A tag the company does not know,
// presented at a charger whose station is published to roaming, may be a token of one of the
// company's eMSP partners: the central system asks a RoamingAuthorizer — the OCPI Tokens module,
// wired in by server.ts (ocpp cannot import ocpi: the layers run the other way). Tags the company
// knows never get here, so Authorize for them costs what it did.
import type { TagAnswer } from "../domain/authorization";

export interface RoamingRequest {
  businessId: string;
  /** The OCPI location: the charger's station (published to roaming). */
  stationId: string;
  /** The OCPI EVSE uid: the charger. */
  chargerId: string;
  idTag: string;
  /** OCPP 2.0.1 IdTokenEnumType (ISO14443, eMAID, …); absent on 1.6. */
  idTokenType?: string;
}

/** A partner's answer for one of its tokens, to remember with the session it starts. */
export interface RoamingGrant {
  status: TagAnswer;
}

export interface RoamingAuthorizer {
  /**
   * The answer of the partner that owns the token (stored, or asked in real time within a few
   * seconds); null when no partner claims it — the station's own policy decides then. Never
   * throws: a partner that cannot answer is the authorizer's to handle.
   */
  authorize(request: RoamingRequest): Promise<RoamingGrant | null>;
  /** An accepted grant started a session: it belongs to the partner (its Sessions and CDR go to it). */
  sessionStarted(grant: RoamingGrant, session: { id: string; chargerId: string; connectorNumber: number }): Promise<void>;
}
