#!/usr/bin/env bash
# Brings the project's own Node.js runtime (the version in .node-version, pinned there only) into
# .tools/node/ from the npm registry, where Node's official Linux binaries are published as the
# package node-linux-<arch> (bin/node and include/node, the headers native addons build against).
# Nothing else is downloaded: npm verifies the package's integrity against the registry, and npm itself
# stays the machine's (any npm that runs on Node 24). The Makefile and .ci/run put .tools/node/bin first
# on PATH, so every process the project starts runs on this Node (ADR 0016).
#
#   infra/stack/scripts/ensure-node.sh   prints the runtime's bin directory, fetching it when missing
set -euo pipefail
cd "$(dirname "$0")/../../.."
want=$(tr -d '[:space:]' < .node-version)
dest=.tools/node
if [ -x "$dest/bin/node" ] && [ "$("$dest/bin/node" -p 'process.versions.node' 2>/dev/null)" = "$want" ]; then
  echo "$PWD/$dest/bin"
  exit 0
fi
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "ensure-node: no Node $want package for $(uname -m); install Node $want yourself and put it first on PATH" >&2; exit 1 ;;
esac
command -v npm >/dev/null || { echo "ensure-node: npm is missing; install npm (any version that runs), then run make again" >&2; exit 1; }
echo "ensure-node: fetching Node $want (node-linux-$arch) from the npm registry into $dest …" >&2
work=$(mktemp -d .tools.XXXXXX)
trap 'rm -rf "$work"' EXIT
npm pack --silent --pack-destination "$work" "node-linux-$arch@$want" >/dev/null
mkdir "$work/node"
tar -xzf "$work"/node-linux-"$arch"-*.tgz -C "$work/node" --strip-components=1
got=$("$work/node/bin/node" -p 'process.versions.node')
[ "$got" = "$want" ] || { echo "ensure-node: the package holds Node $got, not $want" >&2; exit 1; }
mkdir -p .tools
rm -rf "$dest"
mv "$work/node" "$dest"
echo "ensure-node: Node $want is in $dest" >&2
echo "$PWD/$dest/bin"
