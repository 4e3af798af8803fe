// An open-loop load generator for bench:server: requests leave at a fixed arrival
// rate whatever the server's answers, and each one's latency is measured from the moment it
// was scheduled to leave, not from when it left. A closed loop (autocannon's N connections, each
// waiting for its answer before the next request) slows down with the server, so its p99 hides
// the queue that real users — who do not wait for each other — would stand in ("coordinated
// omission"); with 10 connections on 2 cores it measured mostly that queue.
import { writeFileSync } from "node:fs";
import http from "node:http";

export interface OpenLoopOptions {
  /** Requests per second, evenly spaced. */
  rate: number;
  seconds: number;
  /** Paths, taken in turn (a mix of pages). */
  urls: string[];
  /** Sends one request; resolves with its HTTP status (0 for a network error or timeout). */
  send: (url: string) => Promise<number>;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Writes one line per request here: when it was scheduled (ms since the start), its latency (ms)
   * and its path. When the slow ones come in bursts, their times say what ran then (a cache's
   * expiry, a sweep).
   */
  timelineFile?: string;
}

export interface OpenLoopResult {
  sent: number;
  /** Answers that were not 2xx, and requests that failed or timed out. */
  failed: number;
  /** Latency from each request's scheduled time, in ms. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** How late the generator itself sent requests (should stay near 0: else the machine is the limit). */
  maxSendLagMs: number;
  /** Per path: requests and p99. */
  byUrl: Record<string, { sent: number; p99: number }>;
}

/** The q-quantile (0..1) of sorted values, nearest rank. */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const total = Math.round(options.rate * options.seconds);
  const spacing = 1000 / options.rate;
  const latencies: number[] = [];
  const perUrl = new Map<string, number[]>();
  let failed = 0;
  let maxSendLagMs = 0;
  const inFlight: Promise<void>[] = [];
  const timeline: string[] = [];
  const start = now();
  for (let i = 0; i < total; i++) {
    const scheduled = start + i * spacing;
    const wait = scheduled - now();
    if (wait > 0) await sleep(wait);
    maxSendLagMs = Math.max(maxSendLagMs, now() - scheduled);
    const url = options.urls[i % options.urls.length];
    inFlight.push(
      options.send(url).then((status) => {
        const latency = now() - scheduled;
        latencies.push(latency);
        if (options.timelineFile) timeline.push(`${(scheduled - start).toFixed(0)} ${latency.toFixed(1)} ${url}`);
        if (!perUrl.has(url)) perUrl.set(url, []);
        perUrl.get(url)!.push(latency);
        if (status < 200 || status >= 300) failed++;
      }),
    );
  }
  await Promise.all(inFlight);
  if (options.timelineFile) writeFileSync(options.timelineFile, `${timeline.join("\n")}\n`);
  const sorted = latencies.sort((a, b) => a - b);
  const byUrl: OpenLoopResult["byUrl"] = {};
  for (const [url, values] of perUrl) byUrl[url] = { sent: values.length, p99: quantile(values.sort((a, b) => a - b), 0.99) };
  return {
    sent: total,
    failed,
    p50: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? 0,
    maxSendLagMs,
    byUrl,
  };
}

/** A sender over keep-alive HTTP/1.1, asking as a browser does (compressed), reading each body whole. */
export function httpSender(base: string, headers: Record<string, string>, timeoutMs = 10_000, scheduling: "fifo" | "lifo" = "fifo"): { send: (url: string) => Promise<number>; close: () => void } {
  // Enough sockets that the generator never queues a request behind another: the queue to
  // measure is the server's. The idle sockets are taken in turn (FIFO), as many users' browsers
  // would each use their own: Node's default (LIFO) reuses the socket just freed, so while pages
  // did not overlap they all went over one connection, to the one process that accepted it (with
  // two processes at 80 pages/s: 0.74 of a core on one, 0.40 on the other).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024, scheduling });
  const send = (url: string) =>
    new Promise<number>((resolve) => {
      const req = http.get(`${base}${url}`, { agent, headers: { "accept-encoding": "gzip, deflate, br", ...headers }, timeout: timeoutMs }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", () => resolve(0));
      });
      req.on("timeout", () => req.destroy());
      req.on("error", () => resolve(0));
    });
  return { send, close: () => agent.destroy() };
}
