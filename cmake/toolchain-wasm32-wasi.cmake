# Build tendon for WebAssembly (wasm32-wasi) with Debian's own toolchain: clang-14 and lld-14
# (wasm-ld), wasi-libc (headers in /usr/include/wasm32-wasi, libraries in /usr/lib/wasm32-wasi)
# and libclang-rt-14-dev-wasm32 (the compiler runtime). The presets wasm-scalar and wasm-simd128
# use it; docs/wasm.md says why this toolchain and not Debian's emscripten. The modules run under
# node's WASI and in browsers (wasm/).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(CMAKE_C_COMPILER clang-14)
set(CMAKE_C_COMPILER_TARGET wasm32-wasi)
set(CMAKE_AR llvm-ar-14 CACHE FILEPATH "archiver")
set(CMAKE_RANLIB llvm-ranlib-14 CACHE FILEPATH "ranlib")
# Debian puts wasi-libc under the multiarch directories of /usr, which clang finds from /usr.
set(CMAKE_C_FLAGS_INIT "--sysroot=/usr")
set(CMAKE_EXE_LINKER_FLAGS_INIT "--sysroot=/usr -fuse-ld=lld")
set(CMAKE_EXECUTABLE_SUFFIX .wasm)
# Only the host's pkg-config and headers-only SIMDe are looked up (the wasm build uses neither's
# libraries); nothing is searched in a target root.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
