# aarch64 Linux with clang-22 and lld, linking against Debian's cross libc
# (libc6-dev-arm64-cross, libgcc-12-dev-arm64-cross): test/embed/cmake-cross.test.
include(${CMAKE_CURRENT_LIST_DIR}/aarch64.toolchain.cmake)
set(CMAKE_TRY_COMPILE_TARGET_TYPE EXECUTABLE)
set(CMAKE_EXE_LINKER_FLAGS_INIT -fuse-ld=lld)
set(CMAKE_SHARED_LINKER_FLAGS_INIT -fuse-ld=lld)
