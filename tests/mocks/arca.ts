// ARCA (WSAA + WSFEv1) for unit tests, over msw: the local emulator's own rules
// (scripts/arca-emulator.ts) answering at fixed test URLs, so a test registers a taxpayer's
// certificate, switches ARCA down or slow, and reads the vouchers it authorised.
//
//   import { arca, ARCA_TEST_URLS } from "../mocks/arca";
//   server.use(...arca.handlers)          // or setupServer(...arca.handlers)
//   arca.emulator.registerTaxpayer(cuit, certPem, [3]);
//   afterEach(() => arca.reset());
import { http, HttpResponse } from "msw";
import { createArcaEmulator, type ArcaEmulator } from "../../scripts/arca-emulator";

export const ARCA_TEST_URLS = { wsaa: "https://wsaa.arca.test/ws/services/LoginCms", wsfe: "https://wsfe.arca.test/wsfev1/service.asmx" } as const;

interface ArcaFake {
  emulator: ArcaEmulator;
  /** A fresh ARCA; `now` is its clock (by default the real one). */
  reset(opts?: { now?: () => Date }): void;
  handlers: ReturnType<typeof http.post>[];
}

function createArcaFake(): ArcaFake {
  const fake: ArcaFake = {
    emulator: createArcaEmulator(),
    reset(opts) {
      fake.emulator = createArcaEmulator(opts);
    },
    handlers: [
      http.post(ARCA_TEST_URLS.wsaa, async ({ request }) => reply(await fake.emulator.respond("wsaa", await request.text()))),
      http.post(ARCA_TEST_URLS.wsfe, async ({ request }) => reply(await fake.emulator.respond("wsfe", await request.text()))),
    ],
  };
  return fake;
}

const reply = (a: { status: number; contentType: string; body: string }) => new HttpResponse(a.body, { status: a.status, headers: { "Content-Type": a.contentType } });

export const arca = createArcaFake();
