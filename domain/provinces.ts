// The 24 Argentine jurisdictions (23 provinces and the Autonomous City of Buenos Aires)
// with their ISO 3166-2:AR codes. Stations store the code; the UI shows the name.

export const PROVINCES = [
  { code: "AR-C", name: "Ciudad Autónoma de Buenos Aires" },
  { code: "AR-B", name: "Buenos Aires" },
  { code: "AR-K", name: "Catamarca" },
  { code: "AR-H", name: "Chaco" },
  { code: "AR-U", name: "Chubut" },
  { code: "AR-X", name: "Córdoba" },
  { code: "AR-W", name: "Corrientes" },
  { code: "AR-E", name: "Entre Ríos" },
  { code: "AR-P", name: "Formosa" },
  { code: "AR-Y", name: "Jujuy" },
  { code: "AR-L", name: "La Pampa" },
  { code: "AR-F", name: "La Rioja" },
  { code: "AR-M", name: "Mendoza" },
  { code: "AR-N", name: "Misiones" },
  { code: "AR-Q", name: "Neuquén" },
  { code: "AR-R", name: "Río Negro" },
  { code: "AR-A", name: "Salta" },
  { code: "AR-J", name: "San Juan" },
  { code: "AR-D", name: "San Luis" },
  { code: "AR-Z", name: "Santa Cruz" },
  { code: "AR-S", name: "Santa Fe" },
  { code: "AR-G", name: "Santiago del Estero" },
  { code: "AR-V", name: "Tierra del Fuego, Antártida e Islas del Atlántico Sur" },
  { code: "AR-T", name: "Tucumán" },
] as const;

export type Province = (typeof PROVINCES)[number];
export type ProvinceCode = Province["code"];

// Marked pure so that bundles which never read it (the browser) drop it.
export const PROVINCE_CODES = /* @__PURE__ */ PROVINCES.map((p) => p.code) as readonly ProvinceCode[];

// The lookup tables are built on first use, not at import: a module-level `new Map(...)` is a
// side effect bundlers keep, and the browser's station form needs only the list above.
let byCode: Map<string, Province> | undefined;
const provinceByCode = () => (byCode ??= new Map<string, Province>(PROVINCES.map((p) => [p.code, p])));

export function isProvinceCode(value: unknown): value is ProvinceCode {
  return typeof value === "string" && provinceByCode().has(value);
}

export function provinceName(code: string): string | undefined {
  return provinceByCode().get(code)?.name;
}

/** Lower case, no accents, single spaces: how names are compared. */
function fold(s: string): string {
  return s
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[.,]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

// Names geocoders and people use besides the official ones.
const ALIASES: Record<string, ProvinceCode> = {
  caba: "AR-C",
  "capital federal": "AR-C",
  "ciudad de buenos aires": "AR-C",
  "autonomous city of buenos aires": "AR-C",
  "buenos aires province": "AR-B",
  "tierra del fuego": "AR-V",
};

let byFoldedName: Map<string, ProvinceCode> | undefined;
const provinceByFoldedName = () =>
  (byFoldedName ??= new Map<string, ProvinceCode>([...PROVINCES.map((p) => [fold(p.name), p.code] as const), ...Object.entries(ALIASES)]));

/**
 * The code for a province written as a person or a geocoder would ("Córdoba", "cordoba",
 * "Provincia de Buenos Aires", "CABA"); undefined when it is not recognised. A bare
 * "Buenos Aires" is the province, not the city.
 */
export function provinceFromName(name: string): ProvinceCode | undefined {
  const folded = fold(name).replace(/^provincia (de |del )?/, "");
  return provinceByFoldedName().get(folded);
}
