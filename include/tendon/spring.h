/** @file
 * tendon — secondary motion: damped springs and spring chains, sampled as a pure function of
 * time (hair, a coat, an antenna, a braid reacting to what the subject is doing).
 *
 * Seed: 001 `spring.ts` and its README paragraphs (000). The contract, from the seed:
 *   - **Pure**: sampling at t reads no clock and keeps no state between calls, so scrubbing
 *     backwards, forwards or at random gives the same bits for the same t, and two threads may
 *     sample at once (unlike the seed, nothing here is module-level scratch).
 *   - **Lookback from the decay envelope**: a sample starts at rest on the anchor one settle
 *     time before t and marches forward to t. Settle time = −ln(1e-3)/(ζ·ω), ω = (2π)·f: the age
 *     at which e^(−ζωt) falls to 1e-3. That is how an underdamped spring (ζ < 1) forgets its
 *     anchor's past; **at ζ ≥ 1 it is not, and this lookback is too short** — an overdamped
 *     spring forgets at its slow pole ω(ζ − √(ζ²−1)) ≈ ω/(2ζ), a critically damped one as
 *     (1 + ωt)·e^(−ωt). Measured (f = 2 Hz, a unit step leaving the window): the output jumps by
 *     0.0086 at ζ = 1, 0.21 at ζ = 1.5, 0.71 at ζ = 3, 0.97 at ζ = 10. The seed does the same,
 *     bit for bit, and its cases pin it, so it is kept: docs/springs.md, "Known limitation
 *     inherited from the seed".
 *   - **Closed-form substep**: each substep solves the 2×2 (offset, velocity) transition of the
 *     damped oscillator exactly, over an anchor read as moving straight between two samples;
 *     32 substeps per period of the spring's own frequency (substeps ≈ 35.18/ζ: 101 at ζ = 0.35).
 *   - **Clamp at the end**: max_offset_m limits how far the drawn result trails its anchor; it is
 *     applied once to the finished position, never inside the march.
 *   - **Chains** are marched on one grid (link n's anchor is link n−1's sprung position), with a
 *     lookback from the cascade bound (tendon_spring_chain_settle_sec).
 *
 * Arithmetic (docs/springs.md): anchors are float32, state is double, outputs are rounded to
 * float32 once on store, in the seed's orders. The march has a scalar reference and SSE2, SSE4.1,
 * AVX2, AVX-512 and NEON variants, all bitwise identical (default FP environment; NaN by class).
 * The arithmetic is the seed's, operation for operation — the anchor's speed divided by the step
 * in every substep, the coefficients from exp/cos/sin/cosh/sinh and the clamp's length from
 * hypot computed as V8 11.3 computes Math.* (node 20.20.2, the runtime the seed's cases were
 * recorded with: the project's own code, never libm, src/common/detmath_v8.h) — so every double
 * of the seed's cases is reproduced to the bit, on every machine and ISA (docs/springs.md). The
 * deviations that remain are opt-ins (tendon_spring_lookback) or where the seed gives NaN.
 *
 * No function here allocates. None keeps state. Alignment: the element's own (4 bytes for float
 * outputs, refused with TENDON_ERR_VALUE otherwise); workspaces: any.
 */
#ifndef TENDON_SPRING_H
#define TENDON_SPRING_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Where the spring is pulled, as a pure function of time: write the anchor position(s) at
 * `time_sec` into `out` — 3 floats (x y z, metres) for one spring or one chain's root, or 3·count
 * floats (spring i at out[3i .. 3i+2]) for the batch forms.
 *
 * **It must be a pure function of the time it is handed**: it is called many times per sample,
 * at times before the one asked for (from time − settle time up to time), and a callback that
 * reads a clock, or answers differently on a second call for one time, breaks the purity this
 * module exists to provide, silently. A sample calls it substeps + 2 times, in this order: at
 * the start of the lookback, at start + n·step for n = 1 … substeps (never accumulated; the last
 * of these may round an ulp past the time asked for), and at the time asked for. The calls may
 * run ahead of the arithmetic that uses them (a single spring gathers a few substeps' anchors
 * before marching them), which a pure function cannot tell. It should write every float of
 * `out`: a float it leaves unwritten holds an unspecified earlier value — zero if no call has
 * written it (an anchor that writes nothing is a constant anchor at 0) — the same on every ISA.
 * It may call tendon functions (everything here is re-entrant). The floats it writes are read
 * as they are (non-finite values flow through the arithmetic; nothing is refused). Called by a
 * public entry point, it runs in the caller's own floating-point environment (tendon/fpenv.h:
 * the library's defined one is set around the library's work, not around the anchor's), and
 * it must return with the environment it was called in.
 */
