/*
 * Internal: the floating-point environment guard of every public entry point (issue 14,
 * docs/determinism.md "The floating-point environment"). Not installed.
 *
 * The bits tendon promises are those of the defined environment: round to nearest even, no
 * flush-to-zero, no denormals-are-zero, every exception masked (x86-64: MXCSR control bits
 * 0x1F80; AArch64: FPCR RMode, FZ, DN, FZ16, AH, FIZ, NEP, AHP and the trap enables all 0). A
 * public function that does floating-point work starts with
 *
 *     TENDON_FPENV_GUARD();
 *
 * which reads the control register and, only if its control bits differ from the defined ones,
 * writes the defined state (TENDON_FPENV=guard, the default) or refuses the call with
 * TENDON_ERR_FPENV before anything is written (TENDON_FPENV=check). The caller's control bits
 * are put back when the function's scope ends, whichever return it takes (the cleanup
 * attribute of GCC and Clang; MSVC has none, so an MSVC build is check mode only, below). The fast path — the register already defined — is one register
 * read and one compare. No global or thread-local state: the caller's value lives in the
 * guard's local, `tendon_fpenv_here`.
 *
 * A user function pointer (an anchor, a pose source, a weight function, a predicate, a root
 * transform) is called between tendon_fpenv_to_caller(env) and tendon_fpenv_from_caller(env):
 * in the caller's own environment, and back to the defined one after. Both do nothing unless
 * the guard changed the register, so the default case pays nothing. Internal functions that
 * reach a callback take the guard's `const tendon_fpenv *env` (NULL: no switching — the
 * library's own callbacks).
 *
 * Ordering: the register accesses are volatile asm with a memory clobber, so no load, store
 * or call moves across them; the work between them goes through calls and memory.
 *
 * The sticky exception flags are not part of the contract: on x86-64 the flags the caller had
 * are carried into the defined state and the flags raised by the work are kept on leaving (the
 * caller sees the union, as without the guard); on AArch64 they live in FPSR, untouched.
 */
#ifndef TENDON_COMMON_FPENV_H
#define TENDON_COMMON_FPENV_H

#include <stdint.h>

#include "tendon/fpenv.h"
#include "tendon/status.h"

/* How the register is reached and the caller's value put back (docs/windows.md):
   - gcc and clang (Linux, MinGW-w64): stmxcsr / ldmxcsr (mrs / msr fpcr on AArch64) in volatile
     asm with a memory clobber, and __attribute__((cleanup)) for the scope's end;
   - MSVC (_MSC_VER without clang): _mm_getcsr / _mm_setcsr between _ReadWriteBarrier()s, and
     no cleanup attribute — C has no destructor there, so a guard cannot restore the caller's
     environment on every return. An MSVC build is therefore check mode only (CMake chooses it;
     a guard-mode MSVC build stops here). Written for MSVC, never compiled by it here. */
#if defined(__GNUC__) || defined(__clang__)
#define TENDON_FPENV_HAVE_CLEANUP 1
#elif defined(_MSC_VER)
#define TENDON_FPENV_MSVC 1
#include <intrin.h>    /* _ReadWriteBarrier */
#include <xmmintrin.h> /* _mm_getcsr, _mm_setcsr */
#if !defined(TENDON_FPENV_CHECK)
#error "tendon: MSVC has no __attribute__((cleanup)), so TENDON_FPENV=guard cannot restore the caller's floating-point environment on return: build with TENDON_FPENV=check (CMake's default under MSVC)"
#endif
#else
#error "tendon's floating-point environment guard needs GCC, Clang or MSVC"
#endif

#if defined(__x86_64__) || defined(_M_X64)
#define TENDON_FPENV_X86 1
/* MXCSR: bits 0-5 sticky flags, 6 DAZ, 7-12 exception masks, 13-14 rounding, 15 FTZ. */
#define TENDON_FPENV_FLAGS 0x3Fu
#define TENDON_FPENV_DEFINED 0x1F80u
#elif defined(__aarch64__)
#define TENDON_FPENV_ARM64 1
/* FPCR: AHP 26, DN 25, FZ 24, RMode 23:22, FZ16 19, IDE 15, IXE 12, UFE 11, OFE 10, DZE 9,
   IOE 8, NEP 2, AH 1, FIZ 0: all 0 in the defined state; other bits are left as they are. */
