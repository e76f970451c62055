# Local stand-in for node:24-bookworm-slim (target `slim`) and node:24-bookworm (target `build`), for
# machines that reach no container registry (infra/docker/local-bases.sh builds them). The Node.js tree
# is the project's own Node (.node-version: node and headers from .tools/node, ADR 0016) with the build
# machine's npm, copied in by the script;
# the CA bundle is the build machine's, so npm inside image builds trusts what the host trusts.
ARG DEBIAN_IMAGE=localhost/bosted/debian:bookworm

FROM ${DEBIAN_IMAGE} AS slim
COPY node/bin/node /usr/local/bin/node
COPY node/lib/node_modules/ /usr/local/lib/node_modules/
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
# npm inside image builds: a registry connection that hangs is given up after 60 s and retried
# (npm's default waits 5 minutes), and packages already in a mounted cache are not asked for again.
ENV npm_config_fetch_timeout=60000 \
    npm_config_fetch_retries=4 \
    npm_config_prefer_offline=true
# The official images' user: uid and gid 1000, named node.
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && node --version && npm --version
CMD ["node"]

FROM slim AS build
# What node-gyp needs to build native addons (better-sqlite3) from source, against these headers
# (no download of Node's headers).
COPY node/include/node/ /usr/local/include/node/
# build_from_source: prebuilt binaries come from GitHub, which such a machine cannot reach; asking
# first only adds a failed download (or a hung one) before node-gyp builds it anyway.
ENV npm_config_nodedir=/usr/local \
    npm_config_build_from_source=true
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