typedef void (*tendon_spring_anchor_fn)(void *user, double time_sec, float *out);

/**
 * An anchor that can fail (for the `_status` entry points): as tendon_spring_anchor_fn — the
 * same calls at the same times, the same contract of purity — returning TENDON_OK, or any other
 * status to stop the sample: the first failing call ends the anchor's part (it is not called
 * again), the sample returns that status with nothing written (the march may run out on the
 * values it had; its result is dropped), and the message names the call and its time, then
 * quotes the last tendon message of the thread (set it with your own words before returning,
 * e.g. through a tendon call that failed). For anchors the library cannot see: physics, a
 * controller, a network peer.
 */
typedef tendon_status (*tendon_spring_anchor_status_fn)(void *user, double time_sec, float *out);

/**
 * How a sample's lookback (how far back the march starts) is derived. docs/springs.md, "The
 * lookback setting".
 */
typedef enum tendon_spring_lookback {
    /**
     * The seed's (springSettleSec, springChainSettleSec), to the bit: −ln(1e-3)/(ζω) per spring;
     * a chain's cascade bound over the slowest ζω, its root found as the seed finds it — the sum
     * e^(−x)·Σ x^k/k! evaluated as the seed evaluates it (V8's Math.exp), a doubled bracket and
     * exactly 64 bisections. The default of every entry point without a `lookback` argument, and
     * what the seed's cases pin (every double of them bit-exact). **Wrong past ~650 links**: the
     * seed's sum underflows there and the root stops growing at its ~660-link value (x ≈ 745),
     * so the lookback comes out short — 5 % at 700 links, a third at 1000, more beyond:
     * TENDON_SPRING_LOOKBACK_CORRECTED_ROOT is the fix). Right below critical damping;
     * **too short at ζ ≥ 1** (docs/springs.md, "Known limitation"; TENDON_SPRING_LOOKBACK_SLOW_POLE).
     */
    TENDON_SPRING_LOOKBACK_SEED = 0,
    /**
     * Right for damping ≥ 1 too: the slowest decay of the response. ζ below the critical band
     * (ζ² − 1 < −1e-12): the seed's formula, bit for bit. In the band: the root of
     * (1 + ωt)·e^(−ωt) = 1e-3 (ωt = 9.2334, a double pole). Above it: the larger of that and
     * −ln(1e-3)/p_s, p_s = ω/(ζ + √(ζ² − 1)) the slow pole (ζ = 1.5: 18.09/ω, 3: 33.98/ω, 10:
     * 137.8/ω). A chain: the cascade bound over the slowest rate, a link at ζ ≥ 1 counted at
     * −ln(1e-3)/(its own slow-pole lookback), the root by the corrected solver (as
     * TENDON_SPRING_LOOKBACK_CORRECTED_ROOT); a chain of links all below critical gets
     * TENDON_SPRING_LOOKBACK_CORRECTED_ROOT's lookback bit for bit. Substeps stay 32 per period
     * of the (fastest) frequency, so an overdamped spring now costs about 70ζ substeps instead
     * of 35/ζ, and damping above about 2.4e5 needs more than TENDON_SPRING_MAX_SUBSTEPS
     * (refused, TENDON_ERR_VALUE).
     */
    TENDON_SPRING_LOOKBACK_SLOW_POLE = 1,
    /**
     * The seed's formulas with the chain's cascade root solved correctly: the sum carried
     * rescaled past x = 700 (so it never underflows) and the root by Newton's method from
     * x = n − 1 (~10 sums instead of ~70). Within 4.7e-16 of a 320-bit MPFR root for 1 to 2000
     * links; equal to the seed's to ~1e-15 below ~640 links (a few ulps, not bit for bit), right
     * where the seed's is wrong beyond. Single springs: the seed's lookback, bit for bit.
     */
    TENDON_SPRING_LOOKBACK_CORRECTED_ROOT = 2
} tendon_spring_lookback;

/** A negative (or NaN) max_offset_m: no limit, as the seed's absent maxOffsetM. */
#define TENDON_SPRING_NO_LIMIT (-1.0)

/** The tolerance the lookback is derived from: a thousandth of the anchor's own motion. */
#define TENDON_SPRING_EPSILON 1e-3

/** Substeps per period of the spring's (the chain's fastest link's) frequency. */
#define TENDON_SPRING_STEPS_PER_PERIOD 32

