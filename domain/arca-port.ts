// How invoicing speaks to ARCA's electronic-invoice web services (WSAA + WSFEv1), whatever
// carries the SOAP: invoicing depends on this shape only, and the ARCA client and its test fakes
// provide it.

/** ARCA voucher codes: Factura A/B/C and their credit notes. */
export const VOUCHER_TYPES = { FACTURA_A: 1, NOTA_CREDITO_A: 3, FACTURA_B: 6, NOTA_CREDITO_B: 8, FACTURA_C: 11, NOTA_CREDITO_C: 13 } as const;
export type VoucherType = (typeof VOUCHER_TYPES)[keyof typeof VOUCHER_TYPES];

export type TaxCondition = "RESPONSABLE_INSCRIPTO" | "MONOTRIBUTO" | "EXENTO";
export type ArcaEnvironment = "HOMOLOGACION" | "PRODUCCION";

/** What a company's fiscal settings give invoicing (the certificate stays inside the client). */
export interface FiscalSettings {
  companyId: string;
  cuit: string; // 11 digits
  taxCondition: TaxCondition;
  pointOfSale: number;
  environment: ArcaEnvironment;
}

/** One FECAESolicitar detail, amounts in centavos (the client converts to ARCA's decimals). */
export interface CaeRequest {
  pointOfSale: number;
  type: VoucherType;
  number: number;
  concept: 2; // services
  issueDate: string; // YYYY-MM-DD, Argentine date
  serviceFrom: string; // YYYY-MM-DD
  serviceTo: string; // YYYY-MM-DD
  paymentDueDate: string; // YYYY-MM-DD
  receiverDocType: 80 | 96 | 99; // CUIT, DNI, consumidor final
  receiverDocNumber: string; // "0" for 99
  receiverVatConditionId: number; // CondicionIVAReceptorId (5 consumidor final, 1 RI, 6 monotributo, 4 exento)
  totalCents: number;
  netCents: number; // taxed net (0 for Factura C, whose total is all net)
  exemptCents: number;
  vatCents: number;
  vat: { id: number; baseCents: number; amountCents: number }[]; // id 5 = 21 %, 4 = 10,5 %, 3 = 0 %
  associated?: { type: VoucherType; pointOfSale: number; number: number; cuit: string; date: string }[];
}

export interface ArcaMessage {
  code: number;
  message: string;
}

export type CaeResult =
  | { kind: "authorized"; cae: string; caeDueDate: string; observations: ArcaMessage[] }
  | { kind: "rejected"; errors: ArcaMessage[]; observations: ArcaMessage[] };

/** What ARCA holds of an authorised voucher (FECompConsultar), amounts in centavos. */
export interface AuthorizedVoucher {
  pointOfSale: number;
  type: VoucherType;
  number: number;
  cae: string;
  caeDueDate: string; // YYYY-MM-DD
  issueDate: string; // YYYY-MM-DD
  receiverDocType: number;
  receiverDocNumber: string;
  totalCents: number;
  netCents: number;
  exemptCents: number;
  vatCents: number;
}

/** ARCA could not be reached or answered with a server fault: retry later, nothing was decided. */
export class ArcaUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ArcaUnavailableError";
  }
}

export interface ArcaClient {
  /** FEDummy. */
  health(): Promise<{ appServer: boolean; dbServer: boolean; authServer: boolean }>;
  /** FEParamGetPtosVenta: the points of sale enabled for web services. */
  pointsOfSale(): Promise<number[]>;
  /** FECompUltimoAutorizado. */
  lastAuthorized(pointOfSale: number, type: VoucherType): Promise<number>;
  /** FECAESolicitar for one voucher. */
  requestCae(request: CaeRequest): Promise<CaeResult>;
  /** FECompConsultar: the voucher ARCA authorised with this number, or null when it has none. */
  voucher(pointOfSale: number, type: VoucherType, number: number): Promise<AuthorizedVoucher | null>;
}

/** What invoicing needs from the rest of the product, per company. */
export interface InvoicingGateway {
  fiscalSettings(companyId: string): Promise<FiscalSettings | null>;
  /** The company's ARCA client, or null when its certificate is not configured. */
  arcaFor(companyId: string): Promise<ArcaClient | null>;
}
