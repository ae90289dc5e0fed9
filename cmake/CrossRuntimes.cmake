# The onnxc runtime for other targets (docs/embedding.md, "Cross-compilation"):
# for each triple of ONNXC_CROSS_TRIPLES whose C library is installed
# (Debian's cross layout: /usr/<triple>/lib/libc.so), runtime/cross is
# configured and built by clang-22 --target=<triple> into
# build/lib/<triple>/libonnxc_runtime.a, where onnxc --mtriple=<triple> looks
# for it (next to onnxc: ../lib/<triple>/). The portable kernels only: the
# x86 tiers' files are left out for these targets (runtime/CMakeLists.txt).
include(ExternalProject)

find_program(ONNXC_CROSS_CLANG NAMES clang-22 clang PATHS /usr/lib/llvm-22/bin)
find_program(ONNXC_CROSS_LLD NAMES ld.lld-22 ld.lld PATHS /usr/lib/llvm-22/bin)
set(ONNXC_CROSS_TRIPLES "aarch64-linux-gnu" CACHE STRING
  "Triples to build the runtime for (when their C library is in /usr/<triple>)")

set(ONNXC_CROSS_RUNTIMES "")
foreach(triple IN LISTS ONNXC_CROSS_TRIPLES)
  string(REGEX MATCH "^[^-]+" arch "${triple}")
  if(NOT ONNXC_CROSS_CLANG OR NOT ONNXC_CROSS_LLD)
    message(STATUS "onnxc runtime for ${triple}: skipped (no clang-22 or lld-22)")
    continue()
  endif()
  if(NOT EXISTS /usr/${triple}/lib/libc.so)
    message(STATUS "onnxc runtime for ${triple}: skipped (no /usr/${triple}/lib/libc.so: "
      "install libc6-dev-${arch}-cross)")
    continue()
  endif()
  string(MAKE_C_IDENTIFIER "${triple}" id)
  set(out ${PROJECT_BINARY_DIR}/lib/${triple}/libonnxc_runtime.a)
  set(bin ${CMAKE_CURRENT_BINARY_DIR}/runtime-${triple})
  ExternalProject_Add(onnxc_runtime_${id}
    SOURCE_DIR ${PROJECT_SOURCE_DIR}/runtime/cross
    BINARY_DIR ${bin}
    PREFIX ${CMAKE_CURRENT_BINARY_DIR}/runtime-${triple}-ep
    CMAKE_ARGS
      -G ${CMAKE_GENERATOR}
      -DONNXC_VERSION=${PROJECT_VERSION}
      -DCMAKE_BUILD_TYPE=Release
      -DCMAKE_SYSTEM_NAME=Linux
      -DCMAKE_SYSTEM_PROCESSOR=${arch}
      -DCMAKE_C_COMPILER=${ONNXC_CROSS_CLANG}
      -DCMAKE_C_COMPILER_TARGET=${triple}
      -DCMAKE_C_COMPILER_LAUNCHER=${ONNXC_CCACHE}
      -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld
      -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld
    BUILD_COMMAND ${CMAKE_COMMAND} --build ${bin} --target onnxc_runtime
    # The archive is copied next to the host's, under the triple.
    INSTALL_COMMAND ${CMAKE_COMMAND} -E copy_if_different
      ${bin}/lib/libonnxc_runtime.a ${out}
    BUILD_BYPRODUCTS ${out}
    # The runtime's sources change: the inner build decides what to redo.
    BUILD_ALWAYS TRUE
    EXCLUDE_FROM_ALL FALSE)
  install(FILES ${out} DESTINATION lib/${triple})
  list(APPEND ONNXC_CROSS_RUNTIMES ${triple})
  message(STATUS "onnxc runtime for ${triple}: ${out}")
endforeach()
