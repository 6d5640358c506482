/* Internal: CPU feature bits (src/dispatch/cpu.c). */
#ifndef TENDON_CPU_H
#define TENDON_CPU_H
#include <stddef.h>

#define TENDON_CPU_SSE2 (1u << 0)
#define TENDON_CPU_SSE41 (1u << 1)
#define TENDON_CPU_AVX2 (1u << 2)
#define TENDON_CPU_AVX512 (1u << 3) /* F + DQ + VL, with the OS saving ZMM state */
#define TENDON_CPU_NEON (1u << 4)
#define TENDON_CPU_SIMD128 (1u << 5) /* the wasm32 SIMD module: docs/wasm.md */
/* Not an instruction set: the vendor, for the choices between two ways to the same bits that
   measure differently on Intel and AMD cores (docs/dispatch.md, "Per-vendor choices"). */
#define TENDON_CPU_INTEL (1u << 6)

#if defined(__GNUC__) && !defined(_WIN32)
#define TENDON_CPU_HIDDEN __attribute__((visibility("hidden")))
#else
#define TENDON_CPU_HIDDEN /* a DLL exports only what is dllexport */
#endif
TENDON_CPU_HIDDEN unsigned tendon_cpu_features(void);
TENDON_CPU_HIDDEN void tendon_cpu_brand(char *out, size_t size);
#endif
