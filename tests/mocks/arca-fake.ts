// An in-memory ARCA for invoicing tests: numbers each point of sale and voucher type strictly in
// sequence (a request for any other number is refused, as FECAESolicitar refuses it), answers
// 14-digit CAEs, and can be told to reject, to be down, or to lose its answer after authorising
// (the process "dies" between the request and the answer). FECompConsultar answers from what it
// authorised (a test may change a voucher there to make ARCA's record disagree with ours).
import { ArcaUnavailableError, type ArcaClient, type AuthorizedVoucher, type CaeRequest, type CaeResult, type FiscalSettings, type InvoicingGateway, type VoucherType } from "../../domain/arca-port";

export interface FakeArca extends ArcaClient {
  /** Every voucher authorised, in order. */
  authorized: (CaeRequest & { cae: string; caeDueDate: string })[];
  /** Every FECAESolicitar received. */
  requests: CaeRequest[];
  down: boolean;
  /** The next requests are rejected with these errors. */
  rejectNext: { code: number; message: string }[] | null;
  /** The next request is authorised, then its answer is lost (throws a plain Error). */
  loseNextAnswer: boolean;
}

export function fakeArca(): FakeArca {
  const last = new Map<string, number>();
  let caeSeq = 0;
  const key = (pos: number, type: number) => `${pos}/${type}`;
  const fake: FakeArca = {
    authorized: [],
    requests: [],
    down: false,
    rejectNext: null,
    loseNextAnswer: false,
    async health() {
      if (fake.down) throw new ArcaUnavailableError("ARCA no responde (simulado).");
      return { appServer: true, dbServer: true, authServer: true };
    },
    async pointsOfSale() {
      if (fake.down) throw new ArcaUnavailableError("ARCA no responde (simulado).");
      return [3];
    },
    async lastAuthorized(pos: number, type: VoucherType) {
      if (fake.down) throw new ArcaUnavailableError("ARCA no responde (simulado).");
      return last.get(key(pos, type)) ?? 0;
    },
    async requestCae(req: CaeRequest): Promise<CaeResult> {
      if (fake.down) throw new ArcaUnavailableError("ARCA no responde (simulado).");
      fake.requests.push(req);
      if (fake.rejectNext) {
        const errors = fake.rejectNext;
        fake.rejectNext = null;
        return { kind: "rejected", errors, observations: [] };
      }
      const expected = (last.get(key(req.pointOfSale, req.type)) ?? 0) + 1;
      if (req.number !== expected) return { kind: "rejected", errors: [{ code: 10016, message: `El número de comprobante informado debe ser ${expected}.` }], observations: [] };
      if (req.totalCents !== req.netCents + req.vatCents + req.exemptCents) return { kind: "rejected", errors: [{ code: 10048, message: "El importe total no coincide con la suma de sus componentes." }], observations: [] };
      last.set(key(req.pointOfSale, req.type), req.number);
      const cae = String(76_000_000_000_000 + ++caeSeq);
      const caeDueDate = addDays(req.issueDate, 10);
      fake.authorized.push({ ...req, cae, caeDueDate });
      if (fake.loseNextAnswer) {
        fake.loseNextAnswer = false;
        throw new Error("socket hang up");
      }
      return { kind: "authorized", cae, caeDueDate, observations: [] };
    },
    async voucher(pointOfSale: number, type: VoucherType, number: number): Promise<AuthorizedVoucher | null> {
      if (fake.down) throw new ArcaUnavailableError("ARCA no responde (simulado).");
      const v = fake.authorized.find((a) => a.pointOfSale === pointOfSale && a.type === type && a.number === number);
      if (!v) return null;
      const { cae, caeDueDate, issueDate, receiverDocType, receiverDocNumber, totalCents, netCents, exemptCents, vatCents } = v;
      return { pointOfSale, type, number, cae, caeDueDate, issueDate, receiverDocType, receiverDocNumber, totalCents, netCents, exemptCents, vatCents };
    },
  };
  return fake;
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** A gateway with one fake ARCA per company (each company's own numbering) and each company's settings, set by the test (none: not configured). */
export function fakeGateway(): InvoicingGateway & { settings: Map<string, FiscalSettings>; arca(companyId: string): FakeArca } {
  const settings = new Map<string, FiscalSettings>();
  const clients = new Map<string, FakeArca>();
  const arca = (companyId: string) => {
    let c = clients.get(companyId);
    if (!c) clients.set(companyId, (c = fakeArca()));
    return c;
  };
  return {
    settings,
    arca,
    async fiscalSettings(companyId) {
      return settings.get(companyId) ?? null;
    },
    async arcaFor(companyId) {
      return settings.has(companyId) ? arca(companyId) : null;
    },
  };
}
