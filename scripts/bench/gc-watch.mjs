// Preloaded into the server's processes and the simulated chargers' by `npm run bench:ocpp -- --gc`: every 5 s each process
// prints its garbage collections (count and pauses by kind), the event loop's delay and its
// heap (GC_WATCH_MS sets the period), so a slow second of the bench can be matched with what the server was doing then.
import { monitorEventLoopDelay, PerformanceObserver, constants } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";

const KINDS = { [constants.NODE_PERFORMANCE_GC_MINOR]: "menor", [constants.NODE_PERFORMANCE_GC_MAJOR]: "mayor", [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental", [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak" };
let window = new Map();
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = KINDS[e.detail?.kind] ?? "otro";
    const w = window.get(kind) ?? { n: 0, total: 0, max: 0 };
    w.n++;
    w.total += e.duration;
    w.max = Math.max(w.max, e.duration);
    window.set(kind, w);
  }
}).observe({ entryTypes: ["gc"] });
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
setInterval(() => {
  const gcs = [...window].map(([k, w]) => `${k} ${w.n}× máx ${w.max.toFixed(0)} ms (total ${w.total.toFixed(0)})`).join(", ");
  const heap = getHeapStatistics();
  process.stderr.write(
    `\n[gc ${process.argv[1]?.includes("ocpp-worker") ? "cargadores" : "servidor"} ${process.pid} ${new Date().toISOString().slice(11, 19)}] ${gcs || "sin GC"} · bucle p99 ${(delay.percentile(99) / 1e6).toFixed(0)} máx ${(delay.max / 1e6).toFixed(0)} ms · heap ${(heap.used_heap_size / 2 ** 20).toFixed(0)} MB\n`,
  );
  window = new Map();
  delay.reset();
}, Number(process.env.GC_WATCH_MS) || 5000).unref();
