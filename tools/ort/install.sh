#!/usr/bin/env bash
# Installs ONNX Runtime (onnxruntime-node, pinned in package.json and
# package-lock.json beside this script) into the build tree, for the ORT
# oracle tests (test/numeric/ort) and the bench baseline. ORT is never a dependency
# of onnxc itself.
#
#   tools/ort/install.sh [BUILD_DIR]     (default: $ONNXC_BUILD_DIR or build)
#
# Installs into BUILD_DIR/ort/node_modules, never into the source tree.
# Idempotent: when the installed package matches package.json and the lock
# file, it does nothing (no network). Prints where libonnxruntime is on its
# last line ("ort: libonnxruntime at PATH"). Exit status 1 on failure.
#
# `npm ci --ignore-scripts`: the package's postinstall step downloads from a
# host we cannot reach; the CPU library ships inside the package anyway.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${1:-${ONNXC_BUILD_DIR:-build}}"
case "$build" in
  /*) ;;
  *) build="$root/$build" ;;
esac
dest="$build/ort"
lib_rel="node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1"

log() { printf 'ort: %s\n' "$*" >&2; }
fail() { log "error: $*"; exit 1; }

command -v node >/dev/null || fail "node not found (ORT's binding needs Node.js >= 16)"
command -v npm >/dev/null || fail "npm not found"
[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] \
  || fail "only linux x86_64 is set up (found $(uname -s)-$(uname -m))"

# The stamp is the hash of what was asked for; a changed pin reinstalls.
stamp_want="$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -d' ' -f1)"
if [ -f "$dest/.stamp" ] && [ "$(cat "$dest/.stamp")" = "$stamp_want" ] \
    && [ -f "$dest/$lib_rel" ]; then
  log "already installed in $dest/node_modules"
  echo "ort: libonnxruntime at $dest/$lib_rel"
  exit 0
fi

log "installing onnxruntime-node into $dest/node_modules"
mkdir -p "$dest"
rm -f "$dest/.stamp"
cp "$here/package.json" "$here/package-lock.json" "$dest/"
(cd "$dest" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) \
  || fail "npm ci failed in $dest (is the npm registry reachable?)"
[ -f "$dest/$lib_rel" ] || fail "installed, but $dest/$lib_rel is missing"

# Load it once: a package that installs but cannot load is no oracle.
version="$(cd "$dest" && node -e \
  'process.stdout.write(require("onnxruntime-node").env.versions.node)')" \
  || fail "onnxruntime-node does not load (see above)"
log "onnxruntime-node $version loads"
echo "$stamp_want" > "$dest/.stamp"
echo "ort: libonnxruntime at $dest/$lib_rel"