/**
 * The most substeps one sample may march (2^24). A sample that would need more is refused
 * (TENDON_ERR_VALUE) rather than running for seconds: substeps ≈ 35.18/ζ for one spring, so this
 * refuses damping below about 2.1e-6 (the seed would march on). Damping 1e-4 takes 351,810.
 */
#define TENDON_SPRING_MAX_SUBSTEPS ((size_t)1 << 24)

/**
 * The most work one chain call may do by default, in **link-substeps** (one link of one chain
 * advanced one substep): a call costs max(1, substeps) × link_count × chain_count, and one that
 * would cost more is refused (TENDON_ERR_VALUE, the message giving the cost and the limit) before
 * the root is called or anything is marched. 2^24, the same bound as TENDON_SPRING_MAX_SUBSTEPS
 * puts on one spring: about 0.05 s of marching on the machine this was measured on (2.8–3.5 ns
 * per link-substep; docs/springs.md has 2.3–14 ns across machines and loads). Substeps grow with
 * the links (the cascade lookback), so a chain's cost grows as links²: a chain of 2 Hz / ζ = 0.35
 * links fits up to 1,547 links under the seed's lookback (which stops growing at ~660 links,
 * 10,843 substeps: the seed's root is short there) and up to 1,024 under
 * TENDON_SPRING_LOOKBACK_CORRECTED_ROOT (1000 links: 16,015 substeps, 16.0 million
 * link-substeps; 1,025 links cost 16.8 million); chains of a few dozen links are far inside it
 * (64 links: 85,312).
 * Every chain in the tests, the digest, the seed cases and `tendon demo` costs at most 903,528.
 * A caller who means to march more passes its own budget to tendon_spring_chain_sample_budget /
 * tendon_spring_chain_sample_batch_budget.
 */
#define TENDON_SPRING_MAX_WORK ((uint64_t)1 << 24)

/** A single chain of at most this many links may be sampled with workspace = NULL. */
#define TENDON_SPRING_CHAIN_STACK_LINKS 16

/** One damped spring (seed SpringSettings). */
typedef struct tendon_spring_settings {
    /**
     * Undamped natural frequency, hertz. Must be > 0. Accepted as the seed accepts them, with
     * TENDON_OK: +∞ (no substep; the answer is the anchor at time_sec, seed case edge-010), and
     * frequencies so high the arithmetic overflows, which give **NaN in every component** on
     * every ISA: from about 2.1e153 Hz while a sample marches two or more substeps (ζ below
     * 35.18; there ω² overflows in the velocity coefficient: NaN above
     * √(DBL_MAX·1000^(1/substeps))/(2π) — 2.13e153 Hz at ζ = 1e-4, 2.21e153 at 0.35, 2.35e153
     * at 1, 2.85e153 at 3), and, with one substep (ζ ≥ 35.18), once ζ·(2π)·f overflows
     * (f > DBL_MAX/(2πζ): 2.86e301 Hz at ζ = 1e6). docs/springs.md, "Settings that give NaN".
     */
    double frequency_hz;
    /**
     * Damping ratio ζ: below 1 rings, 1 is critical, above 1 sags in. Must be > 0. Accepted
     * with TENDON_OK as the seed does, and **NaN in every component** on every ISA: +∞, and
     * every ζ ≥ 1.3407807929942597e154 (ζ² overflows: sinh(∞)/∞ in the substep), at any
     * frequency. (A chain link there, below a slower link, gives ±∞ or NaN from that link
     * down; the links above it are unaffected.)
     */
    double damping;
    /** How far the drawn result may trail its anchor, metres; negative or NaN: no limit. */
    double max_offset_m;
} tendon_spring_settings;

/** One link of a chain (seed SpringLink): a spring, plus where it rests below the link above. */
typedef struct tendon_spring_link {
    double frequency_hz;     /**< as tendon_spring_settings */
    double damping;          /**< as tendon_spring_settings */
    double max_offset_m;     /**< as tendon_spring_settings (from this link's rest point) */
    double rest_offset_m[3]; /**< x y z, metres, relative to the link above (the root for link 0) */
} tendon_spring_link;

/**
 * The lookback of one spring (seed springSettleSec): −ln(1e-3)/(ζ·((2π)·f)), seconds — the age
 * at which e^(−ζωt) reaches 1e-3. Below critical damping that bounds what the spring still
 * remembers; at ζ ≥ 1 it is too short (the true envelope is e^(−ω(ζ−√(ζ²−1))t), or
 * (1 + ωt)·e^(−ωt) at ζ = 1): at ζ = 3 a step exactly one lookback old still has 0.69 of its
 * effect to come. Kept as the seed's (its cases pin it): docs/springs.md, "Known limitation
 * inherited from the seed".
 * Never refuses a value: like the seed it returns what that arithmetic gives (+∞ for ζ = 0, NaN
 * or negative for invalid settings, 0 for ζ·ω = +∞); the samplers are what refuse.
 * Errors: TENDON_ERR_NULL (settings or out_sec).
 */
