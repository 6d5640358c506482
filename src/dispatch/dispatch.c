/*
 * The kernel tables, ISA selection, TENDON_ISA and tendon_isa_force.
 *
 * The choice is made once, on first use, and kept in one atomic pointer: choosing is idempotent
 * (the same environment and CPU give the same answer), so two threads racing to make it agree,
 * and a forced choice simply replaces it. Tests and benchmarks do not touch it: they ask
 * tendon_kernels_for(isa) for a table and call it directly.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/kernels_internal.h"
#include "cpu.h"

#define TABLE(sfx, id) TABLE_SPLAT(sfx, id, SPLAT_PAYS_##sfx, SIZE_MAX, tendon_local_matrices_##sfx)
#define TABLE_SPLAT(sfx, id, splat_pays, splat_max, local)                                        \
    {                                                                                              \
        .isa = id, .quat_slerp = tendon_quat_slerp_##sfx, .quat_nlerp = tendon_quat_nlerp_##sfx,  \
        .quat_multiply = tendon_quat_multiply_##sfx, .pose_blend = tendon_pose_blend_##sfx,        \
        .pose_add = tendon_pose_add_##sfx,                                                         \
        .local_matrices = local,                                                                   \
        .model_matrices = tendon_model_matrices_##sfx,                                             \
        .model_matrices_ordered = tendon_model_matrices_ordered_##sfx,                             \
        .palette = tendon_palette_##sfx,                                                           \
        .skin = tendon_skin_##sfx, .morph = tendon_morph_##sfx,                                    \
        .spring_march = tendon_spring_march_##sfx,                                                 \
        .spring_chain_march = tendon_spring_chain_march_##sfx,                                     \
        .clip_lerp = tendon_clip_lerp_##sfx, .clip_hermite = tendon_clip_hermite_##sfx,            \
        .model_pass_level_order = LEVEL_ORDER_##sfx,                                               \
        .quat_slerp_f32 = tendon_quat_slerp_f32_##sfx,                                             \
        .quat_nlerp_f32 = tendon_quat_nlerp_f32_##sfx,                                             \
        .quat_multiply_f32 = tendon_quat_multiply_f32_##sfx,                                       \
        .pose_blend_f32 = tendon_pose_blend_f32_##sfx,                                             \
        .pose_blend_nlerp_f32 = tendon_pose_blend_nlerp_f32_##sfx,                                 \
        .pose_add_f32 = tendon_pose_add_f32_##sfx,                                                 \
        .pose_blend_layers_f32 = tendon_pose_blend_layers_f32_##sfx,                               \
        .clip_lerp_f32 = tendon_clip_lerp_f32_##sfx,                                               \
        .clip_lerp_uniform_f32 = tendon_clip_lerp_uniform_f32_##sfx,                               \
        .clip_slerp_uniform_f32 = tendon_clip_slerp_uniform_f32_##sfx,                             \
        .clip_hermite_f32 = tendon_clip_hermite_f32_##sfx,                                         \
        .skin_mesh = tendon_skin_mesh_##sfx,                                                       \
        .palette_splat = tendon_palette_splat_##sfx,                                               \
        .palette_to_dual_quat = tendon_palette_to_dual_quat_##sfx,                                 \
        .skin_mesh_dq = tendon_skin_mesh_dq_##sfx,                                                 \
        .palette_splat_pays = splat_pays,                                                          \
        .pose_blend_weighted = tendon_pose_blend_weighted_##sfx,                                   \
        .pose_add_weighted = tendon_pose_add_weighted_##sfx,                                       \
        .pose_blend_weighted_f32 = tendon_pose_blend_weighted_f32_##sfx,                           \
        .pose_add_weighted_f32 = tendon_pose_add_weighted_f32_##sfx,                               \
        .palette_splat_max = splat_max,                                                            \
        .local_model_lanes = tendon_local_model_lanes_##sfx,                                       \
        .transform_points_lanes = tendon_transform_points_lanes_##sfx,                             \
        .quat_add_weighted = tendon_quat_add_weighted_##sfx,                                       \
        .quat_add_weighted_f32 = tendon_quat_add_weighted_f32_##sfx,                               \
    }

/*
 * Whether a whole-skeleton model pass walks the level order (docs/skinning.md, "Level order").
 * Where a matrix's columns must be repeated across lanes (AVX2, AVX-512) a parent-chain link is
 * long, and overlapping independent joints wins; the scalar reference gains too. On the 128-bit
 * ISAs a matrix's columns are its own four registers, a link is short, and joint order's
 * register hand-off from parent to child wins (measured on SSE2 and SSE4.1; NEON, which cannot
 * be timed here, is taken to be like them).
 */