#define TENDON_FPENV_CONTROL 0x07C89F07u
#define TENDON_FPENV_DEFINED 0u
#else
#define TENDON_FPENV_NONE 1 /* another architecture: nothing to read or set */
#define TENDON_FPENV_DEFINED 0u
#endif

static inline uint64_t tendon_fpenv_get_(void)
{
#if defined(TENDON_FPENV_X86) && defined(TENDON_FPENV_MSVC)
    _ReadWriteBarrier();
    const uint32_t csr = _mm_getcsr();
    _ReadWriteBarrier();
    return csr;
#elif defined(TENDON_FPENV_X86)
    uint32_t csr;
    __asm__ volatile("stmxcsr %0" : "=m"(csr)::"memory");
    return csr;
#elif defined(TENDON_FPENV_ARM64)
    uint64_t fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr)::"memory");
    return fpcr;
#else
    return 0;
#endif
}

static inline void tendon_fpenv_set_(uint64_t value)
{
#if defined(TENDON_FPENV_X86) && defined(TENDON_FPENV_MSVC)
    _ReadWriteBarrier();
    _mm_setcsr((unsigned)value);
    _ReadWriteBarrier();
#elif defined(TENDON_FPENV_X86)
    uint32_t csr = (uint32_t)value;
    __asm__ volatile("ldmxcsr %0" ::"m"(csr) : "memory");
#elif defined(TENDON_FPENV_ARM64)
    __asm__ volatile("msr fpcr, %0" ::"r"(value) : "memory");
#else
    (void)value;
#endif
}

/* Whether a register value's control bits differ from the defined state's. */
static inline int tendon_fpenv_differs_(uint64_t reg)
{
#if defined(TENDON_FPENV_X86)
    return (reg & ~(uint64_t)TENDON_FPENV_FLAGS) != TENDON_FPENV_DEFINED;
#elif defined(TENDON_FPENV_ARM64)
    return (reg & TENDON_FPENV_CONTROL) != 0;
#else
    (void)reg;
    return 0;
#endif
}

/* The defined state, keeping what is not control (x86 flags; AArch64's other bits) of `now`. */
static inline uint64_t tendon_fpenv_defined_from_(uint64_t now)
{
#if defined(TENDON_FPENV_X86)
    return TENDON_FPENV_DEFINED | (now & TENDON_FPENV_FLAGS);
#elif defined(TENDON_FPENV_ARM64)
    return now & ~(uint64_t)TENDON_FPENV_CONTROL;
#else
    return now;
#endif
}

/* The caller's control bits with the flags of `now` (x86: the union of both flag sets). */
static inline uint64_t tendon_fpenv_caller_from_(uint64_t caller, uint64_t now)
{
#if defined(TENDON_FPENV_X86)
    return caller | (now & TENDON_FPENV_FLAGS);
#else
    (void)now;
    return caller;
#endif
}

/* Enter the defined state if needed (guard mode writes; check mode only looks). */
static inline tendon_fpenv tendon_fpenv_enter_(void)
{
    tendon_fpenv e;
    e.caller = tendon_fpenv_get_();
    e.switched = 0;
#if !defined(TENDON_FPENV_CHECK)
    if (tendon_fpenv_differs_(e.caller)) {
        tendon_fpenv_set_(tendon_fpenv_defined_from_(e.caller));
        e.switched = 1;
    }
#endif
    return e;
}

/* The cleanup of TENDON_FPENV_GUARD: the caller's control bits back, if they were changed. */
static inline void tendon_fpenv_leave_(tendon_fpenv *e)
{
    if (e->switched)
        tendon_fpenv_set_(tendon_fpenv_caller_from_(e->caller, tendon_fpenv_get_()));
}