TENDON_API tendon_status tendon_spring_settle_sec(const tendon_spring_settings *settings,
                                                  double *out_sec);

/**
 * The lookback of a chain (seed springChainSettleSec): the root x of the cascade bound
 * e^(−x)·Σ_{k<n} x^k/k! = 1e-3 (n = link_count), divided by the slowest link's
 * σ = ((ζ·2)·π)·f. 0 for an empty chain. The root is found as the seed finds it
 * (TENDON_SPRING_LOOKBACK_SEED): the seed's sum, a bracket doubled from −ln(1e-3) + n, exactly
 * 64 bisections — the seed's value to the bit, with V8's Math.exp (docs/springs.md). As for one
 * spring, σ = ζω is the decay rate only of links with ζ < 1:
 * a link with ζ ≥ 1 forgets more slowly than this assumes (docs/springs.md, "Known
 * limitation inherited from the seed"), and the bound ignores resonance gain, so long chains
 * with ζ < 1/√2 outrun it (tendon_spring_chain_sample).
 *
 * **Wrong past ~650 links, as the seed is**: the seed evaluates e^(−x) directly, which
 * underflows once x passes ~708 (about 650 links): the root stops growing at its ~660-link value,
 * so the lookback comes out short (at 700 links by 5 %, at 1000 by a third, more beyond). tendon_spring_chain_settle_sec_lookback with
 * TENDON_SPRING_LOOKBACK_CORRECTED_ROOT evaluates the bound with a rescaled sum and returns its
 * true root at every length (Newton's method; checked against MPFR to 4.7e-16 relative); below
 * ~640 links the two agree to ~1e-15.
 *
 * links: [link_count]. Links are validated in order, each as tendon_spring_sample validates.
 * Errors: TENDON_ERR_NULL (out_sec; links when link_count > 0), TENDON_ERR_VALUE (a link's
 * frequency not > 0, damping negative or NaN, damping 0 — the seed's messages, with the link's
 * index).
 */
TENDON_API tendon_status tendon_spring_chain_settle_sec(const tendon_spring_link *links,
                                                        size_t link_count, double *out_sec);

/**
 * Where one damped spring's mass sits at `time_sec` (seed sampleSpring), into out[3] (x y z).
 *
 * Starts at rest on the anchor at time_sec − tendon_spring_settle_sec, marches
 * max(1, ceil(lookback·f·32)) closed-form substeps to time_sec, then holds the result within
 * max_offset_m of the anchor at time_sec. `anchor` is called substeps + 2 times (see
 * tendon_spring_anchor_fn). time_sec is not refused (±∞ and NaN flow through the arithmetic);
 * the anchor's precision at large times is the caller's (at t = 1e7 a float32 anchor is ~1 m
 * coarse). Settings the seed accepts but whose arithmetic overflows (damping +∞ or ≥ 1.34e154,
 * frequency from ~2.1e153 Hz: see tendon_spring_settings) return TENDON_OK with NaN in every
 * component, after the usual substeps + 2 anchor calls. With damping ≥ 1 the result is only as
 * good as the seed's lookback allows (tendon_spring_settle_sec).
 *
 * Errors, in the seed's order: TENDON_ERR_NULL (settings, anchor, out),
 * TENDON_ERR_VALUE (frequency_hz not > 0; damping negative or NaN; damping 0 — an undamped
 * spring never settles; more than TENDON_SPRING_MAX_SUBSTEPS substeps), TENDON_ERR_ISA. On
 * error nothing is written and the anchor is not called.
 * Determinism: bitwise identical on every ISA; equal to the seed's sampleSpring within 2 float32
 * ulp (docs/springs.md).
 */
TENDON_API tendon_status tendon_spring_sample(const tendon_spring_settings *settings,
                                              tendon_spring_anchor_fn anchor, void *user,
                                              double time_sec, float out[3]);

/**
 * tendon_spring_sample, returning the double result before the float32 store (the seed cases'
 * `out64`): rounding each of out64[3] to float gives tendon_spring_sample's out exactly.
 * Errors: as tendon_spring_sample.
 */
TENDON_API tendon_status tendon_spring_sample_f64(const tendon_spring_settings *settings,
                                                  tendon_spring_anchor_fn anchor, void *user,
                                                  double time_sec, double out64[3]);

