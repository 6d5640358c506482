# Cross-compile tendon for 64-bit Windows with Debian's MinGW-w64 (gcc-mingw-w64-x86-64, the
# POSIX-threads variant) and run the results under wine (wine64). Check, jansson and nettle have
# no MinGW packages in Debian: tools/quickstart builds them from their Debian source packages
# into build-mingw-deps/ (docs/windows.md), which is this toolchain's one search root beside the
# compiler's own sysroot.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(TENDON_MINGW_DEPS "${CMAKE_CURRENT_LIST_DIR}/../build-mingw-deps" CACHE PATH
    "Prefix of the MinGW builds of Check, jansson and nettle (tools/quickstart deps-mingw)")
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32 "${TENDON_MINGW_DEPS}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# Every test and tool runs through wine (its start-up is measured in docs/windows.md).
set(CMAKE_CROSSCOMPILING_EMULATOR /usr/lib/wine/wine64)
set(ENV{PKG_CONFIG_LIBDIR} "${TENDON_MINGW_DEPS}/lib/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "")
