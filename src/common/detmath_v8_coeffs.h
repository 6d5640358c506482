/*
 * Constants of the seed-exact transcendentals (src/common/detmath_v8.h, docs/detmath.md
 * "The seed's own Math"): the published fdlibm 5.3 coefficients and splittings that V8 11.3 (node
 * 20.20.2, the runtime the seed corpus was recorded with) evaluates Math.exp, Math.sin, Math.cos,
 * Math.sinh and Math.cosh with. They are facts about that runtime, written as C99 hexadecimal
 * literals so every compiler reads the same bits. The tables of 2/π and π/2 pieces and the
 * high words of n·π/2 are digits of π: `python3 tools/v8_math_tables.py --check` recomputes them
 * with mpmath and compares them with this file.
 */
#ifndef TENDON_DETMATH_V8_COEFFS_H
#define TENDON_DETMATH_V8_COEFFS_H

#include <stdint.h>

/* ---- exp / expm1 ---------------------------------------------------------------------------- */
#define TENDON_V8_LN2_HI 0x1.62e42feep-1              /* ln 2, top 32 bits (k·LN2_HI exact) */
#define TENDON_V8_LN2_LO 0x1.a39ef35793c76p-33        /* ln 2 − LN2_HI */
#define TENDON_V8_INV_LN2 0x1.71547652b82fep+0        /* 1/ln 2 */
#define TENDON_V8_EXP_OVERFLOW 0x1.62e42fefa39efp+9   /* 709.78…: the largest x with finite e^x */
#define TENDON_V8_EXP_UNDERFLOW -0x1.74910d52d3051p+9 /* −745.13…: below it e^x rounds to 0 */
#define TENDON_V8_E 0x1.5bf0a8b145769p+1              /* e rounded (V8 returns it for exp(1)) */
/* exp: R(r²) = r²·(P1 + r²·(P2 + …)), the Remez fit of (r·(e^r + 1)/(e^r − 1) − 2) */
#define TENDON_V8_EXP_P1 0x1.555555555553ep-3
#define TENDON_V8_EXP_P2 -0x1.6c16c16bebd93p-9
#define TENDON_V8_EXP_P3 0x1.1566aaf25de2cp-14
#define TENDON_V8_EXP_P4 -0x1.bbd41c5d26bf1p-20
#define TENDON_V8_EXP_P5 0x1.6376972bea4d0p-25
/* expm1: the scaled rational form's polynomial in (r²/2) */
#define TENDON_V8_EXPM1_Q1 -0x1.11111111110f4p-5
#define TENDON_V8_EXPM1_Q2 0x1.a01a019fe5585p-10
#define TENDON_V8_EXPM1_Q3 -0x1.4ce199eaadbb7p-14
#define TENDON_V8_EXPM1_Q4 0x1.0cfca86e65239p-18
#define TENDON_V8_EXPM1_Q5 -0x1.afdb76e09c32dp-23

/* ---- sinh / cosh ---------------------------------------------------------------------------- */
#define TENDON_V8_HYP_OVERFLOW 0x1.633ce8fb9f87dp+9 /* 710.4758600739439: past it, ±∞ */
#define TENDON_V8_LOG_MAXD 0x1.62e42p+9             /* 709.7822265625 (high word 0x40862E42) */

/* ---- sin / cos kernels on [−π/4, π/4] ------------------------------------------------------- */
#define TENDON_V8_SIN_S1 -0x1.5555555555549p-3
#define TENDON_V8_SIN_S2 0x1.111111110f8a6p-7
#define TENDON_V8_SIN_S3 -0x1.a01a019c161d5p-13
#define TENDON_V8_SIN_S4 0x1.71de357b1fe7dp-19
#define TENDON_V8_SIN_S5 -0x1.ae5e68a2b9cebp-26
#define TENDON_V8_SIN_S6 0x1.5d93a5acfd57cp-33
#define TENDON_V8_COS_C1 0x1.555555555554cp-5
#define TENDON_V8_COS_C2 -0x1.6c16c16c15177p-10
#define TENDON_V8_COS_C3 0x1.a01a019cb159p-16
#define TENDON_V8_COS_C4 -0x1.27e4f809c52adp-22
#define TENDON_V8_COS_C5 0x1.1ee9ebdb4b1c4p-29
#define TENDON_V8_COS_C6 -0x1.8fae9be8838d4p-37

