#!/usr/bin/env bash
# Makes this machine run the Compose stack with podman instead of a Docker engine (Debian bookworm,
# no container registry reachable, no systemd): installs podman and docker-compose 1.29 from Debian
# when they are missing (as root, with apt, as `make test` does for chromium), and writes the podman
# settings such a machine needs as a drop-in, /etc/containers/containers.conf.d/50-bosted.conf:
#   runtime = runc          crun fails on hybrid cgroups
#   cgroup_manager=cgroupfs no systemd
#   events_logger = file    no journald
#   default_ulimits         root here cannot raise RLIMIT_NOFILE, so the default run fails with
#                           `setrlimit RLIMIT_NOFILE: Operation not permitted`
# Idempotent; prints nothing but what it changes.
set -euo pipefail

PACKAGES=(podman runc conmon catatonit netavark aardvark-dns fuse-overlayfs slirp4netns uidmap iptables
  debootstrap docker-compose)
DROP_IN=/etc/containers/containers.conf.d/50-bosted.conf

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "podman-setup: needs root for: $*" >&2
    return 1
  fi
}

missing=()
for package in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "podman-setup: installing ${missing[*]} (apt)"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq
  as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

want='# Written by infra/docker/podman-setup.sh (Bosted): podman on a machine without systemd.
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"

[network]
network_backend = "netavark"'
if [ "$(cat "$DROP_IN" 2>/dev/null)" != "$want" ]; then
  echo "podman-setup: writing $DROP_IN"
  as_root mkdir -p "$(dirname "$DROP_IN")"
  printf '%s\n' "$want" | as_root tee "$DROP_IN" >/dev/null
fi
