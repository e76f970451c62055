#!/usr/bin/env bash
# Builds the base images the Dockerfiles take as build arguments (NODE_IMAGE, NODE_BUILD_IMAGE,
# NGINX_IMAGE), locally, for machines that reach no container registry (only Debian's mirror and the
# npm registry): Debian from debootstrap, the project's own Node (.node-version, fetched from the npm
# registry into .tools/node, ADR 0016) with this machine's npm, nginx from Debian. Images already
# present are kept while their recipe (Dockerfile, the Node binary and npm) is unchanged; --rebuild
# builds them again anyway.
#
#   infra/docker/local-bases.sh [--rebuild] [--print-env]
#
# Prints, last, the build arguments to use (and with --print-env only those, as KEY=value lines).
# Needs podman (or docker) and, for the Debian base, debootstrap, run as root.
set -euo pipefail
cd "$(dirname "$0")/../.."

ENGINE=${CONTAINER_ENGINE:-podman}
REBUILD=false
PRINT_ENV=false
for arg in "$@"; do
  case "$arg" in
    --rebuild) REBUILD=true ;;
    --print-env) PRINT_ENV=true ;;
    *) echo "usage: $0 [--rebuild] [--print-env]" >&2; exit 2 ;;
  esac
done

# The project's Node, the same binary every native process runs (fetched when missing).
node_root=$(dirname "$(infra/stack/scripts/ensure-node.sh)")
node_bin=$node_root/bin/node
node_version=$("$node_bin" -p 'process.versions.node')
if [ "$node_version" != "$(tr -d '[:space:]' < .node-version)" ]; then
  echo "local-bases: $node_bin is Node $node_version, not the pinned $(cat .node-version) (ADR 0016)" >&2
  exit 1
fi
# npm is not part of Node's package on the registry: the machine's own npm goes in beside it.
npm_root=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
[ -f "$npm_root/package.json" ] || { echo "local-bases: npm not found (looked in $npm_root)" >&2; exit 1; }
# The mirror apt already uses here (deb822 or one-line sources), else Debian's own.
apt_mirror() {
  { grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}'
    grep -h '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '{print $2}'
  } | grep -v security | head -n 1 || true
}
mirror=${DEBIAN_MIRROR:-$(apt_mirror)}
mirror=${mirror:-http://deb.debian.org/debian}

DEBIAN_IMAGE=localhost/bosted/debian:bookworm
NODE_IMAGE=localhost/bosted/node:${node_version}-bookworm-slim
NODE_BUILD_IMAGE=localhost/bosted/node:${node_version}-bookworm
NGINX_IMAGE=localhost/bosted/nginx:bookworm

# An image is current when it carries the hash of what built it (its Dockerfile and, for Node, this
# project's Node binary and npm): a change to either builds it again, without --rebuild.
recipe() { cat "$@" | sha256sum | cut -c1-16; }
NODE_RECIPE=$(recipe infra/docker/bases/node.Dockerfile "$node_bin" "$npm_root/package.json" /etc/ssl/certs/ca-certificates.crt)
NGINX_RECIPE=$(recipe infra/docker/bases/nginx.Dockerfile)
current() {
  [ "$REBUILD" = false ] &&
    [ "$("$ENGINE" image inspect --format '{{index .Labels "org.bosted.recipe"}}' "$1" 2>/dev/null)" = "$2" ]
}

log() { if [ "$PRINT_ENV" = false ]; then echo "local-bases: $*"; else echo "local-bases: $*" >&2; fi; }
exists() { [ "$REBUILD" = false ] && "$ENGINE" image inspect "$1" >/dev/null 2>&1; }

work=$(mktemp -d /tmp/bosted-bases.XXXXXX)
trap 'rm -rf "$work"' EXIT

if exists "$DEBIAN_IMAGE"; then
  log "$DEBIAN_IMAGE is there"
else
  command -v debootstrap >/dev/null || { echo "local-bases: debootstrap is missing (apt-get install debootstrap)" >&2; exit 1; }
  log "debootstrap bookworm from $mirror → $DEBIAN_IMAGE"
  debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -n 30 "$work/debootstrap.log" >&2; exit 1; }
  rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/lib/apt/lists/*
  tar -C "$work/rootfs" -c . | "$ENGINE" import --change 'CMD ["bash"]' - "$DEBIAN_IMAGE" >/dev/null 2>"$work/import.log" \
    || { cat "$work/import.log" >&2; exit 1; }
  rm -rf "$work/rootfs"
fi

if current "$NODE_IMAGE" "$NODE_RECIPE" && current "$NODE_BUILD_IMAGE" "$NODE_RECIPE"; then
  log "$NODE_IMAGE and $NODE_BUILD_IMAGE are there"
else
  log "Node $node_version from $node_root → $NODE_IMAGE, $NODE_BUILD_IMAGE"
  mkdir -p "$work/node/node/bin" "$work/node/node/lib/node_modules" "$work/node/node/include"
  cp "$node_bin" "$work/node/node/bin/node"
  cp -a "$npm_root" "$work/node/node/lib/node_modules/npm"
  cp -a "$node_root/include/node" "$work/node/node/include/"
  cp /etc/ssl/certs/ca-certificates.crt "$work/node/ca-certificates.crt"
  for target in slim build; do
    image=$NODE_IMAGE
    [ "$target" = build ] && image=$NODE_BUILD_IMAGE
    "$ENGINE" build --quiet --target "$target" --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE" \
      --label "org.bosted.recipe=$NODE_RECIPE" -f infra/docker/bases/node.Dockerfile -t "$image" "$work/node" >/dev/null
  done
fi

if current "$NGINX_IMAGE" "$NGINX_RECIPE"; then
  log "$NGINX_IMAGE is there"
else
  log "Debian's nginx → $NGINX_IMAGE"
  mkdir -p "$work/nginx"
  "$ENGINE" build --quiet --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE" \
    --label "org.bosted.recipe=$NGINX_RECIPE" -f infra/docker/bases/nginx.Dockerfile -t "$NGINX_IMAGE" "$work/nginx" >/dev/null
fi

printf 'NODE_IMAGE=%s\nNODE_BUILD_IMAGE=%s\nNGINX_IMAGE=%s\n' "$NODE_IMAGE" "$NODE_BUILD_IMAGE" "$NGINX_IMAGE"
