// Calling partners in production (ocpi/client.ts, ADR 0021): a partner URL must be https and
// public — the literal host, the addresses its name resolves to, the address connected to, and
// every endpoint its version details list; redirects are not followed. Local mode (the test eMSP
// on 127.0.0.1) allows plain http and private addresses.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AddressNotPublicError } from "#infra/public-address";
import { OcpiClient, PARTNER_ADDRESS_MESSAGE, PartnerAddressError, PartnerError, type Fetch } from "../../ocpi/client";

/** Names our fake DNS calls public (anything else: what the system resolver says). */
const publicNames = (names: string[]) => async (host: string) => {
  if (!names.includes(host)) throw new AddressNotPublicError(host);
};
const envelope = (data: unknown) => ({ data, status_code: 1000, timestamp: "2026-11-26T12:00:00Z" });

describe("OcpiClient in production", () => {
  const client = new OcpiClient({ checkHost: publicNames(["emsp.example"]) });

  it.each([
    "http://emsp.example/ocpi/versions",
    "https://127.0.0.1/ocpi/versions",
    "https://10.20.30.40/ocpi/versions",
    "https://172.20.0.5:8443/ocpi",
    "https://192.168.1.10/ocpi",
    "https://169.254.169.254/latest/meta-data",
    "https://100.64.1.1/ocpi",
    "https://[::1]/ocpi",
    "https://[fd00::5]/ocpi",
    "https://[fe80::1]/ocpi",
    "https://[::ffff:127.0.0.1]/ocpi",
    "https://0x7f.1/ocpi",
    "https://intranet.example/ocpi",
  ])("refuses %s with the address message", async (url) => {
    const err = await client.checkUrl(url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerAddressError);
    expect((err as Error).message).toBe(PARTNER_ADDRESS_MESSAGE);
    expect(PARTNER_ADDRESS_MESSAGE).toBe("La dirección del socio tiene que ser pública y usar https.");
  });

  // The real address check (no fake resolver: literal addresses need no DNS).
  it.each([
    "https://[::7f00:1]/ocpi",
    "https://[::127.0.0.1]/ocpi",
    "https://[::a9fe:a9fe]/latest/meta-data",
    "https://[::ffff:7f00:1]/ocpi",
    "https://[::ffff:0:7f00:1]/ocpi",
    "https://[64:ff9b::a9fe:a9fe]/ocpi",
    "https://[2002:a00:1::1]/ocpi",
  ])("refuses the IPv4 address carried inside IPv6 %s", async (url) => {
    await expect(new OcpiClient().checkUrl(url)).rejects.toBeInstanceOf(PartnerAddressError);
  });

  it("accepts https on a public name; credentials in the URL or another scheme are refused as invalid", async () => {
    expect((await client.checkUrl("https://emsp.example/ocpi/versions")).hostname).toBe("emsp.example");
    const withUser = await client.checkUrl("https://user:secret@emsp.example/ocpi").catch((e: unknown) => e);
    expect(withUser).toBeInstanceOf(PartnerError);
    expect(withUser).not.toBeInstanceOf(PartnerAddressError);
    await expect(client.checkUrl("ftp://emsp.example/x")).rejects.toBeInstanceOf(PartnerError);
    await expect(client.checkUrl("no es una url")).rejects.toBeInstanceOf(PartnerError);
  });

  it("refuses a registration whose version details list an endpoint on a private address", async () => {
    const fetch: Fetch = async (input) => {
      const url = String(input);
      if (url.endsWith("/versions")) return Response.json(envelope([{ version: "2.2.1", url: "https://emsp.example/ocpi/2.2.1" }]));
      return Response.json(
        envelope({
          version: "2.2.1",
          endpoints: [
            { identifier: "credentials", role: "RECEIVER", url: "https://emsp.example/ocpi/2.2.1/credentials" },
            { identifier: "cdrs", role: "RECEIVER", url: "https://10.0.0.9/ocpi/2.2.1/cdrs" },
          ],
        }),
      );
    };
    const partner = new OcpiClient({ fetch, checkHost: publicNames(["emsp.example"]) });
    await expect(partner.discover("https://emsp.example/ocpi/versions", "token")).rejects.toBeInstanceOf(PartnerAddressError);
  });
});

describe("OcpiClient talking to a server on this machine", () => {
  let server: http.Server;
  let origin: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/redirect") {
        res.writeHead(302, { Location: "http://169.254.169.254/latest/meta-data" });
        return res.end();
      }
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(envelope({ ok: true })));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("production: refused before connecting (the literal), and at connection time for a name that passed its check (DNS rebinding)", async () => {
    const production = new OcpiClient();
    await expect(production.request("GET", `${origin}/ok`, "t", z.unknown())).rejects.toBeInstanceOf(PartnerAddressError);
    // The check is fooled (it says "public"), but the connection resolves localhost again and refuses it.
    const fooled = new OcpiClient({ checkHost: async () => {} });
    const port = new URL(origin).port;
    const err = await fooled.request("GET", `https://localhost:${port}/ok`, "t", z.unknown()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerAddressError);
  });

  it("local mode: plain http on 127.0.0.1 is allowed; a redirect is not followed", async () => {
    const local = new OcpiClient({ local: true });
    expect((await local.request("GET", `${origin}/ok`, "t", z.object({ ok: z.boolean() }))).data).toEqual({ ok: true });
    const err = await local.request("GET", `${origin}/redirect`, "t", z.unknown()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerError);
    expect((err as PartnerError).httpStatus).toBe(302);
  });
});
