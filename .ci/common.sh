# shellcheck shell=bash disable=SC2034,SC2120,SC2119
# Shared by .ci/bootstrap and .ci/test (sourced, not run).
#
#   ONNXC_BUILD_DIR   build directory (default: build)
#   ONNXC_BUILD_LOCK  if set, every ninja run holds `flock` on this file
#                     (a build directory shared by several people)

ONNXC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ONNXC_BUILD_DIR="${ONNXC_BUILD_DIR:-build}"

# Debian bookworm packages (LLVM/MLIR 22 come from bookworm-security).
ONNXC_PACKAGES=(
  cmake ninja-build ccache
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22
  libonnx-dev libprotobuf-dev protobuf-compiler libfmt-dev
  libonnx-testdata python3-onnx python3-numpy python3-torch python3-torchvision
  python3-pip python3-setuptools
  libfuzzer-22-dev libclang-rt-22-dev liblld-22-dev zlib1g-dev libzstd-dev
  qemu-user libc6-dev-arm64-cross libgcc-12-dev-arm64-cross
  valgrind
)

log() { printf '==> %s\n' "$*" >&2; }

missing_packages() {
  local p
  for p in "${ONNXC_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' \
      || echo "$p"
  done
}

# Installs the packages that are missing; no apt at all when none is.
ensure_packages() {
  local missing
  missing=$(missing_packages)
  if [ -z "$missing" ]; then
    log "packages: all ${#ONNXC_PACKAGES[@]} installed"
    return 0
  fi
  log "packages: installing ${missing//$'\n'/ }"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { log "not root and no sudo: install ${missing//$'\n'/ }"; return 1; }
    sudo="sudo"
  fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update
  # shellcheck disable=SC2086
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
}

run_ninja() {
  if [ -n "${ONNXC_BUILD_LOCK:-}" ]; then
    flock "$ONNXC_BUILD_LOCK" ninja -C "$ONNXC_BUILD_DIR" "$@"
  else
    ninja -C "$ONNXC_BUILD_DIR" "$@"
  fi
}

# Configures once; later runs reuse the build directory (ninja re-runs cmake
# itself when a CMakeLists.txt changes). ccache is picked up by CMakeLists.txt.
configure() {
  if [ -f "$ONNXC_BUILD_DIR/build.ninja" ]; then
    return 0
  fi
  log "configuring $ONNXC_BUILD_DIR"
  cmake -S . -B "$ONNXC_BUILD_DIR" -G Ninja -DCMAKE_PREFIX_PATH=/usr/lib/llvm-22
}

build() {
  configure
  log "building"
  run_ninja
}
