// React Router 7 framework mode (the successor of Remix v2, end of life since 2026-06-17; ADR 0013):
// server rendering on, and every future flag 7.18 offers, so that the move to v8 is a small one.
import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  appDirectory: "app",
  buildDirectory: process.env.BUILD_DIR ?? "build",
  future: {
    v8_middleware: true,
    v8_passThroughRequests: true,
    v8_splitRouteModules: true,
    v8_trailingSlashAwareDataRequests: true,
    v8_viteEnvironmentApi: true,
  },
} satisfies Config;