/**
 * The workspace tendon_spring_sample_batch needs for `spring_count` springs, in bytes (any
 * alignment is fine: the size includes the slack to align internally).
 * Errors: TENDON_ERR_NULL (out_bytes), TENDON_ERR_OVERFLOW (the size does not fit size_t).
 */
TENDON_API tendon_status tendon_spring_batch_workspace_size(size_t spring_count,
                                                            size_t *out_bytes);

/**
 * `spring_count` springs sharing one settings value, each pulled by its own anchor, sampled at
 * `time_sec` — the SIMD-across-springs path (one pose sample feeds every strand).
 *
 * `anchor` writes all 3·spring_count anchor floats for one time per call (spring i at
 * out[3i .. 3i+2]) and is called substeps + 2 times in all, exactly as for one spring. Each
 * spring's result is bitwise equal to tendon_spring_sample with an anchor that writes only that
 * spring's three floats. out: [3·spring_count] floats, x y z per spring.
 * workspace: at least tendon_spring_batch_workspace_size(spring_count) bytes, any alignment,
 * owned by the caller, contents on entry irrelevant (overwritten; two concurrent calls need two
 * workspaces). out must not overlap the workspace.
 * spring_count = 0 returns at once (nothing validated, the anchor not called), as the seed's
 * empty chain does.
 *
 * Errors: as tendon_spring_sample (settings, anchor, out, workspace NULL), then
 * TENDON_ERR_OVERFLOW (spring_count too large), TENDON_ERR_COUNT (workspace_bytes too small),
 * TENDON_ERR_ALIAS (out overlaps the workspace).
 */
TENDON_API tendon_status tendon_spring_sample_batch(const tendon_spring_settings *settings,
                                                    tendon_spring_anchor_fn anchor, void *user,
                                                    double time_sec, size_t spring_count,
                                                    void *workspace, size_t workspace_bytes,
                                                    float *out);

/**
 * The workspace tendon_spring_chain_sample (chain_count = 1) and
 * tendon_spring_chain_sample_batch need, in bytes (any alignment is fine).
 * Errors: TENDON_ERR_NULL (out_bytes), TENDON_ERR_OVERFLOW.
 */
TENDON_API tendon_status tendon_spring_chain_workspace_size(size_t link_count, size_t chain_count,
                                                            size_t *out_bytes);

/**
 * Where every link of a chain sits at `time_sec` (seed sampleSpringChain): out[3·i .. 3·i+2] is
 * link i, x y z.
 *
 * Starts hanging at rest (each link on its rest offset below the one above, the root's anchor at
 * time_sec − tendon_spring_chain_settle_sec), marches every link on one grid of
 * max(1, ceil(lookback·f_fastest·32)) substeps (link i's anchor is link i−1's sprung position
 * plus link i's rest offset), then clamps down the chain: link i is held within its max_offset_m
 * of (link i−1's float32 output + its rest offset), the root's anchor at time_sec for link 0.
 * `root` is called substeps + 2 times (see tendon_spring_anchor_fn).
 * A one-link chain is not bit-identical to tendon_spring_sample: the seed associates the chain's
 * σ as ((ζ·2)·π)·f, so the lookback differs in its last bits (as the seed's does).
 *
 * **Long chains** (docs/springs.md, "Long chains"). Chains of a few to a few dozen links are
 * what this is for. Two things grow with the link count n, both as the seed does:
 *   - **Amplitude, for links with ζ < 1/√2.** Each link passes a root motion at frequency
 *     r·f with gain 1/√((1 − r²)² + (2ζr)²), above 1 near r = √(1 − 2ζ²) (1.155 per link at
 *     ζ = 0.5), so the model itself amplifies as gain^n; and the start-at-rest transient is
 *     amplified the same way while the cascade bound assumes it decays, so it outruns the
 *     lookback. Measured, 3 Hz links at ζ = 0.5 under a unit sine root (|gain| = 1 at 3 Hz, so
 *     the true answer stays within 1 m): within 0.02 m of it up to 30 links, 1.0 m off at 50,
 *     245 m at 100, 8.6e14 m at 300, ±∞/NaN from about 650–700 links — all TENDON_OK. From
 *     ζ ≥ 1/√2 no link amplifies (300 links stay within 0.02 m).
 *   - **Cost, as n².** Substeps ∝ lookback ∝ (n + 3√n)/σ and each substep advances n links:
 *     2 Hz / 0.35 links, one sample: 4 links 191 substeps (~5 µs), 16 links 455, 64 links
 *     1,333 (~0.2 ms), 1000 links 16,015 substeps (0.05–0.09 s), 2000 links 0.15–0.35 s, 4000
 *     links 0.8–1.6 s. TENDON_SPRING_MAX_SUBSTEPS bounds the substeps; TENDON_SPRING_MAX_WORK
 *     bounds substeps × links (so 2000 and 4000 links are refused here, in microseconds;
 *     tendon_spring_chain_sample_budget marches them).
 *
 * links: [link_count]. out: out_count floats, at least 3·link_count (only those are written).
 * workspace: tendon_spring_chain_workspace_size(link_count, 1) bytes, or NULL when link_count ≤
 * TENDON_SPRING_CHAIN_STACK_LINKS (then 7 KiB of stack are used). Must not overlap out.
 *
 * Errors, in the seed's order: link_count = 0 returns TENDON_OK at once (nothing written, root
 * not called); TENDON_ERR_NULL (links, root, out); TENDON_ERR_COUNT (out_count < 3·link_count —
 * the seed's message); TENDON_ERR_VALUE (each link in order, as tendon_spring_chain_settle_sec;
 * more than TENDON_SPRING_MAX_SUBSTEPS substeps; more than TENDON_SPRING_MAX_WORK link-substeps
 * — checked first as link_count alone, before the lookback is computed, then with the planned
 * substeps; the root is not called); TENDON_ERR_NULL / TENDON_ERR_COUNT (workspace missing or
 * too small); TENDON_ERR_ALIAS (out overlaps the workspace); TENDON_ERR_ISA.
 * Determinism: bitwise identical on every ISA; equal to the seed within 2 float32 ulp.
 */
