# The web image: the Vite build of web/, served by nginx with infra/nginx's templates (the same ones
# the native stack uses). /config.json is written from the environment when the container starts,
# so one image serves every environment.
# Build context: the repository root (see docker-compose.yml).

ARG NODE_IMAGE=node:24-bookworm-slim
ARG NGINX_IMAGE=nginx:1.28-alpine

FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json tsconfig.base.json ./
COPY domain/package.json domain/
COPY web/package.json web/
COPY api/package.json api/
COPY seed/package.json seed/
COPY infra/emulator-lite/package.json infra/emulator-lite/
COPY infra/stack/package.json infra/stack/
COPY infra/docker/package.json infra/docker/
COPY tests/package.json tests/
# --ignore-scripts: the web workspace's dev dependencies include emulator-lite and the native stack
# (better-sqlite3, firebase-tools' re2), whose install scripts compile native code for minutes; the
# Vite build needs none of it (its own native parts are prebuilt platform packages).
RUN npm ci --workspace web --ignore-scripts
COPY domain/ domain/
COPY web/ web/
RUN npm run --workspace web build

FROM ${NGINX_IMAGE} AS web
COPY --from=build /app/web/dist /srv/www
COPY infra/nginx/app.conf.template infra/nginx/nginx.conf.template infra/nginx/pilot.conf.template infra/nginx/proxy.conf /etc/bosted/nginx/
COPY infra/docker/web/entrypoint.sh /usr/local/bin/bosted-web
# /config.json is rendered at start into the writable prefix; the web root itself stays read-only.
RUN rm -f /srv/www/config.json \
 && ln -s /tmp/bosted-web/config.json /srv/www/config.json \
 && chmod 755 /usr/local/bin/bosted-web \
 && chmod -R a+rX /srv/www /etc/bosted
USER nginx
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=5 \
  CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8000/config.json"]
ENTRYPOINT ["/usr/local/bin/bosted-web"]
