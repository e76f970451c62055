# Local stand-in for nginx:1.28-alpine, for machines that reach no container registry
# (infra/docker/local-bases.sh builds it): Debian's nginx, envsubst (gettext-base) for the web
# entrypoint and wget for the healthcheck, with the official image's unprivileged user `nginx`.
ARG DEBIAN_IMAGE=localhost/bosted/debian:bookworm

FROM ${DEBIAN_IMAGE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx gettext-base wget \
 && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/* \
 && groupadd --system --gid 101 nginx \
 && useradd --system --uid 101 --gid nginx --home-dir /nonexistent --shell /usr/sbin/nologin nginx \
 && nginx -v
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