TENDON_API tendon_status tendon_spring_chain_sample(const tendon_spring_link *links,
                                                    size_t link_count,
                                                    tendon_spring_anchor_fn root, void *user,
                                                    double time_sec, void *workspace,
                                                    size_t workspace_bytes, float *out,
                                                    size_t out_count);

/**
 * `chain_count` chains with the same links, each hanging from its own root, sampled at
 * `time_sec` — the SIMD-across-chains path. `root` writes 3·chain_count floats per call (chain c's
 * root at out[3c .. 3c+2]). out: [3·link_count·chain_count] floats, chain-major (chain c, link
 * i at out[3·(c·link_count + i)]); out_count must be at least that. Each chain's result is
 * bitwise equal to tendon_spring_chain_sample with that chain's root alone.
 * workspace: tendon_spring_chain_workspace_size(link_count, chain_count) bytes (required).
 * chain_count = 0 or link_count = 0 returns at once.
 * Errors: as tendon_spring_chain_sample, plus TENDON_ERR_NULL for a NULL workspace and
 * TENDON_ERR_OVERFLOW for counts whose sizes overflow. The work budget counts every chain:
 * max(1, substeps) × link_count × chain_count ≤ TENDON_SPRING_MAX_WORK.
 */
TENDON_API tendon_status tendon_spring_chain_sample_batch(const tendon_spring_link *links,
                                                          size_t link_count,
                                                          tendon_spring_anchor_fn root, void *user,
                                                          double time_sec, size_t chain_count,
                                                          void *workspace, size_t workspace_bytes,
                                                          float *out, size_t out_count);

/**
 * tendon_spring_chain_sample with the caller's own work budget: at most `max_work`
 * link-substeps (max(1, substeps) × link_count) instead of TENDON_SPRING_MAX_WORK — larger to
 * march a long chain on purpose (UINT64_MAX: no limit but the substeps'), smaller to hold a
 * frame to less. Everything else — validation, errors, plan, bits — is tendon_spring_chain_sample's:
 * within both budgets the two give the same bits. Refused beyond it with TENDON_ERR_VALUE (the
 * message gives the cost and max_work) before the root is called. No global setting: the
 * budget is this call's.
 */
TENDON_API tendon_status tendon_spring_chain_sample_budget(const tendon_spring_link *links,
                                                           size_t link_count,
                                                           tendon_spring_anchor_fn root,
                                                           void *user, double time_sec,
                                                           uint64_t max_work, void *workspace,
                                                           size_t workspace_bytes, float *out,
                                                           size_t out_count);

/**
 * tendon_spring_chain_sample_batch with the caller's own work budget (`max_work` link-substeps:
 * max(1, substeps) × link_count × chain_count), as tendon_spring_chain_sample_budget.
 */
