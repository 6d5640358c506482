/** @file
 * tendon — the version, at compile time.
 *
 * These macros are the one place the version is written: CMakeLists.txt reads its project
 * version from this file, so the macros, `tendon_version()`, the CMake package version, the
 * pkg-config version and the shared library's file name always agree. The soname follows the
 * policy in the README ("Versions and the ABI"): libtendon.so.0.MINOR while MAJOR is 0.
 *
 * A program can compare what it was compiled against (these macros) with what it runs against
 * (`tendon_version()`, status.h).
 */
#ifndef TENDON_VERSION_H
#define TENDON_VERSION_H

/** Major version: 0 while the ABI may still change between minor versions. */
#define TENDON_VERSION_MAJOR 0
/** Minor version: bumped by every release whose ABI differs from the previous one's. */
#define TENDON_VERSION_MINOR 2
/** Patch version: a release with the same ABI (and API) as the previous one of its minor. */
#define TENDON_VERSION_PATCH 0

/**
 * The version as one number, MAJOR·10000 + MINOR·100 + PATCH (0.2.0 is 200), for `#if`
 * comparisons: `#if TENDON_VERSION_NUMBER >= TENDON_MAKE_VERSION(0, 2, 0)`.
 */
#define TENDON_VERSION_NUMBER \
    TENDON_MAKE_VERSION(TENDON_VERSION_MAJOR, TENDON_VERSION_MINOR, TENDON_VERSION_PATCH)

/** The combined number of version MAJOR.MINOR.PATCH (each part below 100). */
#define TENDON_MAKE_VERSION(major, minor, patch) ((major) * 10000 + (minor) * 100 + (patch))

/** Expand to the string literal of a macro's value (helper of TENDON_VERSION_STRING_LITERAL). */
#define TENDON_VERSION_STR_(x) #x
/** Expand to a macro's value as a string literal (helper of TENDON_VERSION_STRING_LITERAL). */
#define TENDON_VERSION_XSTR_(x) TENDON_VERSION_STR_(x)

/** The version as a string literal, "MAJOR.MINOR.PATCH": what `tendon_version()` returns. */
#define TENDON_VERSION_STRING_LITERAL                                                            \
    TENDON_VERSION_XSTR_(TENDON_VERSION_MAJOR)                                                   \
    "." TENDON_VERSION_XSTR_(TENDON_VERSION_MINOR) "." TENDON_VERSION_XSTR_(TENDON_VERSION_PATCH)

#endif
