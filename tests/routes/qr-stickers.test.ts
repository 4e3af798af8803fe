// A connector's QR (SVG resource route) and the printable A4 sheets of QR stickers of a
// charger and of a station: what they encode and print, and their 404s.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import QRCode from "qrcode";
import * as qr from "~/routes/app/charger/qr";
import * as chargerSheet from "~/routes/app/charger/stickers";
import * as stationSheet from "~/routes/app/station/stickers";
import { parseShortCode, shortCode } from "~/lib/qr.server";
import { run, args, type Loose } from "./auth-helpers";
import { apiUrl, chargerContext, getReq, operatorCookie, recordRequests, server } from "./charger-helpers";
import { fixtures, IDS } from "../mocks/fixtures";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const URL_1 = "http://app.test/cargar/AR-BUE-0001/1";

describe("a connector's QR", () => {
  it("is the SVG of its driver page's URL (the request's origin without PUBLIC_URL)", async () => {
    const cookie = await operatorCookie();
    const res = await run<Loose>(() => qr.loader(args(getReq(`/charger/qr/${IDS.charger}?connector=1`, cookie), chargerContext(), { id: IDS.charger })));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(res.data).toBe(await QRCode.toString(URL_1, { type: "svg", errorCorrectionLevel: "M", margin: 2 }));
  });

  it("an unknown connector, another company's charger or a malformed id: 404", async () => {
    const cookie = await operatorCookie();
    const two = await run(() => qr.loader(args(getReq(`/charger/qr/${IDS.charger}?connector=2`, cookie), chargerContext(), { id: IDS.charger })));
    expect(two.status).toBe(404);
    server.use(http.get(apiUrl("/Business/Charger/:id"), () => HttpResponse.json({ title: "No existe." }, { status: 404 })));
    const other = await run(() => qr.loader(args(getReq(`/charger/qr/${IDS.station}?connector=1`, cookie), chargerContext(), { id: IDS.station })));
    expect(other.status).toBe(404);
    const bad = await run(() => qr.loader(args(getReq(`/charger/qr/nope`, cookie), chargerContext(), { id: "nope" })));
    expect(bad.status).toBe(404);
  });

  it("needs a session", async () => {
    const res = await run(() => qr.loader(args(getReq(`/charger/qr/${IDS.charger}?connector=1`, ""), chargerContext(), { id: IDS.charger })));
    expect(res.status).toBe(302);
    expect(res.location).toMatch(/^\/auth\/login/);
  });
});

describe("QR stickers (A4)", () => {
  it("a charger's sheet: one sticker per connector with its QR, station, connector, short code and URL; print CSS; no script", async () => {
    const cookie = await operatorCookie();
    const res = await run<Loose>(() => chargerSheet.loader(args(getReq(`/charger/stickers/${IDS.charger}`, cookie), chargerContext(), { id: IDS.charger })));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = String(res.data);
    expect(html).toContain(await QRCode.toString(URL_1, { type: "svg", errorCorrectionLevel: "M", margin: 2 }));
    expect(html).toContain(fixtures.charger.stationName!);
    expect(html).toContain("Wallbox Norte · Conector 1 · ");
    expect(html).toContain('data-testid="sticker-code">AR-BUE-0001-1<');
    expect(html).toContain(`<p class="url">${URL_1}</p>`);
    expect(html).toContain("@page{size:A4");
    expect(html).not.toContain("<script");
    expect(html.match(/class="sticker"/g)).toHaveLength(fixtures.charger.connectors.length);
  });

  it("a station's sheet lists its chargers' connectors (one bounded page) and warns, on screen only, when QR payment is off", async () => {
    const cookie = await operatorCookie();
    const seen = recordRequests();
    const res = await run<Loose>(() => stationSheet.loader(args(getReq(`/station/stickers/${IDS.station}`, cookie), chargerContext(), { id: IDS.station })));
    expect(res.status).toBe(200);
    const asked = seen.find((r) => r.path === "/Business/Charger")!;
    expect(asked.search.get("stationId")).toBe(IDS.station);
    expect(asked.search.get("pageSize")).toBe("100");
    const html = String(res.data);
    expect(html).toContain("AR-BUE-0001-1");
    expect(html).toContain("El cobro con QR está desactivado en esta estación");

    server.use(http.get(apiUrl("/Business/ChargingStation/:id"), () => HttpResponse.json({ ...fixtures.stations.items[0], published: true, qrPaymentEnabled: true })));
    const on = await run<Loose>(() => stationSheet.loader(args(getReq(`/station/stickers/${IDS.station}`, cookie), chargerContext(), { id: IDS.station })));
    expect(String(on.data)).not.toContain('class="notice"');
  });

  it("escapes what the operator typed", async () => {
    server.use(http.get(apiUrl("/Business/Charger/:id"), () => HttpResponse.json({ ...fixtures.charger, name: "<b>x</b>", stationName: "A & B" })));
    const cookie = await operatorCookie();
    const res = await run<Loose>(() => chargerSheet.loader(args(getReq(`/charger/stickers/${IDS.charger}`, cookie), chargerContext(), { id: IDS.charger })));
    const html = String(res.data);
    expect(html).not.toContain("<b>x</b>");
    expect(html).toContain("&#60;b&#62;x&#60;/b&#62;");
    expect(html).toContain("A &#38; B");
  });

  it("unknown charger or station: 404", async () => {
    server.use(
      http.get(apiUrl("/Business/Charger/:id"), () => HttpResponse.json({ title: "No existe." }, { status: 404 })),
      http.get(apiUrl("/Business/ChargingStation/:id"), () => HttpResponse.json({ title: "No existe." }, { status: 404 })),
    );
    const cookie = await operatorCookie();
    const c = await run(() => chargerSheet.loader(args(getReq(`/charger/stickers/${IDS.charger}`, cookie), chargerContext(), { id: IDS.charger })));
    expect(c.status).toBe(404);
    const s = await run(() => stationSheet.loader(args(getReq(`/station/stickers/${IDS.station}`, cookie), chargerContext(), { id: IDS.station })));
    expect(s.status).toBe(404);
  });
});

describe("short codes", () => {
  it("are the identity, a dash and the connector; the connector is after the last dash", () => {
    expect(shortCode("AR-BUE-0001", 2)).toBe("AR-BUE-0001-2");
    expect(parseShortCode(" AR-BUE-0001-2 ")).toEqual({ identity: "AR-BUE-0001", connector: 2 });
    expect(parseShortCode("CP7 - 1")).toEqual({ identity: "CP7", connector: 1 });
    expect(parseShortCode("AR-BUE-0001")).toBeNull(); // "0001" is no connector number
    expect(parseShortCode("sin número")).toBeNull();
    expect(parseShortCode("../x-1")).toBeNull();
  });
});
