/*
 * Coefficients of the project's own transcendentals (docs/detmath.md), one set shared by the
 * scalar reference (detmath.h) and every SIMD body (src/simd/kernels/detmath_vec.inl.h).
 *
 * Fitted by tools/fit_detmath.py (mpmath chebyfit, near-minimax), written as hexadecimal
 * floating-point literals so every compiler reads the same bits.
 *
 *   asin(u) = u + (u·y)·P_asin(y),  y = u²,  u ∈ [0, 1/2]   P_asin degree 10, |P − f| ≤ 3.7e-15
 *   sin(x)  = x + (x·y)·P_sin(y),   y = x²,  x ∈ [−π/2, π/2] P_sin  degree 6,  |P − f| ≤ 1.9e-16
 */
#ifndef TENDON_DETMATH_COEFFS_H
#define TENDON_DETMATH_COEFFS_H

#define TENDON_ASIN_C10 0x1.c8a4a8d5d7026p-6
#define TENDON_ASIN_C9 -0x1.bf16e7c9f283cp-8
#define TENDON_ASIN_C8 0x1.fa1b2b4831188p-7
#define TENDON_ASIN_C7 0x1.512bc40e88a9ep-7
#define TENDON_ASIN_C6 0x1.cf5ed14c7cb7ep-7
#define TENDON_ASIN_C5 0x1.1c0d74beb3610p-6
#define TENDON_ASIN_C4 0x1.6e8f34a32a3ecp-6
#define TENDON_ASIN_C3 0x1.f1c6ff7f5507fp-6
#define TENDON_ASIN_C2 0x1.6db6dba99e56dp-5
#define TENDON_ASIN_C1 0x1.33333333030cfp-4
#define TENDON_ASIN_C0 0x1.55555555555bbp-3

#define TENDON_SIN_C6 -0x1.a1095286ba17ap-41
#define TENDON_SIN_C5 0x1.60f6f0d66f8acp-33
#define TENDON_SIN_C4 -0x1.ae63bdfa8502ap-26
#define TENDON_SIN_C3 0x1.71de394e5888cp-19
#define TENDON_SIN_C2 -0x1.a01a019e69965p-13
#define TENDON_SIN_C1 0x1.1111111110067p-7
#define TENDON_SIN_C0 -0x1.555555555554fp-3

/* π/2 and π rounded to double, and the remainder of π (π − TENDON_PI_HI, rounded). */
#define TENDON_PIO2 0x1.921fb54442d18p+0
#define TENDON_PI_HI 0x1.921fb54442d18p+1
#define TENDON_PI_LO 0x1.1a62633145c07p-53

/* Bit-pattern seed for 1/√s on doubles: y0 = bits(MAGIC − (bits(s) >> 1)), |y0·√s − 1| < 3.5e-2;
   four Newton steps y ← y·(1.5 − ((s/2)·y)·y) take it to < 2.8e-16 (2.2 ulp). */
#define TENDON_RSQRT_MAGIC 0x5FE6EB50C7B537A9ull

/* Slerp's straight-blend threshold on the dot after the hemisphere flip (seed blend.js). */
#define TENDON_SLERP_STRAIGHT_DOT 0.9995

#endif
