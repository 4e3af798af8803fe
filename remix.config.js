// Remix options shared by the Vite plugin (vite.config.ts): every v3 future flag on.
/** @type {{ future: Record<string, boolean> }} */
export default {
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
    v3_routeConfig: true,
  },
};
