// The little XML that ARCA's SOAP services need: escaping what we send, and reading the
// elements of an answer by name. ARCA's answers are flat, namespace-prefixed documents without
// attributes we care about, so a reader by element name (any prefix) is enough and keeps the
// client free of a WSDL toolkit.

const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'", "&amp;": "&" };

export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

export function unescapeXml(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&(lt|gt|quot|apos|amp);/g, (m) => ENTITIES[m]);
}

const elementRe = (name: string) => new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}>)`, "g");

/** The inner XML of every element with this local name (any namespace prefix), in order. */
export function elements(xml: string, name: string): string[] {
  return [...xml.matchAll(elementRe(name))].map((m) => m[1] ?? "");
}

/** The inner XML of the first element with this local name, or undefined. */
export function element(xml: string, name: string): string | undefined {
  return elements(xml, name)[0];
}

/** The text of the first element with this local name (entities decoded, trimmed), or undefined. */
export function text(xml: string, name: string): string | undefined {
  const inner = element(xml, name);
  return inner === undefined ? undefined : unescapeXml(inner.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1")).trim();
}

/** A SOAP 1.1 envelope around a body. */
export function soapEnvelope(body: string, namespaces: Record<string, string> = {}): string {
  const ns = Object.entries(namespaces)
    .map(([prefix, uri]) => ` xmlns:${prefix}="${escapeXml(uri)}"`)
    .join("");
  return `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"${ns}><soap:Body>${body}</soap:Body></soap:Envelope>`;
}

/** A SOAP fault's code and text, or undefined when the answer is not a fault. */
export function soapFault(xml: string): { code: string; message: string } | undefined {
  const fault = element(xml, "Fault");
  if (fault === undefined) return undefined;
  return { code: text(fault, "faultcode") ?? "", message: text(fault, "faultstring") ?? "" };
}

/** `{ a: 1, b: { c: "x" } }` → `<a>1</a><b><c>x</c></b>`, in the object's key order (ARCA's schemas are sequences). */
export function toXml(value: Record<string, unknown>, prefix = ""): string {
  let out = "";
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined || v === null) continue;
    const tag = `${prefix}${key}`;
    if (Array.isArray(v)) for (const item of v) out += `<${tag}>${typeof item === "object" ? toXml(item as Record<string, unknown>, prefix) : escapeXml(String(item))}</${tag}>`;
    else if (typeof v === "object") out += `<${tag}>${toXml(v as Record<string, unknown>, prefix)}</${tag}>`;
    else out += `<${tag}>${escapeXml(String(v))}</${tag}>`;
  }
  return out;
}