#define LEVEL_ORDER_scalar 1
#define LEVEL_ORDER_sse2 0
#define LEVEL_ORDER_sse41 0
#define LEVEL_ORDER_avx2 1
#define LEVEL_ORDER_avx512 1
#define LEVEL_ORDER_neon 0
#define LEVEL_ORDER_simd128 0

/*
 * Whether the palette multiplies by the binding's splat table (docs/skinning.md): on the 128-bit
 * ISAs a splat is a shuffle per element and the table removes sixteen a matrix; on AVX2 and
 * AVX-512 the splat is one in-lane shuffle per vector and the 256-byte entries cost more in
 * loads than they save (measured). Scalar reads either alike; it keeps the matrices.
 */
/*
 * That was measured on AMD cores (Zen 5: AVX2 1.44 → 1.71, AVX-512 1.02 → 1.25 ns/joint at 64
 * joints). On an Intel core (Xeon, lscpu family 6 model 207), whose in-lane shuffles are the
 * product's bottleneck, the splat table wins at every width while it stays in the first-level
 * cache — AVX2 3.1 → 2.2, AVX-512 2.1 → 1.4 ns/entry up to 128 entries — and loses beyond it
 * (3.2 → 3.9 and 2.2 → 3.3 from 192 on): so on an Intel CPU the AVX2 and AVX-512 tables that
 * tendon_kernels_for and the dispatch hand out are the *_INTEL ones below, which differ from the
 * others in those two fields (splat up to 128 entries) and, for AVX2, in local_matrices: the
 * form that stores each matrix's 128-bit pieces on its own instead of finishing the transpose
 * across lanes (local_matrices_pieces, 0.82-0.87 of the time up to 256 joints on that Xeon), and
 * since 2026-12-07 for AVX-512 too: first measured there at 0.95-1.15, a second Xeon of that
 * model gave tendon_pose_palette at 64 joints 5.68-5.69 → 5.58 ns a joint with a 64-byte-aligned
 * `model` and 5.96 → 5.64 with one 16 bytes past a line (a caller's malloc or std::vector), 200
 * joints 6.45 → 6.36 (docs/skinning.md, "Buffers not aligned to the vector"). The bits are the
 * same either way.
 */
#define SPLAT_MAX_INTEL 128
#define SPLAT_PAYS_scalar 0
#define SPLAT_PAYS_sse2 1
#define SPLAT_PAYS_sse41 1
#define SPLAT_PAYS_avx2 0
#define SPLAT_PAYS_avx512 0
#define SPLAT_PAYS_neon 1
#define SPLAT_PAYS_simd128 1

static const tendon_kernels TABLE_SCALAR = TABLE(scalar, TENDON_ISA_SCALAR);
#ifdef TENDON_HAVE_SSE2
static const tendon_kernels TABLE_SSE2 = TABLE(sse2, TENDON_ISA_SSE2);
#endif
#ifdef TENDON_HAVE_SSE41
static const tendon_kernels TABLE_SSE41 = TABLE(sse41, TENDON_ISA_SSE41);
#endif
#ifdef TENDON_HAVE_AVX2
static const tendon_kernels TABLE_AVX2 = TABLE(avx2, TENDON_ISA_AVX2);
static const tendon_kernels TABLE_AVX2_INTEL =
    TABLE_SPLAT(avx2, TENDON_ISA_AVX2, 1, SPLAT_MAX_INTEL, tendon_local_matrices_pieces_avx2);
