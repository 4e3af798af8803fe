// WSAA access tickets in the database (infra/arca/ticket-store.ts), on PGlite and PostgreSQL,
// against the ARCA emulator over msw, which refuses a second ticket while one is valid as WSAA
// does: a restarted process (a second client over the same database) uses the stored ticket
// without asking LoginCms; the token and sign are sealed; a process that lost its ticket is told
// so in Spanish and waits for it to expire instead of asking again; two processes logging in at
// once make one login: the one holding the claim asks, the other takes its ticket.
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "#db/client";
import { arcaAccessTickets } from "#db/schema";
import { ArcaLoginError, createArcaClient, memoryTicketStore, TICKET_LIFETIME_MS, type TicketStore } from "#infra/arca/client";
import { dbTicketStore } from "#infra/arca/ticket-store";
import { createKeyRing } from "#infra/crypto";
import { makeArcaCertificate } from "../../scripts/arca-test-certificates";
import { arca, ARCA_TEST_URLS } from "../mocks/arca";
import { TEST_KEYS, testBackends } from "./helpers";

const server = setupServer(...arca.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "bypass" }));
afterEach(() => arca.reset());
afterAll(() => server.close());

const ring = createKeyRing(TEST_KEYS);
let seq = 0;

describe.each(testBackends())("WSAA tickets in the database ($name)", (backend) => {
  let database: Database;
  let now: Date;
  let cuit: string;
  let cert: ReturnType<typeof makeArcaCertificate>;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database.close());
  beforeEach(() => {
    now = new Date("2026-11-29T12:00:00Z");
    arca.reset({ now: () => now });
    // A certificate of its own per test: tickets are kept per certificate, and the database outlives each test.
    cuit = ["30712345671", "20123456786", "27234567891", "30500010912", "20301234561"][seq++ % 5];
    cert = makeArcaCertificate(cuit);
    arca.emulator.registerTaxpayer(cuit, cert.certPem, [3]);
  });

  const client = (tickets: TicketStore) =>
    createArcaClient({ cuit, certPem: cert.certPem, keyPem: cert.keyPem, wsaaUrl: ARCA_TEST_URLS.wsaa, wsfeUrl: ARCA_TEST_URLS.wsfe, tickets, now: () => now, timeoutMs: 2_000 });
  const logins = () => arca.emulator.state().calls.LoginCms ?? 0;

  it("a restarted process (a second client over the same database) uses the stored ticket without calling LoginCms; token and sign are sealed", async () => {
    const first = client(dbTicketStore(database.db, ring));
    const ticket = await first.login();
    expect(await first.pointsOfSale()).toEqual([3]);
    expect(logins()).toBe(1);
    const rows = await database.db.select().from(arcaAccessTickets);
    const row = rows.find((r) => r.key.includes(cuit))!;
    expect(row.ticketSealed).toMatch(/^v1\./);
    expect(row.ticketSealed).not.toContain(ticket.token);
    expect(row.ticketSealed).not.toContain(ticket.sign);
    // The restart: a new store and client, nothing shared in memory but the database.
    const second = client(dbTicketStore(database.db, ring));
    expect((await second.login()).token).toBe(ticket.token);
    expect(await second.pointsOfSale()).toEqual([3]);
    expect(logins()).toBe(1);
  });

  it("a ticket WSAA gave but nobody stored: the refusal is said in Spanish, nobody asks again until it expires, then a new one is stored", async () => {
    // A process got a ticket and died before storing it (here: kept only in its memory).
    await client(memoryTicketStore()).login();
    now = new Date(now.getTime() + 60 * 60_000);
    const restarted = client(dbTicketStore(database.db, ring));
    const error = await restarted.login().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArcaLoginError);
    expect((error as ArcaLoginError).code).toBe("coe.alreadyAuthenticated");
    expect((error as Error).message).toMatch(/ARCA ya entregó un acceso vigente para este certificado .* volvemos a pedirlo el /);
    expect(logins()).toBe(2);
    // Neither this process nor another node asks WSAA again meanwhile.
    await expect(restarted.pointsOfSale()).rejects.toBeInstanceOf(ArcaLoginError);
    await expect(client(dbTicketStore(database.db, ring)).login()).rejects.toBeInstanceOf(ArcaLoginError);
    expect(logins()).toBe(2);
    // Past the lost ticket's 12 hours, the next call logs in and keeps its ticket.
    now = new Date(now.getTime() + TICKET_LIFETIME_MS);
    expect(await restarted.pointsOfSale()).toEqual([3]);
    expect(logins()).toBe(3);
    expect(await client(dbTicketStore(database.db, ring)).pointsOfSale()).toEqual([3]);
    expect(logins()).toBe(3);
  });

  it("the wait after a refusal is bounded by our own last login: 12 h from when it was asked", async () => {
    const store = dbTicketStore(database.db, ring);
    const a = client(store);
    await a.login();
    const key = (await database.db.select().from(arcaAccessTickets)).find((r) => r.key.includes(cuit))!.key;
    // The stored ticket is lost (a database restored from a backup, a key that left the ring).
    await database.db.update(arcaAccessTickets).set({ ticketSealed: null, expiresAt: null }).where(eq(arcaAccessTickets.key, key));
    const loginAt = now.getTime();
    now = new Date(loginAt + 3 * 3_600_000);
    await expect(client(store).login()).rejects.toBeInstanceOf(ArcaLoginError);
    const [row] = await database.db.select().from(arcaAccessTickets).where(eq(arcaAccessTickets.key, key));
    expect(row.waitUntil!.getTime()).toBeGreaterThanOrEqual(loginAt + TICKET_LIFETIME_MS);
    expect(row.waitUntil!.getTime()).toBeLessThanOrEqual(loginAt + TICKET_LIFETIME_MS + 5 * 60_000);
  });

  it("while another process holds the login claim, a process asks nobody and takes the ticket it stores", async () => {
    const key = `${ARCA_TEST_URLS.wsaa}|${cuit}|${createHash("sha256").update(cert.certPem).digest("hex").slice(0, 16)}|wsfe`;
    const other = dbTicketStore(database.db, ring);
    expect(await other.claimLogin(key, now, 60_000)).toMatchObject({ claimed: true });
    expect(await other.claimLogin(key, now, 60_000)).toEqual({ claimed: false, waitUntil: null });
    const waiting = client(dbTicketStore(database.db, ring)).login();
    await new Promise((r) => setTimeout(r, 300));
    await other.set(key, { token: "token-del-otro", sign: "firma-del-otro", expiresAt: new Date(now.getTime() + TICKET_LIFETIME_MS) });
    expect((await waiting).token).toBe("token-del-otro");
    expect(logins()).toBe(0);
  });
});
