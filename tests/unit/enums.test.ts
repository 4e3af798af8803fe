// Each enum has one definition: the value list lives once (contract/ or domain/) and the database
// enums, zod schemas, DTO types and OCPI mappings derive from it. A second literal list of the
// same values in product code is a copy that drifts when a value is added.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as schema from "#db/schema";
import * as ocpi from "../../ocpi/schemas";
import { driverCheckoutSchema } from "#contract/schemas/driver";
import {
  BUSINESS_STATUSES,
  CONNECTOR_FORMATS,
  PARKING_TYPES,
  NOTIFICATION_TYPES,
  PAYMENT_ACCOUNT_STATUSES,
  PAYMENT_ORIGINS,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  POWER_TYPES,
  SESSION_PAYMENT_STATUSES,
  SESSION_STATUSES,
} from "#contract/schemas/constants";
import { RESERVATION_STATUSES } from "#domain/reservation-status";
import { OCPP_VERSIONS } from "#domain/ocpp-protocol";
import { ROLES } from "#domain/permissions";
import { CHARGE_POINT_STATUSES } from "#domain/ocpp-status";
import { PROVIDERS } from "../../payments/providers";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PRODUCT_DIRS = ["server", "app", "api", "payments", "ocpi", "ocpp", "infra", "db", "contract", "domain"];

/** Each enum and the one file that spells its values out. */
const ENUMS: { name: string; values: readonly string[]; home: string }[] = [
  { name: "connector formats", values: CONNECTOR_FORMATS, home: "contract/schemas/charger-constants.ts" },
  { name: "power types", values: POWER_TYPES, home: "contract/schemas/charger-constants.ts" },
  { name: "parking types", values: PARKING_TYPES, home: "contract/schemas/station-constants.ts" },
  { name: "company statuses", values: BUSINESS_STATUSES, home: "contract/schemas/business-constants.ts" },
  { name: "session statuses", values: SESSION_STATUSES, home: "contract/schemas/constants.ts" },
  { name: "session payment statuses", values: SESSION_PAYMENT_STATUSES, home: "contract/schemas/constants.ts" },
  { name: "payment providers", values: PAYMENT_PROVIDERS, home: "contract/schemas/constants.ts" },
  { name: "payment account statuses", values: PAYMENT_ACCOUNT_STATUSES, home: "contract/schemas/constants.ts" },
  { name: "payment statuses", values: PAYMENT_STATUSES, home: "contract/schemas/constants.ts" },
  { name: "payment origins", values: PAYMENT_ORIGINS, home: "contract/schemas/constants.ts" },
  { name: "notification types", values: NOTIFICATION_TYPES, home: "contract/schemas/constants.ts" },
  { name: "reservation statuses", values: RESERVATION_STATUSES, home: "domain/reservation-status.ts" },
  { name: "OCPP subprotocols", values: OCPP_VERSIONS, home: "domain/ocpp-protocol.ts" },
  { name: "roles", values: ROLES, home: "domain/permissions.ts" },
  { name: "charge point statuses", values: CHARGE_POINT_STATUSES, home: "domain/ocpp-status.ts" },
];

/** Lists that name every value of an enum on purpose, in an order of their own. */
const ALLOWED: Record<string, string> = {
  // The subprotocols offered to a charger, most preferred first.
};

function productFiles(): string[] {
  const files = PRODUCT_DIRS.flatMap((dir) =>
    readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name) && !e.parentPath.includes("migrations"))
      .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name))),
  );
  return ["server.ts", ...files];
}

/** Every run of two or more double-quoted literals joined by commas (an array) or bars (a union). */
function literalLists(source: string): string[][] {
  const runs = source.match(/"[\w.]+"(?:\s*[,|]\s*"[\w.]+")+/g) ?? [];
  return runs.map((run) => [...run.matchAll(/"([\w.]+)"/g)].map((m) => m[1]));
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && new Set(a).size === b.length && a.every((v) => b.includes(v));

describe("each enum has one definition", () => {
  it("no product file but its home spells out an enum's whole list of values", () => {
    const copies: string[] = [];
    const homes = new Map<string, number>();
    for (const file of productFiles()) {
      const lists = literalLists(readFileSync(path.join(ROOT, file), "utf8"));
      for (const e of ENUMS) {
        const found = lists.filter((list) => sameSet(list, e.values)).length;
        if (!found) continue;
        if (file === e.home) homes.set(e.name, found);
        else if (!ALLOWED[`${e.name} ${file}`]) copies.push(`${e.name} restated in ${file}`);
      }
    }
    expect(copies).toEqual([]);
    expect(Object.fromEntries(homes)).toEqual(Object.fromEntries(ENUMS.map((e) => [e.name, 1])));
  });

  it("the database enums, the schemas and the OCPI vocabulary derive from the single lists", () => {
    expect(schema.connectorFormat.enumValues).toEqual(CONNECTOR_FORMATS);
    expect(schema.powerType.enumValues).toEqual(POWER_TYPES);
    expect(schema.parkingType.enumValues).toEqual(PARKING_TYPES);
    expect(schema.businessStatus.enumValues).toEqual(BUSINESS_STATUSES);
    expect(schema.sessionStatus.enumValues).toEqual(SESSION_STATUSES);
    expect(schema.sessionPaymentStatus.enumValues).toEqual(SESSION_PAYMENT_STATUSES);
    expect(schema.paymentProvider.enumValues).toEqual(PAYMENT_PROVIDERS);
    expect(schema.paymentAccountStatus.enumValues).toEqual(PAYMENT_ACCOUNT_STATUSES);
    expect(schema.paymentStatus.enumValues).toEqual(PAYMENT_STATUSES);
    expect(schema.memberRole.enumValues).toEqual(ROLES);
    expect(schema.connectorStatus.enumValues).toEqual(CHARGE_POINT_STATUSES);
    expect(schema.RESERVATION_STATUSES).toBe(RESERVATION_STATUSES);
    expect(PROVIDERS).toBe(PAYMENT_PROVIDERS);
    expect(driverCheckoutSchema.shape.provider.options).toEqual(PAYMENT_PROVIDERS);
    // OCPI's connector format and parking type are ours; its power type adds two-phase supplies.
    expect(ocpi.connectorFormat.options).toEqual(CONNECTOR_FORMATS);
    expect(ocpi.parkingType.options).toEqual(PARKING_TYPES);
    expect(ocpi.powerType.options).toEqual(expect.arrayContaining([...POWER_TYPES]));
  });
});
