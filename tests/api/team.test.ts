// The team through the Business API, on a real database: invitations (signed link,
// single use, expiring, for the invited address), joining, roles and ownership transfer,
// removal ending access at once, several companies per account, and the migration that made
// every existing company's account its owner.
import { mkdtempSync, readFileSync, writeFileSync, cpSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/pglite/migrator";
import { drizzle } from "drizzle-orm/pglite";
import { PGlite } from "@electric-sql/pglite";
import * as schema from "#db/schema";
import { businessInvitations, businessMembers, pushRegistrations } from "#db/schema";
import { memoryInbox } from "#infra/mail";
import { chargerInput, createTenant, expectProblem, expectStatus, mintToken, openHarness, rateInput, testBackends, type Harness, type Tenant } from "./helpers";

const tokenOf = (text: string) => /token=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? "";

describe.each(testBackends())("team ($name)", (backend) => {
  let h: Harness;
  let owner: Tenant;
  let other: Tenant;
  const inbox = memoryInbox();
  let failMail = false;
  let clock = Date.now();
  const failing = memoryInbox({ fail: () => failMail });
  const mailer = { send: (m: Parameters<typeof inbox.send>[0]) => (failMail ? failing.send(m) : inbox.send(m)) };

  beforeAll(async () => {
    h = await openHarness(backend, { mailer, now: () => new Date(clock), accountRequestsPerMinute: 100_000 });
    owner = await createTenant(h, "team-owner");
    other = await createTenant(h, "team-other");
  });
  afterAll(() => h?.close());

  const as = (uid: string, email = `${uid}@example.com`) => mintToken(uid, { email });
  const lastLinkTo = (email: string) => tokenOf(inbox.messages.find((m) => m.to === email)?.text ?? "");

  async function invite(email: string, role: string, token = owner.token) {
    return expectStatus(await h.call("POST", "/Business/Invitation", { token, body: { email, role } }), 201);
  }

  it("a registered company's account is its only owner", async () => {
    const members = await expectStatus(await h.call("GET", "/Business/Member", { token: owner.token }), 200);
    expect(members.items).toEqual([expect.objectContaining({ email: "team-owner@example.com", role: "OWNER", you: true })]);
    const account = await expectStatus(await h.call("GET", "/Account/Business", { token: owner.token }), 200);
    expect(account).toMatchObject({ exists: true, businessId: owner.businessId, role: "OWNER", companies: [{ businessId: owner.businessId, role: "OWNER" }] });
  });

  it("an invitation: a link by e-mail, a preview, only for the invited address, once", async () => {
    const inv = await invite("Tecnica@Example.com", "TECHNICIAN");
    expect(inv).toMatchObject({ email: "tecnica@example.com", role: "TECHNICIAN", expired: false, invitedByEmail: "team-owner@example.com" });
    const mail = inbox.messages[0];
    expect(mail).toMatchObject({ to: "tecnica@example.com", kind: "invitation", subject: "Te invitaron a «Empresa team-owner» en Enchufá" });
    expect(mail.text).toContain("con el rol Técnico");
    expect(mail.text).toMatch(/https:\/\/enchufa\.test\/auth\/invitation\?token=[A-Za-z0-9_-]{43}\n/);
    const token = tokenOf(mail.text);
    // Only the hash is stored.
    const [row] = await h.db.select().from(businessInvitations).where(eq(businessInvitations.id, inv.id));
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);

    const preview = await expectStatus(await h.call("POST", "/Invitation/Lookup", { body: { token } }), 200);
    expect(preview).toMatchObject({ businessName: "Empresa team-owner", email: "tecnica@example.com", role: "TECHNICIAN", state: "PENDING" });
    await expectProblem(await h.call("POST", "/Invitation/Lookup", { body: { token: `${token.slice(0, -2)}xx` } }), 404);

    // Another account cannot use it.
    const wrong = await expectProblem(await h.call("POST", "/Business/Member", { token: as("team-intruder"), body: { token } }), 403);
    expect(wrong.title).toBe("Esta invitación es para tecnica@example.com. Ingresá con esa cuenta para aceptarla.");

    const joined = await expectStatus(await h.call("POST", "/Business/Member", { token: as("team-tech", "tecnica@example.com"), body: { token } }), 201);
    expect(joined).toMatchObject({ businessId: owner.businessId, businessName: "Empresa team-owner", role: "TECHNICIAN", created: true });
    const again = await expectProblem(await h.call("POST", "/Business/Member", { token: as("team-tech", "tecnica@example.com"), body: { token } }), 410);
    expect(again.title).toBe("La invitación ya fue usada.");
    expect((await expectStatus(await h.call("POST", "/Invitation/Lookup", { body: { token } }), 200)).state).toBe("ACCEPTED");

    // The new member acts for the company with the role's permissions.
    const tech = as("team-tech", "tecnica@example.com");
    expect((await expectStatus(await h.call("GET", "/Account/Business", { token: tech }), 200)).role).toBe("TECHNICIAN");
    await expectStatus(await h.call("GET", "/Business/ChargingStation", { token: tech }), 200);
    const refused = await expectProblem(await h.call("GET", "/Business/Fees", { token: tech }), 403);
    expect(refused.title).toBe("Tu rol (Técnico) no permite ver las tarifas.");
    expect((await expectStatus(await h.call("GET", "/Business/Invitation", { token: owner.token }), 200)).items).toEqual([]);
  });

  it("refuses duplicate invitations, members, the owner role and a company's own strangers", async () => {
    await invite("dup@example.com", "READER");
    expect((await expectProblem(await h.call("POST", "/Business/Invitation", { token: owner.token, body: { email: "dup@example.com", role: "ADMIN" } }), 409)).title).toBe(
      "Ya hay una invitación pendiente para ese correo: reenviala o revocala.",
    );
    expect((await expectProblem(await h.call("POST", "/Business/Invitation", { token: owner.token, body: { email: "tecnica@example.com", role: "ADMIN" } }), 409)).title).toBe(
      "tecnica@example.com ya es miembro de la empresa.",
    );
    const bad = await expectProblem(await h.call("POST", "/Business/Invitation", { token: owner.token, body: { email: "x@example.com", role: "OWNER" } }), 422);
    expect(bad.errors).toEqual({ role: ["Elegí un rol de la lista."] });
    // Another company's invitation ids are not found.
    const [dup] = await h.db.select().from(businessInvitations).where(eq(businessInvitations.email, "dup@example.com"));
    await expectProblem(await h.call("DELETE", `/Business/Invitation/${dup.id}`, { token: other.token }), 404);
    await expectProblem(await h.call("POST", `/Business/Invitation/${dup.id}/Resend`, { token: other.token }), 404);
  });

  it("an expired link says so; resending gives a new link and the old one stops working; a revoked one is refused", async () => {
    const inv = await invite("late@example.com", "BILLING");
    const first = lastLinkTo("late@example.com");
    clock += 8 * 86_400_000;
    try {
      expect((await expectStatus(await h.call("POST", "/Invitation/Lookup", { body: { token: first } }), 200)).state).toBe("EXPIRED");
      const expired = await expectProblem(await h.call("POST", "/Business/Member", { token: as("team-late", "late@example.com"), body: { token: first } }), 410);
      expect(expired.title).toBe("La invitación venció. Pedile a quien te invitó que te la reenvíe.");
      const listed = await expectStatus(await h.call("GET", "/Business/Invitation", { token: owner.token }), 200);
      expect(listed.items.find((i: { id: string }) => i.id === inv.id)).toMatchObject({ expired: true });

      const resent = await expectStatus(await h.call("POST", `/Business/Invitation/${inv.id}/Resend`, { token: owner.token }), 200);
      expect(resent.expired).toBe(false);
      const second = lastLinkTo("late@example.com");
      expect(second).not.toBe(first);
      await expectProblem(await h.call("POST", "/Business/Member", { token: as("team-late", "late@example.com"), body: { token: first } }), 404);
      await expectStatus(await h.call("POST", "/Business/Member", { token: as("team-late", "late@example.com"), body: { token: second } }), 201);
    } finally {
      clock -= 8 * 86_400_000;
    }

    const gone = await invite("gone@example.com", "READER");
    await expectStatus(await h.call("DELETE", `/Business/Invitation/${gone.id}`, { token: owner.token }), 204);
    const revoked = await expectProblem(await h.call("POST", "/Business/Member", { token: as("team-gone", "gone@example.com"), body: { token: lastLinkTo("gone@example.com") } }), 410);
    expect(revoked.title).toBe("La invitación fue revocada.");
  });

  it("an e-mail that cannot be sent invites nobody", async () => {
    failMail = true;
    try {
      const p = await expectProblem(await h.call("POST", "/Business/Invitation", { token: owner.token, body: { email: "nomail@example.com", role: "READER" } }), 502);
      expect(p.title).toBe("No pudimos enviar el correo de la invitación. Probá de nuevo en unos minutos.");
    } finally {
      failMail = false;
    }
    expect(await h.db.select().from(businessInvitations).where(eq(businessInvitations.email, "nomail@example.com"))).toEqual([]);
  });

  async function join(uid: string, email: string, role: string, by = owner.token) {
    await invite(email, role, by);
    return expectStatus(await h.call("POST", "/Business/Member", { token: as(uid, email), body: { token: lastLinkTo(email) } }), 201);
  }

  it("roles: an administrator changes others' roles but not the owner's nor its own; only the owner transfers ownership, and stays as administrator", async () => {
    const admin = await join("team-admin", "admin@example.com", "ADMIN");
    const reader = await join("team-reader", "reader@example.com", "READER");
    const adminToken = as("team-admin", "admin@example.com");
    const members = (await expectStatus(await h.call("GET", "/Business/Member", { token: adminToken }), 200)).items as { id: string; email: string; role: string }[];
    const ownerMember = members.find((m) => m.role === "OWNER")!;

    expect((await expectStatus(await h.call("PATCH", `/Business/Member/${reader.memberId}`, { token: adminToken, body: { role: "BILLING" } }), 200)).role).toBe("BILLING");
    expect((await expectProblem(await h.call("PATCH", `/Business/Member/${ownerMember.id}`, { token: adminToken, body: { role: "READER" } }), 403)).title).toBe(
      "El rol del dueño no se cambia: el dueño puede transferir la propiedad a otro miembro.",
    );
    expect((await expectProblem(await h.call("PATCH", `/Business/Member/${admin.memberId}`, { token: adminToken, body: { role: "READER" } }), 403)).title).toBe(
      "No podés cambiar tu propio rol ni quitarte de la empresa.",
    );
    expect((await expectProblem(await h.call("PATCH", `/Business/Member/${reader.memberId}`, { token: adminToken, body: { role: "OWNER" } }), 403)).title).toBe(
      "Tu rol (Administrador) no permite transferir la propiedad de la empresa.",
    );
    expect((await expectProblem(await h.call("DELETE", `/Business/Member/${ownerMember.id}`, { token: adminToken }), 403)).title).toBe(
      "No se puede quitar al dueño de la empresa. Primero tiene que transferir la propiedad.",
    );
    // A reader cannot touch the team at all.
    const readerToken = as("team-reader", "reader@example.com");
    expect((await expectProblem(await h.call("PATCH", `/Business/Member/${admin.memberId}`, { token: readerToken, body: { role: "READER" } }), 403)).title).toBe(
      "Tu rol (Facturación) no permite invitar, cambiar el rol o quitar miembros.",
    );

    // The transfer: the admin becomes the owner, the owner an administrator; still one owner.
    const moved = await expectStatus(await h.call("PATCH", `/Business/Member/${admin.memberId}`, { token: owner.token, body: { role: "OWNER" } }), 200);
    expect(moved.role).toBe("OWNER");
    const owners = await h.db.select().from(businessMembers).where(and(eq(businessMembers.businessId, owner.businessId), eq(businessMembers.role, "OWNER")));
    expect(owners.map((m) => m.firebaseUid)).toEqual(["team-admin"]);
    expect((await expectStatus(await h.call("GET", "/Account/Business", { token: owner.token }), 200)).role).toBe("ADMIN");
    // The former owner can no longer transfer; the new one can, back.
    await expectProblem(await h.call("PATCH", `/Business/Member/${ownerMember.id}`, { token: owner.token, body: { role: "OWNER" } }), 403);
    await expectStatus(await h.call("PATCH", `/Business/Member/${ownerMember.id}`, { token: adminToken, body: { role: "OWNER" } }), 200);
    expect((await expectStatus(await h.call("GET", "/Account/Business", { token: owner.token }), 200)).role).toBe("OWNER");
    // The audit log tells both sides of each transfer.
    const audit = await expectStatus(await h.call("GET", "/Business/Audit?resource=member", { token: owner.token }), 200);
    const transfers = audit.items.filter((e: { action: string }) => e.action === "member.transfer");
    expect(transfers).toHaveLength(2);
    expect(transfers[1]).toMatchObject({ actorEmail: "team-owner@example.com", actorRole: "OWNER", resourceLabel: "admin@example.com", changes: { role: { before: "ADMIN", after: "OWNER" } } });
  });

  it("removing a member ends their access at once, and their browsers' push", async () => {
    const removed = await join("team-bye", "bye@example.com", "TECHNICIAN");
    const token = as("team-bye", "bye@example.com");
    await h.call("POST", "/Business/Notification/PushRegistration", { token, headers: { "X-Enchufa-Business": owner.businessId }, body: { token: "push-bye-1" } });
    expect(await h.db.select().from(pushRegistrations).where(eq(pushRegistrations.token, "push-bye-1"))).toHaveLength(1);
    await expectStatus(await h.call("GET", "/Business/ChargingStation", { token, headers: { "X-Enchufa-Business": owner.businessId } }), 200);

    await expectStatus(await h.call("DELETE", `/Business/Member/${removed.memberId}`, { token: owner.token }), 204);
    // The very next request: the company is refused; without a company the account has none.
    const p = await expectProblem(await h.call("GET", "/Business/ChargingStation", { token, headers: { "X-Enchufa-Business": owner.businessId } }), 403);
    expect(p).toMatchObject({ type: "urn:enchufa:problem:not-a-member", title: "No sos miembro de esa empresa (o te quitaron de ella)." });
    expect((await expectProblem(await h.call("GET", "/Business/ChargingStation", { token }), 403)).type).toBe("urn:enchufa:problem:business-required");
    expect((await expectStatus(await h.call("GET", "/Account/Business", { token }), 200)).exists).toBe(false);
    expect(await h.db.select().from(pushRegistrations).where(eq(pushRegistrations.token, "push-bye-1"))).toEqual([]);
  });

  it("one account in two companies: the header chooses (checked against membership), the default is the one signed into last", async () => {
    // other's owner joins owner's company as a reader.
    await invite("team-other@example.com", "READER");
    await expectStatus(await h.call("POST", "/Business/Member", { token: other.token, body: { token: lastLinkTo("team-other@example.com") } }), 201);
    const mine = { "X-Enchufa-Business": other.businessId };
    const theirs = { "X-Enchufa-Business": owner.businessId };
    const account = await expectStatus(await h.call("GET", "/Account/Business", { token: other.token, headers: theirs }), 200);
    expect(account).toMatchObject({ businessId: owner.businessId, role: "READER", businessName: "Empresa team-owner" });
    expect(account.companies.map((c: { businessId: string; role: string }) => [c.businessId, c.role]).sort()).toEqual(
      [
        [other.businessId, "OWNER"],
        [owner.businessId, "READER"],
      ].sort(),
    );
    // Acting as a reader in one company, as the owner in the other.
    await expectProblem(await h.call("POST", "/Business/Fees", { token: other.token, headers: theirs, body: {} }), 403);
    await expectProblem(await h.call("POST", "/Business/Fees", { token: other.token, headers: mine, body: {} }), 422);
    // A company the account is not in: refused, whatever the role elsewhere.
    const stranger = await createTenant(h, "team-stranger");
    await expectProblem(await h.call("GET", "/Business/ChargingStation", { token: other.token, headers: { "X-Enchufa-Business": stranger.businessId } }), 403);
    await expectProblem(await h.call("GET", "/Business/ChargingStation", { token: other.token, headers: { "X-Enchufa-Business": "not-a-uuid" } }), 403);
    // Signing in chooses the default for requests without the header.
    await expectStatus(await h.call("POST", "/Account/SignIn", { token: other.token, headers: theirs }), 200);
    expect((await expectStatus(await h.call("GET", "/Account/Business", { token: other.token }), 200)).businessId).toBe(owner.businessId);
    await expectStatus(await h.call("POST", "/Account/SignIn", { token: other.token, headers: mine }), 200);
    expect((await expectStatus(await h.call("GET", "/Account/Business", { token: other.token }), 200)).businessId).toBe(other.businessId);
    const [signedIn] = await h.db.select().from(businessMembers).where(and(eq(businessMembers.businessId, other.businessId), eq(businessMembers.firebaseUid, other.uid)));
    expect(signedIn.lastSignInAt).not.toBeNull();
  });

  it("joining when already a member uses the invitation up and changes nothing", async () => {
    const inv = await invite("twice@example.com", "READER");
    await expectStatus(await h.call("POST", "/Business/Member", { token: as("team-twice", "twice@example.com"), body: { token: lastLinkTo("twice@example.com") } }), 201);
    await h.db.update(businessInvitations).set({ acceptedAt: null }).where(eq(businessInvitations.id, inv.id));
    const again = await expectStatus(await h.call("POST", "/Business/Member", { token: as("team-twice", "twice@example.com"), body: { token: lastLinkTo("twice@example.com") } }), 200);
    expect(again.created).toBe(false);
    const rows = await h.db.select().from(businessMembers).where(eq(businessMembers.firebaseUid, "team-twice"));
    expect(rows).toHaveLength(1);
  });

  it("a technician edits chargers but leaves every connector's rate as it is", async () => {
    await h.db.insert(businessMembers).values({ businessId: owner.businessId, firebaseUid: "team-rates-tech", email: "rates-tech@example.com", role: "TECHNICIAN" });
    const tech = as("team-rates-tech", "rates-tech@example.com");
    const rate = await expectStatus(await h.call("POST", "/Business/Fees", { token: owner.token, body: rateInput({ name: "Tarifa del dueño" }) }), 201);
    const body = chargerInput({ name: "CP tarifado" });
    body.connectors[0] = { ...body.connectors[0], rateId: rate.id } as (typeof body.connectors)[0];
    const charger = await expectStatus(await h.call("POST", "/Business/Charger", { token: owner.token, body }), 201);
    // Same rates, another name: fine.
    await expectStatus(await h.call("PUT", `/Business/Charger/${charger.id}`, { token: tech, body: { ...body, name: "CP renombrado" } }), 200);
    // Taking the rate off, or giving a new connector one: refused.
    const off = { ...body, connectors: body.connectors.map((k) => ({ ...k, rateId: null })) };
    expect((await expectProblem(await h.call("PUT", `/Business/Charger/${charger.id}`, { token: tech, body: off }), 403)).title).toBe(
      "Tu rol (Técnico) no permite asignar tarifas a los conectores.",
    );
    await expectProblem(await h.call("POST", "/Business/Charger", { token: tech, body: { ...chargerInput(), connectors: [{ ...body.connectors[0] }] } }), 403);
    await expectStatus(await h.call("POST", "/Business/Charger", { token: tech, body: chargerInput({ name: "CP sin tarifa" }) }), 201);
  });

  it("the backfill and the trigger: every company has exactly one owner", async () => {
    const result = await h.db.execute(sql`select count(*)::int as n from business_users b
      where (select count(*) from business_members m where m.business_id = b.id and m.role = 'OWNER') <> 1`);
    const n = (result as unknown as { rows: { n: number }[] }).rows[0].n;
    expect(n).toBe(0);
  });
});

