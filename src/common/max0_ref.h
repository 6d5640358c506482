/*
 * max(x, 0) the way the reference writes it, `x < 0 ? 0 : x` — −0 stays −0 and NaN stays NaN —
 * on every compiler.
 *
 * Why a helper: clang-14's WebAssembly backend turns a select on a strict comparison with a
 * constant (`x < 0.0 ? 0.0 : x`) into f64.max / f32.max, whose IEEE 754-2019 maximum orders
 * −0 below +0 and so returns +0 for x = −0 where the C expression returns −0 (LLVM's select
 * pattern matching ignores signed zeros for strict comparisons; x86 and AArch64 keep the
 * select). The zero is passed through an empty asm statement there, so the compiler no longer
 * knows it is a constant and keeps the compare and select. Other targets compile the plain
 * expression. A max/min with a non-zero constant (`w > 1 ? 1 : w`) gives the same bits either
 * way and needs nothing. docs/wasm.md, "Compare and select".
 */
#ifndef TENDON_COMMON_MAX0_REF_H
#define TENDON_COMMON_MAX0_REF_H

static inline double tendon_ref_opaque_zero_(void)
{
    double z = 0.0;
#if defined(__wasm__)
    __asm__("" : "+r"(z));
#endif
    return z;
}

static inline float tendon_reff_opaque_zero_(void)
{
    float z = 0.0f;
#if defined(__wasm__)
    __asm__("" : "+r"(z));
#endif
    return z;
}

/** x < 0 ? 0 : x (−0 and NaN pass through). */
static inline double tendon_ref_max0(double x)
{
    const double z = tendon_ref_opaque_zero_();
    return x < z ? z : x;
}

/** The same in float. */
static inline float tendon_reff_max0(float x)
{
    const float z = tendon_reff_opaque_zero_();
    return x < z ? z : x;
}

#endif
