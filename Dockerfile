# Enchufá production image: deps → build → slim runtime (non-root, HEALTHCHECK on /healthz).
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Exactly the lockfile (README "Installing").
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data MIGRATIONS_DIR=/app/db/migrations
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --from=build --chown=node:node /app/db/migrations ./db/migrations
COPY --from=build --chown=node:node /app/package.json ./package.json
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Node handles SIGTERM itself (graceful shutdown in server.ts); run with --init for zombie reaping.
# --max-semi-space-size, --heap-growing-percent: SERVER_NODE_FLAGS in server/cluster.ts (workers get them from there).
CMD ["node", "--max-semi-space-size=32", "--heap-growing-percent=100", "--enable-source-maps", "build/server.js"]