TENDON_API tendon_status tendon_spring_chain_sample_batch_budget(
    const tendon_spring_link *links, size_t link_count, tendon_spring_anchor_fn root, void *user,
    double time_sec, uint64_t max_work, size_t chain_count, void *workspace,
    size_t workspace_bytes, float *out, size_t out_count);

/*
 * ---- The lookback setting and anchors that can fail ----------------------------------------
 * Each `_status` call is its namesake above — the same validation in the same order, the same
 * plan, the same bits under TENDON_SPRING_LOOKBACK_SEED — with a status-returning anchor
 * (tendon_spring_anchor_status_fn: a failing call stops the sample, its status is returned,
 * nothing is written), a `lookback` setting (an unknown value is refused with TENDON_ERR_VALUE,
 * after the NULL, alignment and output-size checks and before the settings are validated) and, for chains, the call's own work budget `max_work`
 * (TENDON_SPRING_MAX_WORK for the default's; as tendon_spring_chain_sample_budget).
 */

/**
 * tendon_spring_settle_sec under a lookback setting. TENDON_SPRING_LOOKBACK_SEED and
 * TENDON_SPRING_LOOKBACK_CORRECTED_ROOT (which differ only in a chain's root) refuse nothing (the
 * seed's arithmetic, as tendon_spring_settle_sec); TENDON_SPRING_LOOKBACK_SLOW_POLE
 * validates the settings as the samplers do (TENDON_ERR_VALUE: frequency not > 0, damping
 * negative, NaN or 0). Errors: TENDON_ERR_NULL, TENDON_ERR_VALUE.
 */
TENDON_API tendon_status tendon_spring_settle_sec_lookback(const tendon_spring_settings *settings,
                                                           tendon_spring_lookback lookback,
                                                           double *out_sec);

/** tendon_spring_chain_settle_sec under a lookback setting (the same errors, and the setting's). */
TENDON_API tendon_status tendon_spring_chain_settle_sec_lookback(const tendon_spring_link *links,
                                                                 size_t link_count,
                                                                 tendon_spring_lookback lookback,
                                                                 double *out_sec);

/** tendon_spring_sample with a status anchor and a lookback setting. */
TENDON_API tendon_status tendon_spring_sample_status(const tendon_spring_settings *settings,
                                                     tendon_spring_lookback lookback,
                                                     tendon_spring_anchor_status_fn anchor,
                                                     void *user, double time_sec, float out[3]);

/** tendon_spring_sample_batch with a status anchor and a lookback setting. */
TENDON_API tendon_status tendon_spring_sample_batch_status(
    const tendon_spring_settings *settings, tendon_spring_lookback lookback,
    tendon_spring_anchor_status_fn anchor, void *user, double time_sec, size_t spring_count,
    void *workspace, size_t workspace_bytes, float *out);

/**
 * tendon_spring_chain_sample_budget with a status root and a lookback setting (workspace may be
 * NULL for chains of at most TENDON_SPRING_CHAIN_STACK_LINKS links, as there).
 */
TENDON_API tendon_status tendon_spring_chain_sample_status(
    const tendon_spring_link *links, size_t link_count, tendon_spring_lookback lookback,
    tendon_spring_anchor_status_fn root, void *user, double time_sec, uint64_t max_work,
    void *workspace, size_t workspace_bytes, float *out, size_t out_count);

/** tendon_spring_chain_sample_batch_budget with a status root and a lookback setting. */
TENDON_API tendon_status tendon_spring_chain_sample_batch_status(
    const tendon_spring_link *links, size_t link_count, tendon_spring_lookback lookback,
    tendon_spring_anchor_status_fn root, void *user, double time_sec, uint64_t max_work,
    size_t chain_count, void *workspace, size_t workspace_bytes, float *out, size_t out_count);

struct tendon_kernels;

/**
 * With an explicit kernel table (tests, tools, benchmarks).
 * Each is its namesake above — the same validation, errors, plan and clamp, bit for bit — with
 * the march run through `k` (from tendon_kernels_for(), emulated variants included) instead of
 * the active table; k = NULL means the active table. `tendon replay --isa`, `tendon digest` and
 * the benchmarks use them to run every ISA in one process without flipping the global choice.
 * @{
 */

TENDON_API tendon_status tendon_spring_sample_on(const struct tendon_kernels *k,
                                                 const tendon_spring_settings *settings,
                                                 tendon_spring_anchor_fn anchor, void *user,
                                                 double time_sec, float out[3]);
TENDON_API tendon_status tendon_spring_sample_f64_on(const struct tendon_kernels *k,
                                                     const tendon_spring_settings *settings,
                                                     tendon_spring_anchor_fn anchor, void *user,
                                                     double time_sec, double out64[3]);