#endif
#ifdef TENDON_HAVE_AVX512
static const tendon_kernels TABLE_AVX512 = TABLE(avx512, TENDON_ISA_AVX512);
static const tendon_kernels TABLE_AVX512_INTEL =
    TABLE_SPLAT(avx512, TENDON_ISA_AVX512, 1, SPLAT_MAX_INTEL, tendon_local_matrices_pieces_avx512);
#endif

/* An Intel CPU (cpuid's vendor): the tables tuned for it. Asked once; cpuid is slow under a
   hypervisor (it traps), and the answer cannot change. */
static int on_intel(void)
{
    static _Atomic int known = -1;
    int v = atomic_load_explicit(&known, memory_order_relaxed);
    if (v < 0) {
        v = (tendon_cpu_features() & TENDON_CPU_INTEL) != 0;
        atomic_store_explicit(&known, v, memory_order_relaxed);
    }
    return v;
}
#ifdef TENDON_HAVE_NEON
static const tendon_kernels TABLE_NEON = TABLE(neon, TENDON_ISA_NEON);
#endif
#ifdef TENDON_HAVE_SIMD128
static const tendon_kernels TABLE_SIMD128 = TABLE(simd128, TENDON_ISA_SIMD128);
#endif

static const tendon_kernels *compiled_table_for(tendon_isa isa, int intel)
{
    (void)intel; /* unused where neither AVX2 nor AVX-512 is compiled */
    switch (isa) {
    case TENDON_ISA_SCALAR: return &TABLE_SCALAR;
#ifdef TENDON_HAVE_SSE2
    case TENDON_ISA_SSE2: return &TABLE_SSE2;
#endif
#ifdef TENDON_HAVE_SSE41
    case TENDON_ISA_SSE41: return &TABLE_SSE41;
#endif
#ifdef TENDON_HAVE_AVX2
    case TENDON_ISA_AVX2: return intel ? &TABLE_AVX2_INTEL : &TABLE_AVX2;
#endif
#ifdef TENDON_HAVE_AVX512
    case TENDON_ISA_AVX512: return intel ? &TABLE_AVX512_INTEL : &TABLE_AVX512;
#endif
#ifdef TENDON_HAVE_NEON
    case TENDON_ISA_NEON: return &TABLE_NEON;
#endif
#ifdef TENDON_HAVE_SIMD128
    case TENDON_ISA_SIMD128: return &TABLE_SIMD128;
#endif
    default: return NULL;
    }
}

static const tendon_kernels *compiled_table(tendon_isa isa)
{
    return compiled_table_for(isa, on_intel());
}

static const char *const NAMES[TENDON_ISA_COUNT] = {"scalar", "sse2",   "sse41",  "avx2",
                                                    "avx512", "neon",   "simd128"};

const char *tendon_isa_name(tendon_isa isa)
{
    return (unsigned)isa < TENDON_ISA_COUNT ? NAMES[isa] : NULL;
}

tendon_status tendon_isa_from_name(const char *name, tendon_isa *out)
{
    if (!name)
        return tendon_fail(TENDON_ERR_NULL, "tendon_isa_from_name: name is NULL");
    if (!out)
        return tendon_fail(TENDON_ERR_NULL, "tendon_isa_from_name: out is NULL");
    for (int i = 0; i < TENDON_ISA_COUNT; ++i) {
        if (strcmp(name, NAMES[i]) == 0) {
            *out = (tendon_isa)i;
            return TENDON_OK;
        }
    }
    return tendon_fail(TENDON_ERR_ISA,
                       "ISA name \"%.64s\" is unknown: expected one of scalar, sse2, sse41, avx2, "
                       "avx512, neon, simd128",
                       name);
}

