// `npm run bench:lighthouse`: Lighthouse (performance, accessibility, best practices) on the
// production build as the bench operator: login, home, station list, activity and profile, on the
// mobile profile (the target) and then on desktop (BENCH_FORM_FACTORS=mobile,desktop;
// BENCH_RUNS=N repeats each page N times, to see how much a score moves). Offline: only the local
// server (its own Auth Emulator, see ./harness.ts) and Chromium (CHROME_PATH, default
// /usr/bin/chromium). Lighthouse's default throttling (simulated: mobile = slow 4G and 4× CPU;
// desktop preset = fast network, no CPU slowdown). Prints the scores and the metrics that cost
// performance points.
// BENCH_PORT (3460), BENCH_AUTH_EMULATOR_PORT (9460), BUILD_DIR (build).
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { startBenchServer } from "./harness";

const port = Number(process.env.BENCH_PORT ?? 3460);
const emulatorPort = Number(process.env.BENCH_AUTH_EMULATOR_PORT ?? 9460);
const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const CATEGORIES = ["performance", "accessibility", "best-practices"] as const;

const PAGES: { name: string; url: string; auth: boolean }[] = [
  { name: "login", url: "/auth/login", auth: false },
  { name: "inicio", url: "/home", auth: true },
  { name: "estaciones", url: "/station", auth: true },
  { name: "actividad", url: "/activity", auth: true },
  { name: "perfil", url: "/user", auth: true },
];
const FORM_FACTORS = (process.env.BENCH_FORM_FACTORS ?? "mobile,desktop").split(",").filter((f): f is "mobile" | "desktop" => f === "mobile" || f === "desktop");
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));

async function main() {
  const srv = await startBenchServer({ port, emulatorPort, buildDir });
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    console.log(`Lighthouse ${srv.target.label}, build ${path.relative(process.cwd(), buildDir)}, ${os.cpus().length} núcleos, carga media ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}\n`);
    console.log(`${"página".padEnd(24)} ${"perf.".padStart(6)} ${"a11y".padStart(6)} ${"b.p.".padStart(6)}   FCP / LCP / TBT / CLS`);
    for (const [formFactor, p] of FORM_FACTORS.flatMap((f) => PAGES.flatMap((page) => Array.from({ length: RUNS }, () => [f, page] as const)))) {
      const mobile = formFactor === "mobile";
      const name = `${p.name} (${mobile ? "móvil" : "escritorio"})`;
      const audit = () =>
        lighthouse(
          `${srv.base}${p.url}`,
          {
            port: chrome.port,
            output: "json",
            logLevel: "error",
            onlyCategories: [...CATEGORIES],
            extraHeaders: p.auth ? { Cookie: srv.cookie } : undefined,
          },
          mobile ? undefined : desktopConfig,
        );
      let lhr = (await audit())?.lhr;
      // A run where Lighthouse itself failed (no trace, no paint recorded…) scores 0 without
      // measuring the page: say why and measure once more.
      if (lhr?.runtimeError) {
        console.log(`${name.padEnd(24)} Lighthouse falló (${lhr.runtimeError.code}: ${lhr.runtimeError.message.slice(0, 120)}); se repite`);
        lhr = (await audit())?.lhr;
      }
      if (!lhr) throw new Error(`Lighthouse no devolvió resultado para ${p.url}`);
      if (lhr.finalDisplayedUrl && !lhr.finalDisplayedUrl.endsWith(p.url)) throw new Error(`${p.url} terminó en ${lhr.finalDisplayedUrl} (¿sesión?)`);
      const score = (c: string) => String(Math.round((lhr.categories[c]?.score ?? 0) * 100)).padStart(6);
      const metric = (id: string) => lhr.audits[id]?.displayValue ?? "—";
      console.log(
        `${name.padEnd(24)} ${score("performance")} ${score("accessibility")} ${score("best-practices")}   ${metric("first-contentful-paint")} / ${metric("largest-contentful-paint")} / ${metric("total-blocking-time")} / ${metric("cumulative-layout-shift")}`,
      );
      const failing = Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== "informative" && a.scoreDisplayMode !== "notApplicable" && a.scoreDisplayMode !== "manual")
        .map((a) => a.id);
      if (failing.length) console.log(`${"".padEnd(24)} por debajo de 0,9: ${failing.join(", ")}`);
      // What moved, when the layout shifted noticeably.
      const shifts = (lhr.audits["layout-shifts"]?.details as { items?: { score?: number; node?: { snippet?: string; selector?: string } }[] } | undefined)?.items ?? [];
      for (const item of shifts.filter((i) => (i.score ?? 0) >= 0.01).slice(0, 5)) {
        console.log(`${"".padEnd(24)} desplazamiento ${item.score?.toFixed(3)}: ${item.node?.selector ?? ""} ${(item.node?.snippet ?? "").slice(0, 120)}`);
      }
      const uncached = (lhr.audits["uses-long-cache-ttl"]?.details as { items?: { url?: string }[] } | undefined)?.items ?? [];
      if (uncached.length) console.log(`${"".padEnd(24)} sin caché larga: ${uncached.map((i) => i.url?.replace(srv.base, "")).join(", ")}`);
    }
  } finally {
    await chrome.kill();
    await srv.stop();
  }
}

main().catch((err) => {
  console.error(`[bench:lighthouse] ${(err as Error).stack ?? err}`);
  process.exit(1);
});
