# The Node services of the Compose stack, one target each: `api`, `seed` and `emulators-lite`
# (emulator-lite's Auth, Firestore and Storage, for hosts that cannot download the official
# emulators' JARs). Dependencies come from the repository's lock file (npm ci without dev
# dependencies), each image only its workspace's share; the TypeScript sources run through tsx, as
# natively.
# Build context: the repository root (see docker-compose.yml).

ARG NODE_IMAGE=node:24-bookworm-slim
# The full image has npm's tools (the build stages); nothing here compiles (no install scripts run).
ARG NODE_BUILD_IMAGE=node:24-bookworm

FROM ${NODE_BUILD_IMAGE} AS manifests
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# Every workspace's manifest: npm ci checks the lock file against all of them.
COPY package.json package-lock.json ./
COPY domain/package.json domain/
COPY web/package.json web/
COPY api/package.json api/
COPY seed/package.json seed/
COPY infra/emulator-lite/package.json infra/emulator-lite/
COPY infra/stack/package.json infra/stack/
COPY infra/docker/package.json infra/docker/
COPY tests/package.json tests/

# Every workspace's production dependencies, installed once, without install scripts: no image
# needs one (better-sqlite3 ships prebuilt binaries; esbuild's, protobufjs' and @firebase/util's
# scripts only check or configure), and firebase-tools' optional re2 would compile for minutes.
FROM manifests AS deps
RUN npm ci --omit=dev --ignore-scripts
COPY infra/docker/workspace-deps.ts infra/docker/
# Each service's image takes its own workspace's share only (npm ci installs every workspace's).

FROM deps AS api-deps
RUN node infra/docker/workspace-deps.ts api /deps

FROM deps AS seed-deps
RUN node infra/docker/workspace-deps.ts seed /deps

FROM deps AS emulators-lite-deps
# emulator-lite serves Auth, Firestore and Storage itself: no firebase-tools.
RUN node infra/docker/workspace-deps.ts infra/emulator-lite /deps

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production NO_UPDATE_NOTIFIER=1
WORKDIR /app
COPY package.json tsconfig.base.json ./
COPY infra/docker/healthcheck.ts infra/docker/healthcheck.ts

FROM runtime AS api
COPY --from=api-deps /deps/node_modules node_modules/
COPY domain/ domain/
COPY api/ api/
ENV API_HOST=0.0.0.0 API_PORT=3001
USER node
EXPOSE 3001
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=5 \
  CMD ["node", "infra/docker/healthcheck.ts", "http://127.0.0.1:3001/api/health"]
CMD ["node", "--import", "tsx", "api/src/index.ts"]

FROM runtime AS seed
COPY --from=seed-deps /deps/node_modules node_modules/
COPY domain/ domain/
COPY seed/ seed/
USER node
CMD ["node", "--import", "tsx", "seed/src/seed.ts", "--if-empty"]

FROM runtime AS emulators-lite
COPY --from=emulators-lite-deps /deps/node_modules node_modules/
COPY domain/ domain/
COPY infra/emulator-lite/ infra/emulator-lite/
COPY infra/docker/emulators/ infra/docker/emulators/
COPY firestore.rules storage.rules ./
# The named volume is created from this directory, so it belongs to the unprivileged user.
RUN mkdir -p /data && chown node:node /data
ENV DATA_DIR=/data
USER node
EXPOSE 9099 8080 9199
VOLUME ["/data"]
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=10 \
  CMD ["node", "infra/docker/healthcheck.ts", "http://127.0.0.1:9099/", "http://127.0.0.1:8080/health", "http://127.0.0.1:9199/health"]
ENTRYPOINT ["node", "infra/docker/emulators/start.ts", "--mode", "lite"]

# The pilot's tools (docker-compose.pilot.yml): the TLS certificate, pending migrations, backups and
# restores (better-sqlite3, from emulator-lite's dependencies) and the first admin (firebase-admin,
# from the seed's). One image for the `tls`, `migrate` and `ops` services.
FROM emulators-lite AS pilot-ops
USER root
COPY --from=seed-deps /deps/node_modules node_modules/
COPY seed/ seed/
COPY infra/docker/pilot/ infra/docker/pilot/
RUN mkdir -p /tls /backups /tls-input && chown node:node /backups
USER node
VOLUME ["/backups"]
# The services set their own healthchecks (ops); emulator-lite's would probe ports nobody listens on.
HEALTHCHECK NONE
ENTRYPOINT []
CMD ["node", "infra/docker/pilot/ops.ts", "daemon"]