TENDON_API tendon_status tendon_spring_sample_batch_on(
    const struct tendon_kernels *k, const tendon_spring_settings *settings,
    tendon_spring_anchor_fn anchor, void *user, double time_sec, size_t spring_count,
    void *workspace, size_t workspace_bytes, float *out);
TENDON_API tendon_status tendon_spring_chain_sample_on(
    const struct tendon_kernels *k, const tendon_spring_link *links, size_t link_count,
    tendon_spring_anchor_fn root, void *user, double time_sec, void *workspace,
    size_t workspace_bytes, float *out, size_t out_count);
TENDON_API tendon_status tendon_spring_chain_sample_batch_on(
    const struct tendon_kernels *k, const tendon_spring_link *links, size_t link_count,
    tendon_spring_anchor_fn root, void *user, double time_sec, size_t chain_count,
    void *workspace, size_t workspace_bytes, float *out, size_t out_count);

TENDON_API tendon_status tendon_spring_sample_status_on(
    const struct tendon_kernels *k, const tendon_spring_settings *settings,
    tendon_spring_lookback lookback, tendon_spring_anchor_status_fn anchor, void *user,
    double time_sec, float out[3]);
TENDON_API tendon_status tendon_spring_sample_batch_status_on(
    const struct tendon_kernels *k, const tendon_spring_settings *settings,
    tendon_spring_lookback lookback, tendon_spring_anchor_status_fn anchor, void *user,
    double time_sec, size_t spring_count, void *workspace, size_t workspace_bytes, float *out);
TENDON_API tendon_status tendon_spring_chain_sample_status_on(
    const struct tendon_kernels *k, const tendon_spring_link *links, size_t link_count,
    tendon_spring_lookback lookback, tendon_spring_anchor_status_fn root, void *user,
    double time_sec, uint64_t max_work, void *workspace, size_t workspace_bytes, float *out,
    size_t out_count);
TENDON_API tendon_status tendon_spring_chain_sample_batch_status_on(
    const struct tendon_kernels *k, const tendon_spring_link *links, size_t link_count,
    tendon_spring_lookback lookback, tendon_spring_anchor_status_fn root, void *user,
    double time_sec, uint64_t max_work, size_t chain_count, void *workspace,
    size_t workspace_bytes, float *out, size_t out_count);
/** @} */

/*
 * ---- Low level: the march the kernel table runs (tendon/kernels.h) --------------------------
 * Filled by the entry points above; exposed only so the raw kernel table can name its argument.
 * Lanes are independent scalar tracks (one per axis per spring / chain); every lane of one plan
 * shares the same per-link coefficients.
 */

/** One link's substep transition (seed transitionOver + trailPerUnitSpeed), for a fixed step. */
typedef struct tendon_spring_coeffs {
    /**@{*/
    double c0, c1, c2, c3; /**< (offset, velocity) ← [c0 c1; c2 c3]·(offset, velocity) */
    /**@}*/
    double trail;          /**< −2ζ/ω: the offset of a mass trailing an anchor at unit speed */
} tendon_spring_coeffs;

/** Everything one march needs. Buffers hold lane_stride lanes; lanes past `lanes` are padding. */
typedef struct tendon_spring_march_plan {
    double start_sec;  /**< time of the initial anchor sample */
    double step_sec;   /**< substep length: substep n samples the anchor at start + n·step */
    size_t steps;      /**< substeps to march (0 allowed) */
    size_t lanes;      /**< real lanes: 3 per spring or per chain */
    size_t lane_stride; /**< lanes rounded up to a multiple of 8: every buffer's row length */
    size_t link_count;  /**< 1 for springs */
    const tendon_spring_coeffs *links; /**< [link_count] */
    /** chains: [24·link_count], row i = link i's rest offset repeated (x y z x y z …); else NULL */
    const double *rest_lanes;
    tendon_spring_anchor_fn anchor; /**< the anchor, sampled once per substep into anchor_b */
    void *user;                     /**< handed to `anchor` */
    double *position;  /**< [link_count·lane_stride], row i = link i */
    double *velocity;  /**< [link_count·lane_stride] */
    float *anchor_a;   /**< [lane_stride]: the anchor at start_sec on entry; padding lanes 0 */
    float *anchor_b;   /**< [lane_stride]: scratch for the next sample; padding lanes 0 */
    /** chains: [link_count·lane_stride] scratch (a link's position one substep back); else NULL */
    double *previous;
} tendon_spring_march_plan;

#ifdef __cplusplus
}
#endif
#endif
