// Addresses outbound requests may reach in production (infra/public-address.ts, ADR 0021): the
// public internet only — not loopback, private networks, link-local (cloud metadata), CGNAT,
// IPv6 loopback / unique-local / link-local, multicast or reserved space, nor IPv4 written as
// IPv6 — checked on the literal, on every address a name resolves to, and again when connecting.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddressNotPublicError, assertPublicHost, isPublicAddress, publicOnlyLookup } from "#infra/public-address";

describe("isPublicAddress", () => {
  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "200.45.191.35",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "169.253.255.255",
    "2606:4700:4700::1111",
    "2800:3f0:4002:80a::200e",
    "::ffff:8.8.8.8",
  ])("%s is public", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "10/8"],
    ["10.255.255.255", "10/8"],
    ["172.16.0.1", "172.16/12"],
    ["172.31.255.255", "172.16/12"],
    ["192.168.0.1", "192.168/16"],
    ["169.254.169.254", "link-local: instance metadata"],
    ["169.254.0.1", "link-local"],
    ["100.64.0.1", "CGNAT 100.64/10"],
    ["100.127.255.255", "CGNAT 100.64/10"],
    ["0.0.0.0", "this network"],
    ["192.0.2.10", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["224.0.0.251", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["::1", "IPv6 loopback"],
    ["[::1]", "IPv6 loopback in URL brackets"],
    ["::", "unspecified"],
    ["fc00::1", "unique local fc00::/7"],
    ["fd12:3456:789a::1", "unique local fc00::/7"],
    ["fe80::1", "link-local fe80::/10"],
    ["febf::1", "link-local fe80::/10"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::ffff:169.254.169.254", "IPv4-mapped metadata"],
    ["64:ff9b::a00:1", "NAT64 of 10.0.0.1"],
    ["2002:a00:1::1", "6to4 of 10.0.0.1"],
    ["2001:db8::1", "documentation"],
    // IPv4 addresses carried inside IPv6: every way of writing a private one is refused.
    ["::7f00:1", "IPv4-compatible loopback (::127.0.0.1 in hex)"],
    ["::127.0.0.1", "IPv4-compatible loopback"],
    ["::a00:1", "IPv4-compatible 10.0.0.1"],
    ["::169.254.169.254", "IPv4-compatible metadata"],
    ["::8.8.8.8", "IPv4-compatible (deprecated, never routed) even of a public address"],
    ["::ffff:7f00:1", "IPv4-mapped loopback in hex"],
    ["::ffff:a9fe:a9fe", "IPv4-mapped metadata in hex"],
    ["0:0:0:0:0:ffff:c0a8:101", "IPv4-mapped 192.168.1.1, written out"],
    ["::ffff:0:127.0.0.1", "IPv4-translated loopback"],
    ["::ffff:0:a00:1", "IPv4-translated 10.0.0.1"],
    ["64:ff9b::7f00:1", "NAT64 of 127.0.0.1"],
    ["64:ff9b::169.254.169.254", "NAT64 of the metadata address"],
    ["64:ff9b:1::a00:1", "local-use NAT64 of 10.0.0.1"],
    ["2002:7f00:1::1", "6to4 of 127.0.0.1"],
    ["2002:c0a8:101::", "6to4 of 192.168.1.1"],
    ["2002:a9fe:a9fe::1", "6to4 of the metadata address"],
    ["2001:0:4136:e378:8000:63bf:f5ff:fffe", "Teredo (embeds an IPv4 address)"],
    ["::1:7f00:1", "reserved ::/8, outside global unicast"],
    ["4000::1", "unallocated, outside global unicast 2000::/3"],
    ["example.com", "not an address"],
    ["", "nothing"],
  ])("%s is not public (%s)", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe("assertPublicHost", () => {
  const resolver = (table: Record<string, string[]>) => async (host: string) => (table[host] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

  it("a literal is checked as written; a name by every address it resolves to", async () => {
    await expect(assertPublicHost("8.8.8.8")).resolves.toBeUndefined();
    await expect(assertPublicHost("[2606:4700:4700::1111]")).resolves.toBeUndefined();
    await expect(assertPublicHost("127.0.0.1")).rejects.toBeInstanceOf(AddressNotPublicError);
    await expect(assertPublicHost("[::1]")).rejects.toBeInstanceOf(AddressNotPublicError);
    const resolve = resolver({ "emsp.example": ["203.0.114.10", "2606:4700::1"], "mixed.example": ["8.8.8.8", "10.0.0.7"], "meta.example": ["169.254.169.254"], "none.example": [] });
    await expect(assertPublicHost("emsp.example", resolve)).resolves.toBeUndefined();
    // One private answer is enough: the connection could land on it.
    await expect(assertPublicHost("mixed.example", resolve)).rejects.toBeInstanceOf(AddressNotPublicError);
    await expect(assertPublicHost("meta.example", resolve)).rejects.toBeInstanceOf(AddressNotPublicError);
    await expect(assertPublicHost("none.example", resolve)).rejects.toBeInstanceOf(AddressNotPublicError);
    await expect(assertPublicHost("localhost", resolve)).rejects.toBeInstanceOf(AddressNotPublicError);
    await expect(assertPublicHost("api.localhost", resolve)).rejects.toBeInstanceOf(AddressNotPublicError);
  });

  it("the system resolver: localhost's addresses are refused", async () => {
    await expect(assertPublicHost("localhost")).rejects.toBeInstanceOf(AddressNotPublicError);
  });
});

describe("publicOnlyLookup", () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const get = (host: string, lookup?: typeof publicOnlyLookup) =>
    new Promise<string>((resolve, reject) => {
      const req = http.get({ host, port, path: "/", lookup, agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve(String(res.statusCode)));
      });
      req.on("error", reject);
    });

  it("a name that resolves to this machine cannot be connected to, whatever was checked before (DNS rebinding)", async () => {
    expect(await get("localhost")).toBe("200");
    await expect(get("localhost", publicOnlyLookup)).rejects.toBeInstanceOf(AddressNotPublicError);
  });
});
