# Cross-compile tendon for AArch64 with Debian's gcc-aarch64-linux-gnu; run the results under
# qemu-user. The arm64 -dev packages (check, jansson, nettle, mpfr) come from Debian multiarch:
# dpkg --add-architecture arm64 (tools/quickstart does it).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Statically linked executables run under qemu without a sysroot (and Check's fork mode works
# there; a dynamic Check binary hangs in fork mode under qemu-aarch64, DESIGN.md §8).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
