# The official Firebase emulators (firebase-tools, pinned by the lock file): Auth, Firestore and
# Storage plus the Emulator UI. Firestore and Storage (its rules runtime) are Java programs, so the
# image carries a Java 21 runtime, and their JARs and the UI are downloaded here, at build time:
# starting the container needs no internet.
# Build context: the repository root (see docker-compose.yml).

ARG NODE_IMAGE=node:24-bookworm-slim
# The full image has a C++ toolchain for firebase-tools' optional native dependency (re2).
ARG NODE_BUILD_IMAGE=node:24-bookworm
ARG JAVA_IMAGE=eclipse-temurin:21-jre-noble

FROM ${NODE_BUILD_IMAGE} AS deps
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
COPY domain/package.json domain/
COPY web/package.json web/
COPY api/package.json api/
COPY seed/package.json seed/
COPY infra/emulator-lite/package.json infra/emulator-lite/
COPY infra/stack/package.json infra/stack/
COPY infra/docker/package.json infra/docker/
COPY tests/package.json tests/
RUN npm ci --omit=dev --workspace infra/stack

FROM ${JAVA_IMAGE} AS java

FROM ${NODE_IMAGE} AS emulators
ENV JAVA_HOME=/opt/java/openjdk
ENV PATH="${JAVA_HOME}/bin:${PATH}" \
    NODE_ENV=production \
    NO_UPDATE_NOTIFIER=1 \
    FIREBASE_EMULATORS_PATH=/opt/firebase-emulators \
    DATA_DIR=/data
# Temurin's runtime is built against an old glibc baseline, so it runs on Debian as it is.
COPY --from=java /opt/java/openjdk /opt/java/openjdk
WORKDIR /app
COPY --from=deps /app /app
RUN java -version \
 && node_modules/.bin/firebase setup:emulators:firestore \
 && node_modules/.bin/firebase setup:emulators:storage \
 && node_modules/.bin/firebase setup:emulators:ui \
 && chmod -R a+rX "${FIREBASE_EMULATORS_PATH}" \
 && mkdir -p /data && chown node:node /data
COPY infra/docker/healthcheck.ts infra/docker/healthcheck.ts
COPY infra/docker/emulators/ infra/docker/emulators/
# The project's own security rules, the same files a real project deploys.
COPY firestore.rules storage.rules ./
USER node
EXPOSE 9099 8080 9199 4000 4400 4500 9150
VOLUME ["/data"]
HEALTHCHECK --interval=10s --timeout=5s --start-period=90s --retries=10 \
  CMD ["node", "infra/docker/healthcheck.ts", "http://127.0.0.1:9099/", "http://127.0.0.1:8080/", "http://127.0.0.1:9199/v0/"]
ENTRYPOINT ["node", "infra/docker/emulators/start.ts", "--mode", "official"]
