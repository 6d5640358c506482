/** @file
 * tendon — instruction sets, CPU detection and the per-ISA kernel tables.
 *
 * Every hot routine has a scalar reference and SSE2, SSE4.1, AVX2, AVX-512, NEON and (in the
 * WebAssembly build) SIMD128 variants, all bitwise identical to the reference for finite inputs (docs/determinism.md). The best variant
 * the CPU can run is chosen once, on first use, thread-safely. `TENDON_ISA=<name>` in the
 * environment (read at that first use) or tendon_isa_force() overrides the choice; an unknown
 * name or an ISA this CPU lacks is an error (TENDON_ERR_ISA), never a crash and never a silent
 * fallback: while TENDON_ISA names something unusable (and tendon_isa_force has not chosen a
 * usable ISA since), every dispatched call fails with that message.
 *
 * A variant compiled for the other architecture (NEON on x86-64, the x86 variants on AArch64)
 * is built through SIMDe's emulation: "compiled, emulated". Tests and benchmarks can run it
 * through tendon_kernels_for(); dispatch never picks it and tendon_isa_force() refuses it.
 * SIMD128 exists only in the wasm32 build's SIMD module (docs/wasm.md): there it is native and
 * always usable (the JavaScript loader instantiates that module only where the engine validates
 * SIMD128); every other build reports it absent.
 */
#ifndef TENDON_DISPATCH_H
#define TENDON_DISPATCH_H

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The instruction sets, in order of preference on their architecture (higher is better). */
typedef enum tendon_isa {
    TENDON_ISA_SCALAR = 0, /**< the plain-C reference; every other variant equals it bit for bit */
    TENDON_ISA_SSE2 = 1,   /**< x86-64 baseline */
    TENDON_ISA_SSE41 = 2,  /**< SSE4.1 */
    TENDON_ISA_AVX2 = 3,   /**< AVX2 (no FMA: see docs/determinism.md) */
    TENDON_ISA_AVX512 = 4, /**< AVX-512 F + DQ + VL */
    TENDON_ISA_NEON = 5,   /**< AArch64 Advanced SIMD */
    TENDON_ISA_SIMD128 = 6, /**< WebAssembly SIMD128 (wasm32 builds only: docs/wasm.md) */
    TENDON_ISA_COUNT = 7
} tendon_isa;

/** How an ISA variant exists in this build of the library. */
typedef enum tendon_isa_build {
    TENDON_ISA_ABSENT = 0,   /**< not compiled into this build */
    TENDON_ISA_NATIVE = 1,   /**< compiled for this architecture's real instructions */
    TENDON_ISA_EMULATED = 2  /**< compiled through SIMDe emulation on the other architecture */
} tendon_isa_build;

/** "scalar", "sse2", "sse41", "avx2", "avx512", "neon", "simd128"; NULL for a value outside the
 *  enum. */
TENDON_API const char *tendon_isa_name(tendon_isa isa);

/**
 * Parse an ISA name (exactly as tendon_isa_name spells it) into *out.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_ISA (unknown name; the message lists the valid ones).
 */
TENDON_API tendon_status tendon_isa_from_name(const char *name, tendon_isa *out);

/** Whether and how `isa` was compiled into this build. */
TENDON_API tendon_isa_build tendon_isa_compiled(tendon_isa isa);

/**
 * Whether dispatch may pick `isa` here: compiled natively and supported by this CPU and OS
 * (for AVX2 and AVX-512 the OS must save the YMM / ZMM state: checked through XGETBV).
 * Scalar is always supported. Emulated variants are never "supported".
 */
TENDON_API int tendon_isa_supported(tendon_isa isa);

/**
 * The ISA dispatched calls use, choosing it on first use (TENDON_ISA, else the best supported).
 * Errors: TENDON_ERR_NULL, TENDON_ERR_ISA (TENDON_ISA names an unknown or unusable ISA; the
 * message says which and what is usable). Thread-safe.
 */
TENDON_API tendon_status tendon_isa_active(tendon_isa *out);

/**
 * Make every later dispatched call, on every thread, use `isa`.
 * Errors: TENDON_ERR_ISA (outside the enum, not compiled, emulated, or not supported by this
 * CPU); the active ISA is then unchanged. Thread-safe; calls already running finish on the ISA
 * they started with.
 */
TENDON_API tendon_status tendon_isa_force(tendon_isa isa);

/**
 * The CPU's brand string (e.g. "AMD EPYC 9R14"), or a generic architecture name. Never NULL.
 * The string is the calling thread's own: valid until this thread's next call or its end (copy
 * it to keep it, or to hand it to another thread). Each call reads the CPU again.
 */
TENDON_API const char *tendon_cpu_name(void);

struct tendon_kernels;

/**
 * The raw kernel table of `isa`, for tests and benchmarks that call every variant directly in
 * one process without flipping the global choice. NULL when the variant cannot run here
 * (absent, or native but not supported by this CPU); non-NULL for supported and for emulated
 * variants. See tendon/kernels.h: the table's functions validate nothing.
 */
TENDON_API const struct tendon_kernels *tendon_kernels_for(tendon_isa isa);

#ifdef __cplusplus
}
#endif
#endif
