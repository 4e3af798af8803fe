// A CUIT another company holds: registering it answers like a fresh registration (no company, the
// holder's owner e-mailed), and changing a profile's CUIT to it is refused without saying why.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { businessMembers, businessUsers } from "#db/schema";
import { memoryInbox } from "#infra/mail";
import { CUIT_CHANGES_PER_HOUR, CUIT_UNAVAILABLE_MESSAGE, REGISTRATIONS_PER_HOUR } from "#api/routes/cuit-claims";
import { createTenant, expectProblem, mintToken, openHarness, testBackends, validCuit, type Harness, type Tenant } from "./helpers";

const registration = (cuit: string) => ({
  businessName: "Cargas del Sur S.A.",
  cuit,
  businessAddress: "Av. Corrientes 1234, CABA",
  phoneNumber: "+54 11 4567-8900",
});

/** Status, content type and body of an answer, with what the caller sent (CUIT, e-mail) blanked. */
async function answer(res: Response) {
  const text = await res.text();
  const body = JSON.parse(text) as Record<string, unknown>;
  return { status: res.status, type: res.headers.get("content-type"), body: { ...body, cuit: "·", email: "·" } };
}

describe.each(testBackends())("CUIT already registered ($name)", (backend) => {
  let h: Harness;
  let holder: Tenant;
  let failMail = false;
  const inbox = memoryInbox({ fail: () => failMail });
  const uid = (name: string) => `${name}-${backend.name}`;

  beforeAll(async () => {
    h = await openHarness(backend, { mailer: inbox, accountRequestsPerMinute: 100_000 });
    holder = await createTenant(h, uid("holder"));
  });
  afterAll(() => h?.close());

  it("answers a registration under a registered CUIT exactly like a fresh one", async () => {
    const fresh = await answer(await h.call("POST", "/Account/Business", { token: mintToken(uid("fresh")), body: registration(validCuit(31_000_001)) }));
    const dup = await answer(await h.call("POST", "/Account/Business", { token: mintToken(uid("dup")), body: registration(holder.cuit) }));
    expect(fresh.status).toBe(201);
    expect(dup).toEqual(fresh);
    expect(dup.body).toMatchObject({ status: "PENDING", businessName: "Cargas del Sur S.A." });
  });

  it("afterwards, the account reads exactly like a fresh registrant's: pending review", async () => {
    const read = async (name: string, cuit: string) => {
      const token = mintToken(uid(name));
      expect((await h.call("POST", "/Account/Business", { token, body: registration(cuit) })).status).toBe(201);
      const res = await h.call("GET", "/Account/Business", { token });
      const body = (await res.json()) as { businessId?: string; companies: { businessId: string }[] };
      expect(body.businessId).toMatch(/^[0-9a-f-]{36}$/);
      // The dashboard then acts for that id (X-Enchufa-Business), as for a company of its own.
      const chosen = await h.call("GET", "/Account/Business", { token, headers: { "X-Enchufa-Business": body.businessId! } });
      expect(chosen.status).toBe(200);
      expect(await chosen.json()).toEqual(body);
      // What differs by nature: the account's e-mail, the CUIT typed and the id.
      const blank = { ...body, email: "·", cuit: "·", businessId: "·", companies: body.companies.map((x) => ({ ...x, businessId: "·" })) };
      return { status: res.status, type: res.headers.get("content-type"), body: blank };
    };
    // A company of its own, so that the owner e-mails this sends leave the holder's daily ones alone.
    const taken = await createTenant(h, uid("holder-read"));
    const fresh = await read("fresh-read", validCuit(31_000_300));
    const dup = await read("dup-read", taken.cuit);
    expect(dup).toEqual(fresh);
    expect(dup.body).toMatchObject({ exists: true, status: "PENDING", businessName: "Cargas del Sur S.A.", role: "OWNER" });
  });

  it("creates no company for the duplicate and leaves the holder's untouched", async () => {
    const token = mintToken(uid("dup2"));
    await h.call("POST", "/Account/Business", { token, body: registration(holder.cuit) });
    expect(await h.db.select().from(businessUsers).where(eq(businessUsers.firebaseUid, uid("dup2")))).toEqual([]);
    expect(await h.db.select().from(businessMembers).where(eq(businessMembers.firebaseUid, uid("dup2")))).toEqual([]);
    const withCuit = await h.db.select().from(businessUsers).where(eq(businessUsers.cuit, holder.cuit));
    expect(withCuit.map((b) => b.id)).toEqual([holder.businessId]);
    expect(withCuit[0].businessName).toBe(`Empresa ${uid("holder")}`);
    // The account can still join the company by invitation, or register another CUIT.
    const res = await h.call("POST", "/Account/Business", { token, body: registration(validCuit(31_000_050)) });
    expect(res.status).toBe(201);
  });

  it("two registrations racing for one CUIT both answer 201, and only one company exists", async () => {
    const cuit = validCuit(31_000_200);
    const answers = await Promise.all(
      ["racer-a", "racer-b"].map((name) => h.call("POST", "/Account/Business", { token: mintToken(uid(name)), body: registration(cuit) })),
    );
    expect(answers.map((r) => r.status)).toEqual([201, 201]);
    expect(await h.db.select().from(businessUsers).where(eq(businessUsers.cuit, cuit))).toHaveLength(1);
  });

  it("e-mails the registered company's owner, not the registrant", async () => {
    const before = inbox.messages.length;
    await h.call("POST", "/Account/Business", { token: mintToken(uid("dup3"), { email: "Curioso@Example.com" }), body: registration(holder.cuit) });
    // Sent after the answer (its time and its failures never show in it).
    await vi.waitFor(() => expect(inbox.messages.length).toBeGreaterThan(before));
    const sent = inbox.messages.slice(0, inbox.messages.length - before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ kind: "cuit-claim", to: `${uid("holder")}@example.com` });
    expect(sent[0].subject).toContain(`Empresa ${uid("holder")}`);
    expect(sent[0].text).toContain("curioso@example.com");
    expect(sent[0].text).toContain("Equipo (https://enchufa.test/team)");
    expect(sent.some((m) => m.to.toLowerCase() === "curioso@example.com")).toBe(false);
  });

  it("answers the same when the owner's e-mail cannot be sent", async () => {
    const other = await createTenant(h, uid("holder-unreachable"));
    failMail = true;
    try {
      const res = await h.call("POST", "/Account/Business", { token: mintToken(uid("dup4")), body: registration(other.cuit) });
      expect(res.status).toBe(201);
      await vi.waitFor(() => expect(h.logs.some((l) => l.msg === "registro: el aviso al dueño no se pudo enviar")).toBe(true));
    } finally {
      failMail = false;
    }
  });

  it(`limits an account to ${REGISTRATIONS_PER_HOUR} registration attempts an hour`, async () => {
    const token = mintToken(uid("prober"));
    for (let i = 0; i < REGISTRATIONS_PER_HOUR; i++) {
      const res = await h.call("POST", "/Account/Business", { token, body: registration(holder.cuit) });
      expect(res.status).toBe(201);
    }
    const p = await expectProblem(await h.call("POST", "/Account/Business", { token, body: registration(holder.cuit) }), 429);
    expect(p.title).toMatch(/^Demasiados intentos/);
  });

  it("refuses a profile's CUIT change to another company's without saying so, and limits the attempts", async () => {
    const pending = await createTenant(h, uid("pending"), "PENDING");
    const res = await h.call("PATCH", "/Business/BusinessUser/Update", { token: pending.token, body: { cuit: holder.cuit } });
    const text = await res.text();
    expect(res.status).toBe(409);
    const p = JSON.parse(text);
    expect(p.title).toBe(CUIT_UNAVAILABLE_MESSAGE);
    expect(p.errors).toEqual({ cuit: [CUIT_UNAVAILABLE_MESSAGE] });
    expect(text).not.toMatch(/registrad|en uso|otra empresa/i);
    expect(text).not.toContain(holder.businessId);
    expect(text).not.toContain(`Empresa ${uid("holder")}`);

    for (let i = 1; i < CUIT_CHANGES_PER_HOUR; i++) {
      await h.call("PATCH", "/Business/BusinessUser/Update", { token: pending.token, body: { cuit: holder.cuit } });
    }
    const limited = await expectProblem(await h.call("PATCH", "/Business/BusinessUser/Update", { token: pending.token, body: { cuit: validCuit(31_000_099) } }), 429);
    expect(limited.errors?.cuit?.[0]).toMatch(/^Demasiados intentos/);
  });
});
