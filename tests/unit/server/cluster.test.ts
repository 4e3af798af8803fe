// server/cluster.ts: how many processes a machine runs, and the primary that supervises them
// (real processes: two tiny workers on a shared port, see fixtures/).
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { SERVER_NODE_FLAGS, workerCount, workerNodeId } from "../../../server/cluster";
import { parseEnv } from "../../../server/env";

const here = path.dirname(fileURLToPath(import.meta.url));
const PG = "postgres://root@127.0.0.1:5432/test";

describe("workerCount", () => {
  it("auto is one process per core with PostgreSQL, one with the embedded database", () => {
    expect(workerCount({ WEB_CONCURRENCY: "auto", DATABASE_URL: PG }, 4)).toBe(4);
    expect(workerCount({ WEB_CONCURRENCY: "auto", DATABASE_URL: PG }, 1)).toBe(1);
    expect(workerCount({ WEB_CONCURRENCY: "auto" }, 4)).toBe(1);
    expect(workerCount({ WEB_CONCURRENCY: 3, DATABASE_URL: PG }, 2)).toBe(3);
    expect(workerCount({ WEB_CONCURRENCY: 1, DATABASE_URL: PG }, 8)).toBe(1);
  });

  it("WEB_CONCURRENCY is validated: auto by default, a positive number, more than one only with PostgreSQL", () => {
    const base = { FIREBASE_PROJECT_ID: "demo-x" };
    expect(parseEnv(base).WEB_CONCURRENCY).toBe("auto");
    expect(parseEnv({ ...base, WEB_CONCURRENCY: "2", DATABASE_URL: PG }).WEB_CONCURRENCY).toBe(2);
    expect(parseEnv({ ...base, WEB_CONCURRENCY: "1" }).WEB_CONCURRENCY).toBe(1);
    expect(() => parseEnv({ ...base, WEB_CONCURRENCY: "0", DATABASE_URL: PG })).toThrow(/WEB_CONCURRENCY/);
    expect(() => parseEnv({ ...base, WEB_CONCURRENCY: "muchos", DATABASE_URL: PG })).toThrow(/WEB_CONCURRENCY/);
    expect(() => parseEnv({ ...base, WEB_CONCURRENCY: "2" })).toThrow(/WEB_CONCURRENCY: más de un proceso necesita PostgreSQL/);
  });

  it("each worker gets its own NODE_ID when one is configured", () => {
    expect(workerNodeId("web-a", 2)).toEqual({ NODE_ID: "web-a-2" });
    expect(workerNodeId(undefined, 2)).toEqual({});
  });
});

describe("runPrimary", () => {
  let primary: ChildProcess | undefined;
  afterEach(() => {
    if (primary?.exitCode === null) primary.kill("SIGKILL");
  });

  const freePort = () =>
    new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });

  function start(env: Record<string, string>) {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(here, "fixtures", "cluster-primary.ts")], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout!.on("data", (chunk) => (out += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const waitFor = async (text: string, ms = 20_000) => {
      const deadline = Date.now() + ms;
      while (!out.includes(text)) {
        if (Date.now() > deadline) throw new Error(`no apareció "${text}" en: ${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    primary = child;
    return { child, exited, waitFor };
  }

  const ask = async (port: number) => (await fetch(`http://127.0.0.1:${port}/`)).json() as Promise<{ node: string; pid: number; execArgv: string[] }>;

  it("runs the workers on one port, replaces one that dies, and drains them all on SIGTERM", async () => {
    const port = await freePort();
    const { child, exited, waitFor } = start({ PORT: String(port) });
    await waitFor("listening t-1");
    await waitFor("listening t-2");
    const seen = new Map<string, number>();
    for (let i = 0; i < 40 && seen.size < 2; i++) {
      const { node, pid } = await ask(port);
      seen.set(node, pid);
    }
    expect([...seen.keys()].sort()).toEqual(["t-1", "t-2"]);
    // Workers run with the server's V8 flags, besides the primary's own (--import tsx here).
    const { execArgv } = await ask(port);
    expect(execArgv).toEqual(expect.arrayContaining([...SERVER_NODE_FLAGS, "--import"]));

    // A worker that crashes is replaced by a new process with the same NODE_ID.
    process.kill(seen.get("t-1")!, "SIGKILL");
    await waitFor("listening t-1\nlistening t-2\nlistening t-1");
    let replaced: number | undefined;
    for (let i = 0; i < 60 && !replaced; i++) {
      const { node, pid } = await ask(port);
      if (node === "t-1" && pid !== seen.get("t-1")) replaced = pid;
    }
    expect(replaced).toBeDefined();

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const pid of [replaced!, seen.get("t-2")!]) expect(() => process.kill(pid, 0)).toThrow();
  }, 60_000);

  it("exits 1 when the first worker cannot start, without starting the rest", async () => {
    const port = await freePort();
    const { exited } = start({ PORT: String(port), FAIL_ON_START: "1" });
    expect(await exited).toBe(1);
  }, 30_000);
});
