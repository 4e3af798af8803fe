// The OCPP subprotocols the central system speaks, negotiated per connection (WebSocket
// subprotocol names, as on the wire).

export const OCPP_VERSIONS = ["ocpp1.6", "ocpp2.0.1"] as const;
export type OcppProtocol = (typeof OCPP_VERSIONS)[number];