/* ---- reduction by π/2 (Cody–Waite below 2^19·π/2, Payne–Hanek above) ----------------------- */
#define TENDON_V8_INV_PIO2 0x1.45f306dc9c883p-1 /* 2/π */
#define TENDON_V8_PIO2_1 0x1.921fb544p+0         /* π/2, first 33 bits */
#define TENDON_V8_PIO2_1T 0x1.0b4611a626331p-34  /* π/2 − PIO2_1 */
#define TENDON_V8_PIO2_2 0x1.0b4611a6p-34        /* the next 33 bits */
#define TENDON_V8_PIO2_2T 0x1.3198a2e037073p-69  /* π/2 − PIO2_1 − PIO2_2 */
#define TENDON_V8_PIO2_3 0x1.3198a2ep-69         /* the next 33 bits */
#define TENDON_V8_PIO2_3T 0x1.b839a252049c1p-104 /* the rest */

/* High words of n·π/2 rounded, n = 1 … 32: an argument whose high word equals one may be close
   to that multiple, and takes the longer reduction. */
static const uint32_t tendon_v8_npio2_hw[32] = {
    0x3FF921FB, 0x400921FB, 0x4012D97C, 0x401921FB, 0x401F6A7A, 0x4022D97C, 0x4025FDBB,
    0x402921FB, 0x402C463A, 0x402F6A7A, 0x4031475C, 0x4032D97C, 0x40346B9C, 0x4035FDBB,
    0x40378FDB, 0x403921FB, 0x403AB41B, 0x403C463A, 0x403DD85A, 0x403F6A7A, 0x40407E4C,
    0x4041475C, 0x4042106C, 0x4042D97C, 0x4043A28C, 0x40446B9C, 0x404534AC, 0x4045FDBB,
    0x4046C6CB, 0x40478FDB, 0x404858EB, 0x404921FB,
};

/* 2/π in 24-bit digits (the first 1584 bits: enough for every double's reduction). */
static const int32_t tendon_v8_two_over_pi[66] = {
    0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163,
    0xABDEBB, 0xC561B7, 0x246E3A, 0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C, 0xFE1DEB, 0x1CB129,
    0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C, 0x7026B4, 0x5F7E41, 0x3991D6, 0x398353, 0x39F49C,
    0x845F8B, 0xBDF928, 0x3B1FF8, 0x97FFDE, 0x05980F, 0xEF2F11, 0x8B5A0A, 0x6D1F6D, 0x367ECF,
    0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D, 0x7527BA, 0xC7EBE5, 0xF17B3D, 0x0739F7, 0x8A5292,
    0xEA6BFB, 0x5FB11F, 0x8D5D08, 0x560330, 0x46FC7B, 0x6BABF0, 0xCFBC20, 0x9AF436, 0x1DA9E3,
    0x91615E, 0xE61B08, 0x659985, 0x5F14A0, 0x68408D, 0xFFD880, 0x4D7327, 0x310606, 0x1556CA,
    0x73A8C9, 0x60E27B, 0xC08C6B,
};

/* π/2 in pieces of 24 bits (each piece exact; their sum is π/2 to ~2^−190). */
static const double tendon_v8_pio2_pieces[8] = {
    0x1.921fb4p+0,   0x1.4442dp-24,   0x1.846988p-48,  0x1.8cc516p-72,
    0x1.01b838p-96,  0x1.a25204p-120, 0x1.382228p-145, 0x1.9f31dp-169,
};

#endif
