/** @file
 * tendon — the floating-point environment (issue 14; docs/determinism.md, "The floating-point
 * environment").
 *
 * tendon's bits are defined in one environment: round to nearest even, no flush-to-zero, no
 * denormals-are-zero, every exception masked — on x86-64 the MXCSR control bits 0x1F80, on
 * AArch64 FPCR RMode, FZ, DN, FZ16, AH, FIZ, NEP, AHP and the trap enables 0. A calling thread
 * may have any other (a game sets FTZ/DAZ; fesetround): every public entry point of tendon
 * computes the promised bits anyway.
 *
 * - TENDON_FPENV=guard (the CMake option's default): each public call that does floating-point
 *   work reads the control register; if its control bits are not the defined ones it writes
 *   the defined state, does its work, and puts the caller's control bits back before it
 *   returns. User callbacks (spring anchors, pose sources, the rig's weight functions and root
 *   transform, transition predicates) run in the caller's own environment. When the register
 *   is already defined the cost is one register read and a compare.
 * - TENDON_FPENV=check (a build option, not a run-time setting): nothing is written; a public
 *   call whose caller's environment is not the defined one is refused with TENDON_ERR_FPENV,
 *   the message naming the register value and the expected one, and writes nothing but a
 *   constructor's *out, set to NULL as on every other error (so destroying *out after any
 *   failure stays safe).
 *
 * The raw kernel table (tendon/kernels.h) is not guarded: its function pointers run in the
 * caller's environment. Wrap a batch of raw calls in tendon_fpenv_enter / tendon_fpenv_leave.
 *
 * The sticky exception flags (MXCSR bits 0-5, AArch64 FPSR) are not part of the contract.
 * Callbacks must return with the environment they were called in.
 */
#ifndef TENDON_FPENV_H
#define TENDON_FPENV_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A saved environment: what tendon_fpenv_enter found, for tendon_fpenv_leave. Plain data on the
 * caller's stack; one per enter/leave pair, on the thread that entered.
 */
typedef struct tendon_fpenv {
    uint64_t caller; /**< the control register's value at enter (MXCSR or FPCR) */
    int switched;    /**< nonzero when enter wrote the defined state (leave restores) */
} tendon_fpenv;

/** The calling thread's control register now: MXCSR on x86-64, FPCR on AArch64 (else 0). */
TENDON_API uint64_t tendon_fpenv_read(void);

/** The defined state's control value: 0x1F80 on x86-64, 0 on AArch64 and others. */
TENDON_API uint64_t tendon_fpenv_defined(void);

/**
 * Nonzero when `reg` (a value of tendon_fpenv_read) has the defined control bits (x86-64: the
 * sticky flags, bits 0-5, are ignored; AArch64: the bits named at the top of this header).
 */
TENDON_API int tendon_fpenv_is_defined(uint64_t reg);

/**
 * Describe `reg` in one line, e.g. "MXCSR 0x1f80 (round to nearest, FTZ off, DAZ off)" or
 * "FPCR 0x1000000 (round to nearest, FZ on, DN off)", into buf (at most buf_size bytes, always
 * NUL-terminated when buf_size > 0; buf may be NULL with buf_size 0). Returns the length of the
 * whole description, as snprintf does. Exceptions unmasked on x86-64 are listed as "traps …".
 */
TENDON_API size_t tendon_fpenv_describe(uint64_t reg, char *buf, size_t buf_size);

/** "guard" or "check": the TENDON_FPENV mode this library was built with. */
TENDON_API const char *tendon_fpenv_mode(void);

/**
 * Enter the defined environment on the calling thread (for a batch of raw kernel-table calls):
 * saves the control register into *saved and, if it is not defined, writes the defined state.
 * Always writes when needed, in either TENDON_FPENV mode (the caller asked). Pair with
 * tendon_fpenv_leave on the same thread; pairs may nest (an inner pair changes nothing).
 * Callbacks the raw kernels call inside the pair run in the defined environment.
 * Errors: TENDON_ERR_NULL (saved NULL; nothing changed).
 */
TENDON_API tendon_status tendon_fpenv_enter(tendon_fpenv *saved);

/**
 * Put back the control bits tendon_fpenv_enter saved (nothing if it changed nothing). On
 * x86-64 the sticky flags raised meanwhile are kept. `saved` must be what tendon_fpenv_enter
 * wrote. Errors (nothing changed): TENDON_ERR_NULL (saved NULL); TENDON_ERR_VALUE (on x86-64,
 * `switched` set with a saved MXCSR that has reserved bits 16-31 set — a value
 * tendon_fpenv_enter cannot have written, which the processor would refuse to load).
 */
TENDON_API tendon_status tendon_fpenv_leave(const tendon_fpenv *saved);

#ifdef __cplusplus
}
#endif
#endif