/* Around a user callback: the caller's environment for the call, the defined one after. */
static inline void tendon_fpenv_to_caller(const tendon_fpenv *env)
{
    if (env && env->switched)
        tendon_fpenv_set_(tendon_fpenv_caller_from_(env->caller, tendon_fpenv_get_()));
}
static inline void tendon_fpenv_from_caller(const tendon_fpenv *env)
{
    if (env && env->switched)
        tendon_fpenv_set_(tendon_fpenv_defined_from_(tendon_fpenv_get_()));
}
/* Whether callbacks under `env` need switching (the library wraps them only then). */
static inline int tendon_fpenv_switched(const tendon_fpenv *env) { return env && env->switched; }

/* TENDON_ERR_FPENV for `fn` (check mode), naming the register value and the expected one.
   Header-only over the public API (tendon_fpenv_describe, tendon_error_set), so a component
   linked over the shared core (the glTF importer) uses it as the core does. */
static inline tendon_status tendon_fpenv_refuse(const char *fn, uint64_t reg)
{
    char have[200], want[200];
    tendon_fpenv_describe(reg, have, sizeof have);
    tendon_fpenv_describe(TENDON_FPENV_DEFINED, want, sizeof want);
    return tendon_error_set(TENDON_ERR_FPENV,
                            "%s: the calling thread's floating-point environment is %s, and "
                            "this library (built with TENDON_FPENV=check) computes only in the "
                            "defined one, %s: set that mode around tendon calls (or build with "
                            "TENDON_FPENV=guard, which sets and restores it itself); nothing was "
                            "written",
                            fn, have, want);
}

#if defined(TENDON_FPENV_CHECK)
#define TENDON_FPENV_REFUSE_()                                                                     \
    if (tendon_fpenv_differs_(tendon_fpenv_here.caller))                                           \
    return tendon_fpenv_refuse(__func__, tendon_fpenv_here.caller)
/* A constructor's: *out NULL on this error too, as its doc promises for every error. */
#define TENDON_FPENV_REFUSE_OUT_(out)                                                              \
    if (tendon_fpenv_differs_(tendon_fpenv_here.caller)) {                                         \
        if (out)                                                                                   \
            *(out) = NULL;                                                                         \
        return tendon_fpenv_refuse(__func__, tendon_fpenv_here.caller);                            \
    }
#else
#define TENDON_FPENV_REFUSE_() ((void)0)
#define TENDON_FPENV_REFUSE_OUT_(out) ((void)(out))
#endif

/* The first statement of every public function that does floating-point work. */
#if defined(TENDON_FPENV_HAVE_CLEANUP)
#define TENDON_FPENV_GUARD()                                                                       \
    tendon_fpenv tendon_fpenv_here __attribute__((cleanup(tendon_fpenv_leave_), unused)) =       \
        tendon_fpenv_enter_();                                                                     \
    TENDON_FPENV_REFUSE_()
#else /* MSVC, check mode only (above): nothing is switched, so there is nothing to restore */
#define TENDON_FPENV_GUARD()                                                                       \
    tendon_fpenv tendon_fpenv_here = tendon_fpenv_enter_();                                      \
    TENDON_FPENV_REFUSE_()
#endif

/* TENDON_FPENV_GUARD() for a constructor (`Type **out`): a check-mode refusal sets *out to NULL
   first, as every other error of a constructor does. */
#if defined(TENDON_FPENV_HAVE_CLEANUP)
#define TENDON_FPENV_GUARD_OUT(out)                                                                \
    tendon_fpenv tendon_fpenv_here __attribute__((cleanup(tendon_fpenv_leave_), unused)) =       \
        tendon_fpenv_enter_();                                                                     \
    TENDON_FPENV_REFUSE_OUT_(out)
#else
#define TENDON_FPENV_GUARD_OUT(out)                                                                \
    tendon_fpenv tendon_fpenv_here = tendon_fpenv_enter_();                                      \
    TENDON_FPENV_REFUSE_OUT_(out)
#endif

/* The guard's state, for internal functions that reach user callbacks. */
#define TENDON_FPENV_HERE (&tendon_fpenv_here)

#endif