describe("migration 0006: every existing company's account becomes its owner", () => {
  it("backfills the owners of companies registered before it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "enchufa-mig-"));
    cpSync(path.resolve("db/migrations"), dir, { recursive: true });
    const journalFile = path.join(dir, "meta/_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    const full = journal.entries.length;
    const at = journal.entries.findIndex((e) => e.tag.includes("team"));
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
    const client = await PGlite.create();
    const db = drizzle({ client, schema });
    try {
      await migrate(db, { migrationsFolder: dir });
      await client.query(`insert into business_users (firebase_uid, email, business_name, status) values ('old-1', 'Uno@Example.com', 'Uno', 'ACTIVE'), ('old-2', 'dos@example.com', 'Dos', 'PENDING')`);
      await migrate(db, { migrationsFolder: path.resolve("db/migrations") });
      const { rows } = await client.query<{ firebase_uid: string; email: string; role: string; business_name: string }>(
        `select m.firebase_uid, m.email, m.role, b.business_name from business_members m join business_users b on b.id = m.business_id order by m.firebase_uid`,
      );
      expect(rows).toEqual([
        { firebase_uid: "old-1", email: "uno@example.com", role: "OWNER", business_name: "Uno" },
        { firebase_uid: "old-2", email: "dos@example.com", role: "OWNER", business_name: "Dos" },
      ]);
      const { rows: applied } = await client.query<{ n: number }>(`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect(applied[0].n).toBe(full);
    } finally {
      await client.close();
    }
    // Every migration, twice, on a fresh PGlite: ~10 s on an idle machine, several times that on a busy one.
  }, 120_000);
});
