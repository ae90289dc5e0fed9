#!/bin/sh
# onnxc-run for models built with --sanitize=address: ASan's runtime
# preloaded ($ONNXC_ASAN_PRELOAD; empty when onnxc-run is itself linked with
# ASan, as in the sanitized build of .ci/asan), then onnxc-run
# ($ONNXC_RUN_BIN) with the arguments.
if [ -n "$ONNXC_ASAN_PRELOAD" ]; then
  LD_PRELOAD="$ONNXC_ASAN_PRELOAD" exec "$ONNXC_RUN_BIN" "$@"
fi
exec "$ONNXC_RUN_BIN" "$@"