/* Whether isa is this architecture's own instruction set (as opposed to SIMDe-emulated). */
static int native_to_this_arch(tendon_isa isa)
{
#if defined(__x86_64__) || defined(_M_X64)
    return isa == TENDON_ISA_SSE2 || isa == TENDON_ISA_SSE41 || isa == TENDON_ISA_AVX2 ||
           isa == TENDON_ISA_AVX512;
#elif defined(__aarch64__)
    return isa == TENDON_ISA_NEON;
#elif defined(__wasm__)
    return isa == TENDON_ISA_SIMD128;
#else
    (void)isa;
    return 0;
#endif
}

tendon_isa_build tendon_isa_compiled(tendon_isa isa)
{
    if (!compiled_table(isa))
        return TENDON_ISA_ABSENT;
    if (isa == TENDON_ISA_SCALAR || native_to_this_arch(isa))
        return TENDON_ISA_NATIVE;
    return TENDON_ISA_EMULATED;
}

static unsigned cpu_bit(tendon_isa isa)
{
    switch (isa) {
    case TENDON_ISA_SSE2: return TENDON_CPU_SSE2;
    case TENDON_ISA_SSE41: return TENDON_CPU_SSE41;
    case TENDON_ISA_AVX2: return TENDON_CPU_AVX2;
    case TENDON_ISA_AVX512: return TENDON_CPU_AVX512;
    case TENDON_ISA_NEON: return TENDON_CPU_NEON;
    case TENDON_ISA_SIMD128: return TENDON_CPU_SIMD128;
    default: return 0;
    }
}

int tendon_isa_supported(tendon_isa isa)
{
    if (isa == TENDON_ISA_SCALAR)
        return 1;
    if (tendon_isa_compiled(isa) != TENDON_ISA_NATIVE)
        return 0;
    return (tendon_cpu_features() & cpu_bit(isa)) != 0;
}

const tendon_kernels *tendon_kernels_for(tendon_isa isa)
{
    return tendon_kernels_for_vendor(isa, on_intel());
}

tendon_local_matrices_fn tendon_local_matrices_form(tendon_isa isa, int pieces)
{
    (void)pieces; /* a scalar-only build (the WebAssembly scalar module) has one form */
    if (!tendon_kernels_for(isa))
        return NULL;
    switch (isa) {
#define FORM(sfx, id)                                                                              \
    case id: return pieces ? tendon_local_matrices_pieces_##sfx : tendon_local_matrices_##sfx;
#ifdef TENDON_HAVE_SSE2
        FORM(sse2, TENDON_ISA_SSE2)
#endif
#ifdef TENDON_HAVE_SSE41
        FORM(sse41, TENDON_ISA_SSE41)
#endif
#ifdef TENDON_HAVE_AVX2
        FORM(avx2, TENDON_ISA_AVX2)
#endif
#ifdef TENDON_HAVE_AVX512
        FORM(avx512, TENDON_ISA_AVX512)
#endif
#ifdef TENDON_HAVE_NEON
        FORM(neon, TENDON_ISA_NEON)
#endif
#ifdef TENDON_HAVE_SIMD128
        FORM(simd128, TENDON_ISA_SIMD128)
#endif
#undef FORM
    default: return tendon_local_matrices_scalar;
    }
}

const tendon_kernels *tendon_kernels_for_vendor(tendon_isa isa, int intel)
{
    switch (tendon_isa_compiled(isa)) {
    case TENDON_ISA_EMULATED: return compiled_table_for(isa, intel);
    case TENDON_ISA_NATIVE:
        return tendon_isa_supported(isa) ? compiled_table_for(isa, intel) : NULL;
    default: return NULL;
    }
}

