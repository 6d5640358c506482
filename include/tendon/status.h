/** @file
 * tendon — status codes and the thread-local error message.
 *
 * Every fallible tendon function returns a tendon_status. On failure it also sets a message,
 * readable with tendon_error_message(), that names the offending value and the rule it broke.
 * Messages are per thread (as dlerror's are): two threads never see each other's errors.
 */
#ifndef TENDON_STATUS_H
#define TENDON_STATUS_H

#include <stddef.h>

/* TENDON_API marks every public function. On Windows the build sets it (CMake, docs/windows.md):
   TENDON_SHARED_BUILD while compiling the DLL (dllexport), TENDON_SHARED_USE for a program
   linking the DLL (dllimport; the tendon::tendon target passes it on), neither for the static
   library. Elsewhere the shared library exports only what has default visibility. */
#if defined(_WIN32) && defined(TENDON_SHARED_BUILD)
#define TENDON_API __declspec(dllexport)
#elif defined(_WIN32) && defined(TENDON_SHARED_USE)
#define TENDON_API __declspec(dllimport)
#elif defined(_WIN32)
#define TENDON_API
#elif defined(__GNUC__)
#define TENDON_API __attribute__((visibility("default")))
#else
#define TENDON_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** What a tendon function returns. 0 is success; every other value is a refusal with a message. */
typedef enum tendon_status {
    TENDON_OK = 0,
    /** A required pointer argument was NULL. The message names the argument. */
    TENDON_ERR_NULL = 1,
    /** Two counts that must agree do not (e.g. a pose's joint_count against another's). */
    TENDON_ERR_COUNT = 2,
    /** An index is outside its valid range (a joint past joint_count, a parent after its child). */
    TENDON_ERR_RANGE = 3,
    /** An output buffer partly overlaps an input. Exact aliasing is allowed where documented. */
    TENDON_ERR_ALIAS = 4,
    /** An unknown ISA name, or an ISA this CPU cannot run (TENDON_ISA, tendon_isa_force). */
    TENDON_ERR_ISA = 5,
    /** A value outside its domain (a frequency that is not positive, zero damping, …). */
    TENDON_ERR_VALUE = 6,
    /** A count whose byte size overflows size_t. */
    TENDON_ERR_OVERFLOW = 7,
    /** An allocation failed (only object creation allocates; kernels never do). */
    TENDON_ERR_NOMEM = 8,
    /** Malformed input data (a file or a case that does not follow its format). */
    TENDON_ERR_FORMAT = 9,
    /** A name that was looked up and not found. */
    TENDON_ERR_NOT_FOUND = 10,
    /** An I/O failure (a file that cannot be read). */
    TENDON_ERR_IO = 11,
    /**
     * The calling thread's floating-point environment is not the defined one (round to nearest,
     * no FTZ/DAZ) and this library was built with TENDON_FPENV=check, which refuses instead of
     * setting it (tendon/fpenv.h). The message names the register value and the expected one;
     * nothing was written.
     */
    TENDON_ERR_FPENV = 12
} tendon_status;

/**
 * The message of the last failure on the calling thread: names the value and the rule.
 * Never NULL; "" if no tendon call on this thread has failed yet. A successful call does not
 * clear it. The pointer stays valid until the next failing tendon call on this thread.
 */
TENDON_API const char *tendon_error_message(void);

/** The enumerator's name, e.g. "TENDON_ERR_COUNT"; "TENDON_ERR_UNKNOWN" for other values. */
TENDON_API const char *tendon_status_name(tendon_status status);

/**
 * The library version as "MAJOR.MINOR.PATCH": the version of the library this program runs
 * against. The version it was compiled against is TENDON_VERSION_STRING_LITERAL (version.h).
 */
TENDON_API const char *tendon_version(void);

/**
 * Set the calling thread's error message (what tendon_error_message() returns), formatted as
 * printf formats it (truncated to 511 bytes; NULL `fmt` sets ""), and return `status`. For
 * components layered over the core — the glTF importer (gltf.h) reports its errors through it,
 * so one message function serves both — and for an engine's own wrappers that want their
 * refusals read the same way. Thread-safe: the message is per thread.
 */
TENDON_API tendon_status tendon_error_set(tendon_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif
