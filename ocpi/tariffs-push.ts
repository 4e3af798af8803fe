// Tariffs pushed to partners' Tariffs receivers (mod_tariffs.asciidoc §Receiver interface: PUT and
// DELETE {url}/{country_code}/{party_id}/{tariff_id}), ADR 0045 amendment of 2026-11-29.
//
// Nothing is queued by the rate screens, the bulk repricing or the schedule sweep: each pass of
// ocpi/push.ts (every 5 s, one node per partner, and at once after the sweep writes a change)
// builds the company's current Tariffs — every version of every rate used in roaming
// (mapping rateTariffs) — and compares them with the copies the partner holds
// (ocpi_tariff_pushes):
//   - a Tariff that is new or differs: PUT whole, and the copy saved once the partner accepts it;
//   - a Tariff the partner holds that is gone (a scheduled change now written into its rate, a
//     change cancelled, a rate deleted or no longer used by a published station): DELETE, as
//     §DELETE asks for a Tariff "not used any more and will not be used in the future".
// A failure leaves the copy as it was, so the next pass sends it again. When the set of ids
// changes, the partner's Locations are compared again (ocpi_location_pushes.pending), because
// each connector lists its rate's versions in tariff_ids. A partner without a Tariffs receiver
// gets nothing (it pulls). A company has tens of Tariffs, so the whole set is compared each pass.
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { ocpiLocationPushes, ocpiTariffPushes, type OcpiPartner } from "../db/schema";
import { endpointUrl } from "./client";
import { canonical, PartnerHandedOver } from "./locations-push";
import { rateTariffs, type Party } from "./mapping";
import { callPartner, partnerToken, type OcpiServices } from "./registration";
import { roamingRates } from "./store";

/**
 * One partner's tariff changes (its pass holds the partner: ocpi/push.ts). `stillMine` renews the
 * hold before each request. Returns the requests sent; throws the first failure.
 */
export async function pushTariffChanges(svc: OcpiServices, partner: OcpiPartner, party: Party, stillMine: () => Promise<boolean>): Promise<number> {
  const url = endpointUrl(partner.endpoints, "tariffs", "RECEIVER")?.replace(/\/$/, "");
  if (!url || !party.partyId || !partnerToken(svc, partner)) return 0;
  const [rates, held] = await Promise.all([
    roamingRates(svc.db, partner.businessId),
    svc.db.select().from(ocpiTariffPushes).where(eq(ocpiTariffPushes.partnerId, partner.id)),
  ]);
  const current = rates.flatMap(({ rate, pending }) => rateTariffs(party, rate, pending));
  const heldById = new Map(held.map((h) => [h.tariffId, h]));
  const base = `${url}/${party.countryCode}/${party.partyId}`;
  let sent = 0;
  let idsChanged = false;
  try {
    for (const tariff of current) {
      const copy = heldById.get(tariff.id);
      if (copy && canonical(copy.tariff) === canonical(tariff)) continue;
      if (!(await stillMine())) throw new PartnerHandedOver();
      await callPartner(svc, partner, "PUT", `${base}/${tariff.id}`, z.unknown(), tariff, { from: party });
      sent++;
      idsChanged ||= !copy;
      const values = { tariff: tariff as unknown as Record<string, unknown>, pushedAt: svc.now() };
      await svc.db
        .insert(ocpiTariffPushes)
        .values({ partnerId: partner.id, tariffId: tariff.id, businessId: partner.businessId, ...values })
        .onConflictDoUpdate({ target: [ocpiTariffPushes.partnerId, ocpiTariffPushes.tariffId], set: values });
    }
    const currentIds = new Set(current.map((t) => t.id));
    for (const copy of held) {
      if (currentIds.has(copy.tariffId)) continue;
      if (!(await stillMine())) throw new PartnerHandedOver();
      await callPartner(svc, partner, "DELETE", `${base}/${copy.tariffId}`, z.unknown(), undefined, { from: party });
      sent++;
      idsChanged = true;
      await svc.db.delete(ocpiTariffPushes).where(and(eq(ocpiTariffPushes.partnerId, partner.id), eq(ocpiTariffPushes.tariffId, copy.tariffId)));
    }
  } catch (err) {
    if (err instanceof PartnerHandedOver) return sent;
    throw err;
  } finally {
    // Connectors list their rate's versions (tariff_ids): the Locations follow the new set of ids.
    if (idsChanged) await svc.db.update(ocpiLocationPushes).set({ pending: true }).where(eq(ocpiLocationPushes.partnerId, partner.id));
  }
  return sent;
}
