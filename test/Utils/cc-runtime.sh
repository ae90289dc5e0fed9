#!/bin/sh
# Builds a program from the runtime's sources (runtime/src/*.c and
# runtime/src/kernels/*.c) and its own sources, the way
# runtime/CMakeLists.txt builds the archive: each ISA file of the kernels
# with its ISA's flags, and only for x86-64 targets (an aarch64 build
# compiles the portable files alone). For the tests that build the runtime
# with sanitizers or for another target.
#   cc-runtime.sh OUT CC [FLAGS...] -- SOURCES_AND_LINK_FLAGS...
# CC may carry options ("clang-22 --target=aarch64-linux-gnu"); FLAGS go
# to every compile, the words after -- to the final link (the program's
# own sources, -lm, -pthread, ...).
set -e
out=$1
cc=$2
shift 2
flags=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  flags="$flags $1"
  shift
done
[ "$1" = "--" ] && shift
root=$(cd "$(dirname "$0")/../.." && pwd)
obj="$out.objs"
rm -rf "$obj"
mkdir -p "$obj"
machine=$($cc -dumpmachine)
objs=
for src in "$root"/runtime/src/*.c "$root"/runtime/src/kernels/*.c; do
  name=$(basename "$src" .c)
  isa=
  x86=
  case "$name" in
    *_avx2) isa="-mavx2 -mfma" x86=1 ;;
    *_avx512) isa="-mavx512f -mavx512bw -mavx512dq -mavx512vl -mfma" x86=1 ;;
    # The int8 tiers carry their ISA in target attributes.
    *_avxvnni | *_avx512vnni) x86=1 ;;
  esac
  if [ -n "$x86" ]; then
    case "$machine" in
      x86_64*) ;;
      *) continue ;;
    esac
  fi
  dir=$(basename "$(dirname "$src")")
  o="$obj/$dir-$name.o"
  # shellcheck disable=SC2086
  $cc -std=c99 -Wall -Wextra -Werror -I"$root/runtime/include" $flags $isa \
    -c "$src" -o "$o"
  objs="$objs $o"
done
# shellcheck disable=SC2086
$cc -std=c99 -Wall -Wextra -Werror -I"$root/runtime/include" $flags $objs "$@" \
  -o "$out"