const char *tendon_cpu_name(void)
{
    static _Thread_local char brand[64];
    tendon_cpu_brand(brand, sizeof brand);
    return brand;
}

/* The chosen table, or NULL before the first choice (or a force). Read inline by
   tendon_active_kernels (kernels_internal.h) on every call; written only here. */
_Atomic(const tendon_kernels *) tendon_active_table_ = NULL;

static tendon_isa best_supported(void)
{
    for (int i = TENDON_ISA_COUNT - 1; i > 0; --i)
        if (tendon_isa_supported((tendon_isa)i))
            return (tendon_isa)i;
    return TENDON_ISA_SCALAR;
}

static void usable_list(char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < TENDON_ISA_COUNT && used < size; ++i) {
        if (!tendon_isa_supported((tendon_isa)i))
            continue;
        int n = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", NAMES[i]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

static tendon_status refuse_isa(const char *origin, tendon_isa isa)
{
    char usable[96];
    usable_list(usable, sizeof usable);
    const tendon_isa_build build = tendon_isa_compiled(isa);
    const char *why = build == TENDON_ISA_ABSENT     ? "is not compiled into this build"
                      : build == TENDON_ISA_EMULATED ? "is only emulated on this architecture"
                                                     : "is not supported by this CPU";
    return tendon_fail(TENDON_ERR_ISA, "%s: ISA \"%s\" %s; usable here: %s", origin,
                       NAMES[isa], why, usable);
}

/* Resolve the environment's choice, or the best supported ISA. */
static tendon_status choose(const tendon_kernels **out)
{
    const char *env = getenv("TENDON_ISA");
    tendon_isa isa = TENDON_ISA_SCALAR; /* set below on every path (MinGW gcc cannot see it) */
    if (env && *env) {
        if (tendon_isa_from_name(env, &isa) != TENDON_OK) {
            return tendon_fail(TENDON_ERR_ISA,
                               "TENDON_ISA=\"%.64s\" is not an ISA name: expected one of scalar, "
                               "sse2, sse41, avx2, avx512, neon, simd128",
                               env);
        }
        if (!tendon_isa_supported(isa))
            return refuse_isa("TENDON_ISA", isa);
    } else {
        isa = best_supported();
    }
    *out = compiled_table(isa);
    return TENDON_OK;
}

tendon_status tendon_active_kernels_choose(const tendon_kernels **out)
{
    const tendon_kernels *table = atomic_load_explicit(&tendon_active_table_, memory_order_acquire);
    if (table) {
        *out = table;
        return TENDON_OK;
    }
    tendon_status status = choose(&table);
    if (status != TENDON_OK)
        return status; /* not cached: the message is re-raised on every call, on every thread */
    const tendon_kernels *expected = NULL;
    if (!atomic_compare_exchange_strong_explicit(&tendon_active_table_, &expected, table,
                                                 memory_order_acq_rel, memory_order_acquire))
        table = expected; /* another thread chose (or forced) first */
    *out = table;
    return TENDON_OK;
}

tendon_status tendon_isa_active(tendon_isa *out)
{
    if (!out)
        return tendon_fail(TENDON_ERR_NULL, "tendon_isa_active: out is NULL");
    const tendon_kernels *table;
    tendon_status status = tendon_active_kernels(&table);
    if (status == TENDON_OK)
        *out = table->isa;
    return status;
}

tendon_status tendon_isa_force(tendon_isa isa)
{
    if ((unsigned)isa >= TENDON_ISA_COUNT)
        return tendon_fail(TENDON_ERR_ISA, "tendon_isa_force: %d is not a tendon_isa value (0..%d)",
                           (int)isa, TENDON_ISA_COUNT - 1);
    if (!tendon_isa_supported(isa))
        return refuse_isa("tendon_isa_force", isa);
    atomic_store_explicit(&tendon_active_table_, compiled_table(isa), memory_order_release);
    return TENDON_OK;
}
