/*
 * The spring rig (tendon/spring_rig.h; docs/springs.md, "The spring rig"): chains on a
 * skeleton, their anchors evaluated by the library in one batched pass per substep grid, the
 * existing chain march, and positions → rotations into the pose.
 *
 * Creation resolves every chain, computes rest offsets from the rest pose (double), plans each
 * chain's march (tendon_spring_chain_grid: the same plan tendon_spring_chain_sample makes),
 * groups chains with equal plans onto one grid (one evaluation) and chains with equal links
 * into one batch (one chain_sample_batch call), and per grid lists the joints the anchors need
 * (the anchor joints and their ancestors, in joint order: "slots"), the clip tracks that drive
 * them, and each slot's parent. A chunk of times is laid out slot by slot, each slot's times
 * consecutive (a time per vector lane), so one kernel call makes a slot's local and model
 * matrices at every time of the chunk.
 *
 * Per sample nothing is allocated: everything lives in the caller's workspace, whose layout the
 * rig computed at creation.
 */
#include <math.h> /* INFINITY only: no libm call */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/detmath.h"
#include "common/detmath_exp.h"
#include "common/fpenv.h"
#include "common/kernels_internal.h"
#include "common/quat_ref.h"     /* tendon_ref_clamp01: the masked kernels' joint weight */
#include "common/quat_ref_f32.h" /* tendon_weight_to_f32 */
#include "common/spring_internal.h"
#include "common/max0_ref.h"

#define RIG_MAGIC 0x746e64726967ull /* "tndrig" */
/* Joints a chunk of an evaluation holds (times × the grid's joints): its three poses, matrices
   and weights come to ~105 KiB (40 + 64 + 16 bytes a joint: past a 48 KiB first-level cache,
   within the second), so the stages of a chunk run out of the first cache levels; 512 measured
   faster than 256 (docs/springs.md, "The staged float32 slerp, and chunks of 512 joints"). */
#define RIG_CHUNK_JOINTS 512

/* How a chain's anchor is formed at a time (docs/springs.md, "The spring rig"):
   anchor = M(parent of J0) · (L(J0) · (offset, 1)). */
enum {
    PARENT_NONE = 0,    /* J0 is a root: anchor = L(J0)·offset */
    PARENT_DYNAMIC = 1, /* its model matrix changes with time: a slot of the grid */
    PARENT_PINNED = 2,  /* constant, the parent of dynamic slots too: a pinned matrix */
    PARENT_CONSTANT = 3 /* constant: precomputed */
};

typedef struct rig_chain {
    char name[64];
    uint32_t *joints; /* [n + 1] */
    size_t n;         /* links */
    float offset[3];
    tendon_spring_link *links; /* [n] */
    size_t grid, batch, in_batch, in_grid, first_link;
    /* the anchor: J0 animated (its L(J0)·offset per time, from slot j0_slot) or not (q: L(J0)·
       offset at rest, constant); the parent's kind and slot (dynamic) or pinned index */
    int j0_animated;
    uint32_t j0_slot;
    int parent_kind;
    uint32_t parent_index;
    float q[3];      /* J0 not animated: L_rest(J0)·offset */
    float fixed[3];  /* J0 not animated and its parent constant (or none): the anchor itself */
} rig_chain;

typedef struct rig_batch {
    size_t grid;
    size_t first_chain_of; /* a chain of the batch: its links are the batch's */
    size_t chain_count;
    size_t *chains;        /* [chain_count] rig chain indices */
    size_t anchors_at;     /* float offset of the batch's anchors in its grid's anchor block:
                              per chain of the batch, x, y and z planes of the grid's
                              anchor_run floats each (time i at [i]) */
} rig_batch;

typedef struct rig_subset {
    uint32_t *tracks, *slots;
    size_t first[3], count[3];
} rig_subset;

/* One chain's anchor on its grid, laid out for the evaluation's inner loop over times. */
typedef struct rig_anchor_op {
    int parent_kind;
    uint32_t parent_index;
    int32_t qslot; /* J0 animated: its L(J0)·offset's planes in the chunk's q buffer (x y z,
                      the grid's run each, from 3·run·qslot) */
    size_t dst;    /* anchors[dst + k·anchor_run + time]: coordinate k at a time */
    float q[3], fixed[3];
} rig_anchor_op;

/*
 * One substep grid's evaluation. Its joints: the anchor joints' parents and their ancestors,
 * and the anchor joints a track animates. Of these, the **slots** are the dynamic ones (a track
 * of the source drives it or one of its ancestors: its model matrix changes with time); the
 * others are constant (the rest pose's matrices), and those that are parents of slots are
 * **pinned**: one matrix each, before every time's slots in a chunk's matrix buffer.
 */
typedef struct rig_grid {
    tendon_spring_grid plan;
    size_t times; /* substeps + 2 */
    size_t slots; /* dynamic joints evaluated at every time */
    size_t pinned;
    uint32_t *joints;      /* [slots] skeleton joints, increasing */
    float *pinned_model;   /* [16·pinned] */
    uint32_t *restore;     /* [restore_count] slots no track drives: back to rest after layering */
    size_t restore_count;
    size_t chunk;          /* times evaluated together */
    size_t run;            /* a slot's run of times in a chunk's buffers: chunk rounded up to 16
                              (slot s's time i is joint s·run + i; the rest is padding) */
    int32_t *parent_slot;  /* [slots] the parent's slot, or −1 */
    int32_t *parent_pin;   /* [slots] the pinned parent's index, or −1 (−1 both: a root) */
    uint8_t *j0_local;     /* [slots] 1: an animated anchor joint (its L(J0)·offset is needed) */
    /* [run·slots] each, a pose of run·slots joints (t r s): the rest pose, and the additive
       layer's start (the identity, or the reference), repeated once per time of a chunk */
    float *rest, *ident;
    float *mask;            /* [slots] or NULL */
    double *mask01;         /* [slots]: clamp(mask, 0, 1) in double, a −0 made +0 (the masked
                               kernels weigh a zero mask +0, never −0); 1 without a mask */
    rig_subset clips[3];    /* base, blend, layer */
    /* Idle layer slots (an additive layer whose mask is 0 there and whose clip drives none of
       the slot's tracks): the layer weight is +0 at every time and the delta D a constant, so
       add(P, D, +0) is P's translation + D.t·0, scale · (1 + (D.s − 1)·0) and rotation ⊗ Q0,
       Q0 = the rounded slerp(identity, D.r, 0) — a product instead of a slerp (the add
       kernels' scalar formulas, their constant parts computed here). idle[s]: 1 + the idle
       slot's index into idle_q and idle_c, or 0 for a slot the layer kernel runs on. */
    uint32_t *idle;
    size_t idle_count;
    float *idle_q;  /* [4·run] per idle slot: Q0 at every lane of a run */
    float *idle_c;  /* [TENDON_ADD_ZERO_FLOATS] per idle slot: the translation addend D.t·0
                       and the scale factor 1 + (D.s − 1)·0, repeated over 16 joints */
    size_t chain_count;     /* chains on this grid */
    rig_anchor_op *ops;     /* [chain_count] */
    /* [slots] per clip (blend, layer; NULL without it, and for the base): the channels its
       tracks drive at each slot (1 translation, 2 rotation, 4 scale). The blend and layer poses hold only
       those; the kernels read the others in place from `rest` or `ident`, never copied */
    uint8_t *channels[3];
    /* [slots] 1 where the blend leaves the translation and scale at rest, bit for bit, at
       every weight that is not NaN (docs/springs.md, "Translations and scales left at
       rest"): a clip source whose blend clip and base clip (if any) drive neither channel at
       the slot's joint, whose rest translation and scale are finite and hold no −0, and, at
       an idle layer slot, whose constants keep them (tendon_add_zero_weight_keeps) */
    uint8_t *rest_ts;
    /* workspace byte offsets (the chunk buffers are the rig's, shared by the grids) */
    size_t ws_times, ws_ctimes, ws_anchors, ws_hints[3];
    size_t anchor_run; /* an anchor plane: the times rounded up to 16, and 16 more (a chunk's
                          vector stores reach at most that far) */
} rig_grid;

struct tendon_spring_rig {
    const tendon_skeleton *skeleton;
    size_t joint_count;
    const int32_t *parents;
    rig_chain *chains;
    size_t chain_count, link_count;
    size_t *pose_order; /* [chain_count] the chains by anchor joint, increasing: the pose step's */
    rig_batch *batches;
    size_t batch_count;
    rig_grid *grids;
    size_t grid_count;
    tendon_spring_rig_source source;
    const tendon_clip *clip[3];
    float *mask; /* [joint_count] copy, or NULL */
    tendon_pose reference; /* copy, or joint_count 0 */
    int has_reference;
    tendon_tier tier;
    tendon_spring_lookback lookback;
    uint64_t max_work;
    tendon_rig_root_fn root;
    void *root_user;
    /* joints a track of the source drives, nonzero (a tree source: every joint); per clip
       (base, blend, layer; NULL without it) the channels its tracks drive at each joint (1
       translation, 2 rotation, 4 scale); the rest pose's local and model matrices (the scalar
       table's: every table's bits) */
    uint8_t *animated, *clip_channels[3];
    float *rest_local, *rest_model;
    /* workspace layout: per grid its times, clip times, anchors and hints; the chunk buffers
       (three poses, the matrices, the weights) sized for the largest chunk of any grid */
    size_t ws_pose[3], ws_model, ws_weights, ws_q, chunk_joints, chunk_matrices, chunk_q;
    size_t ws_local; /* [16·run] the local matrices of an animated anchor joint, as planes */
    size_t max_run;
    size_t ws_bytes, ws_tree, ws_root, ws_march, march_bytes, ws_positions, ws_batch_out;
    size_t batch_out_floats;
    uint64_t serial; /* this rig's, in the workspaces it wrote (rig_header) */
    void **blocks;
    size_t block_count, block_capacity;
};

/* The workspace's first 64 bytes. `serial` is the rig's: a rig created where a destroyed one
   was has the same address, and the workspace's evaluation must not pass for its own. */
typedef struct rig_header {
    uint64_t magic;
    const tendon_spring_rig *rig;
    uint64_t serial;
    double time_sec;
    int valid;
} rig_header;

/* Rig serials: one per tendon_spring_rig_create, never reused (2⁶⁴ creations). */
static _Atomic uint64_t rig_serials = 1;

/* Whether the workspace's header is this rig's (its contents were written by it). */
static int header_is(const rig_header *h, const tendon_spring_rig *rig)
{
    return h->magic == RIG_MAGIC && h->rig == rig && h->serial == rig->serial;
}

/* ---- small helpers -------------------------------------------------------------------------- */

static void *rig_alloc(tendon_spring_rig *rig, size_t bytes)
{
    if (rig->block_count == rig->block_capacity) {
        const size_t cap = rig->block_capacity ? 2 * rig->block_capacity : 32;
        void **grown = realloc(rig->blocks, cap * sizeof *grown);
        if (!grown)
            return NULL;
        rig->blocks = grown;
        rig->block_capacity = cap;
    }
    void *p = calloc(1, bytes ? bytes : 1);
    if (p)
        rig->blocks[rig->block_count++] = p;
    return p;
}

static unsigned char *align64(void *p)
{
    const uintptr_t u = (uintptr_t)p;
    return (unsigned char *)p + ((64 - (u & 63)) & 63);
}

static size_t round64(size_t v) { return (v + 63) & ~(size_t)63; }

/* The workspace's layout stays below this many bytes, so its rounding and alignment slack
   cannot wrap either (a 32-bit size_t, wasm32, meets the bound with a few long rigs). */
#define RIG_WS_LIMIT (SIZE_MAX / 2)

/* *at ← *off, then *off += round64(count·size); 0 (nothing changed) past RIG_WS_LIMIT. */
static int ws_part(size_t *off, size_t count, size_t size, size_t *at)
{
    if (size && count > RIG_WS_LIMIT / size)
        return 0;
    const size_t bytes = round64(count * size);
    if (bytes > RIG_WS_LIMIT - *off)
        return 0;
    *at = *off;
    *off += bytes;
    return 1;
}

/* A grid's anchor planes (rig_grid.anchor_run): a chunk writes its times' vectors whole, up to
   16 past its last time (a chunk starts below the times' end). */
static size_t rig_anchor_run(size_t times) { return (times + 15) / 16 * 16 + 16; }

/* Finite and not −0: x + 0·w = x for every w ≥ −0 that is not NaN or infinite, and x − x = +0. */
static int plain_float(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    return x - x == 0.0f && bits != 0x80000000u;
}

/* ⌊x⌋ for finite x, exactly, without libm. */
static double det_floor(double x)
{
    if (!(tendon_det_fabs(x) < 0x1p52))
        return x;
    const double i = (double)(int64_t)x;
    return i > x ? i - 1.0 : i;
}

/* The clip time of rig time t (spring_internal.h). */
double tendon_rig_clip_time(const tendon_rig_clip *c, double d, double t)
{
    const double x = t + c->offset_sec;
    if (!c->loop)
        return x;
    if (!(d > 0.0))
        return 0.0;
    const double w = x - det_floor(x / d) * d;
    return w >= d || w < 0.0 ? 0.0 : w;
}

/*
 * tendon_rig_clip_time at a grid's n times (spring_internal.h), with few divisions. A looped
 * clip's time is x − ⌊x/d⌋·d (x = t + offset). On a grid — t[i] = t[0] + i·step for all but
 * the last time — the x are monotonic (a correctly rounded product, sum and quotient are, and
 * so is a floor), and between two finite ends they are all finite; so k = ⌊x/d⌋ takes one
 * value over each run of times between loop boundaries, found by an exponential then a binary
 * search (O(log r) divisions for a run of r times; one for a time alone, as time by time).
 * Equal k are equal bits (det_floor returns +0, never −0, and an integral double otherwise),
 * so every time gets tendon_rig_clip_time's bits. The loops over the times have no branch: the
 * compiler vectorises them. A grid crossing more loop boundaries than a quarter of its times is
 * taken time by time (the runs would cost more). The last time (the sample time itself, which
 * may round below the one before it) is taken on its own; without a loop, or with ends that are
 * not finite, every time is.
 */
void tendon_rig_clip_times_grid(const tendon_rig_clip *c, double d, const double *t, size_t n,
                                double *out)
{
    const double off = c->offset_sec;
    if (!(c->loop && d > 0.0 && n > 1)) {
        for (size_t i = 0; i < n; ++i)
            out[i] = tendon_rig_clip_time(c, d, t[i]);
        return;
    }
    const size_t last = n - 1;
    out[last] = tendon_rig_clip_time(c, d, t[last]);
    for (size_t i = 0; i < last; ++i)
        out[i] = t[i] + off; /* tendon_rig_clip_time's x */
    /* the runs of equal k = ⌊out[m]/d⌋: from a run's first time i (k known), probe i + 1, then
       steps doubling, until k changes or the grid ends, then halve the bracket; k at the
       bracket's top is the next run's. A run of r times costs O(log r) divisions, one time
       alone one division, as time by time; the last run none (its k is k_end's) */
    double k = det_floor(out[0] / d);
    const double k_end = det_floor(out[last - 1] / d);
    if (!((k_end > k ? k_end - k : k - k_end) < (double)last / 4.0)) {
        /* more loop boundaries than a quarter of the times (a clip shorter than a few substeps;
           or loop counts beyond 2^53): time by time is cheaper than the runs. Ends that are not
           finite give a loop count of ±∞ or NaN, and a NaN span: time by time too, so the runs
           only ever see finite ends, the argument's premise */
        for (size_t i = 0; i < last; ++i)
            out[i] = tendon_rig_clip_time(c, d, t[i]);
        return;
    }
    for (size_t i = 0; i < last;) {
        size_t lo = k == k_end ? last - 1 : i, hi = SIZE_MAX; /* k at lo; not at hi */
        double khi = 0.0;                                      /* k at hi */
        for (size_t step = 1; lo + 1 < last; step *= 2) {
            const size_t probe = last - 1 - lo > step ? lo + step : last - 1;
            const double kp = det_floor(out[probe] / d);
            if (kp != k) {
                hi = probe, khi = kp;
                break;
            }
            lo = probe;
        }
        if (hi != SIZE_MAX)
            while (hi - lo > 1) {
                const size_t mid = lo + (hi - lo) / 2;
                const double km = det_floor(out[mid] / d);
                if (km == k)
                    lo = mid;
                else
                    hi = mid, khi = km;
            }
        const double kd = k * d; /* the run is [i, lo]: out[lo + 1 ..] still hold x */
        for (size_t m = i; m <= lo; ++m) {
            const double w = out[m] - kd;
            out[m] = ((w >= d) | (w < 0.0)) ? 0.0 : w;
        }
        i = lo + 1, k = khi;
    }
}

/*
 * A looped clip's time is x − ⌊x/d⌋·d with x = t + offset_sec: for an infinite x (a finite time
 * and offset whose sum overflows) that is NaN, which the single-time sampler refused as "time_sec
 * is NaN" and the many-times one sampled as key 0. Both refuse it here, by name, for rig times
 * in [t0, t1] (x is monotonic in t: the ends decide).
 */
static tendon_status check_clip_sums(const char *fn, const tendon_spring_rig *rig, double t0,
                                     double t1)
{
    static const char *const name[3] = {"base", "blend", "layer"};
    const tendon_rig_clip *rc[3] = {&rig->source.base, &rig->source.blend, &rig->source.layer};
    if (rig->source.kind == TENDON_RIG_SOURCE_TREE)
        return TENDON_OK;
    for (int q = 0; q < 3; ++q) {
        if (!rig->clip[q] || !rc[q]->loop || !(tendon_clip_duration(rig->clip[q]) > 0.0))
            continue;
        const double ends[2] = {t0, t1};
        for (int e = 0; e < 2; ++e) {
            const double x = ends[e] + rc[q]->offset_sec;
            if (!(x - x == 0.0))
                return tendon_fail(TENDON_ERR_VALUE,
                                   "%s: time %.17g + the %s clip's offset_sec %.17g is %g: a "
                                   "looped clip's time is taken modulo its duration, which needs "
                                   "a finite sum",
                                   fn, ends[e], name[q], rc[q]->offset_sec, x);
        }
    }
    return TENDON_OK;
}

static double clip_time(const tendon_rig_clip *c, double t)
{
    return tendon_rig_clip_time(c, tendon_clip_duration(c->clip), t);
}

/* A weight function is the user's: it runs in the caller's floating-point environment (env). */
static double weight_at(const tendon_rig_weight *w, double t, const tendon_fpenv *env)
{
    if (!w->fn)
        return w->value;
    double out;
    tendon_fpenv_to_caller(env);
    w->fn(w->user, &t, 1, &out);
    tendon_fpenv_from_caller(env);
    return out;
}

/* The weights at count times into out[count]. */
static void weights_at(const tendon_rig_weight *w, const double *t, size_t count, double *out,
                       const tendon_fpenv *env)
{
    if (w->fn) {
        tendon_fpenv_to_caller(env);
        w->fn(w->user, t, count, out);
        tendon_fpenv_from_caller(env);
        return;
    }
    for (size_t i = 0; i < count; ++i)
        out[i] = w->value;
}

/* p' = M·(p, 1), M column-major, float32 in the written order. */
static inline void xform_point(const float *m, const float p[3], float out[3])
{
    /* three scalars, then three stores (out may be p): a copy through a float[3] would load
       8 bytes from three 4-byte stores, which store forwarding cannot serve (measured: the
       anchors' transforms took 4 ns each) */
    const float x = ((m[0] * p[0] + m[4] * p[1]) + m[8] * p[2]) + m[12];
    const float y = ((m[1] * p[0] + m[5] * p[1]) + m[9] * p[2]) + m[13];
    const float z = ((m[2] * p[0] + m[6] * p[1]) + m[10] * p[2]) + m[14];
    out[0] = x, out[1] = y, out[2] = z;
}

/* The status of a root transform that failed, with a message saying so (and the time). */
static tendon_status root_failed(const char *fn, tendon_status st, double time_sec)
{
    char before[300];
    snprintf(before, sizeof before, "%s", tendon_error_message());
    return tendon_fail(st,
                       "%s: the root transform returned %s at time_sec %.17g; the last tendon "
                       "message on this thread: \"%s\"",
                       fn, tendon_status_name(st), time_sec, before);
}

/* ---- double affine frames (positions → rotations, rest offsets) ----------------------------- */

/* An affine frame: m[4·c + r], r < 3 (the 3×4 top of a column-major 4×4). */
typedef struct frame {
    double m[12];
} frame;

static void frame_identity(frame *f)
{
    memset(f, 0, sizeof *f);
    f->m[0] = f->m[4] = f->m[8] = 1.0;
}

static void frame_from_f32(const float *m16, frame *f)
{
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 3; ++r)
            f->m[3 * c + r] = (double)m16[4 * c + r];
}

/* T·R·S of a translation, a quaternion as given (x y z w) and a scale, in double. */
static void frame_trs(const float *t, const float *q, const float *s, frame *f)
{
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double x2 = x + x, y2 = y + y, z2 = z + z;
    const double xx = x * x2, yy = y * y2, zz = z * z2, xy = x * y2, xz = x * z2, yz = y * z2;
    const double wx = w * x2, wy = w * y2, wz = w * z2;
    const double sx = s[0], sy = s[1], sz = s[2];
    f->m[0] = (1.0 - (yy + zz)) * sx, f->m[1] = (xy + wz) * sx, f->m[2] = (xz - wy) * sx;
    f->m[3] = (xy - wz) * sy, f->m[4] = (1.0 - (xx + zz)) * sy, f->m[5] = (yz + wx) * sy;
    f->m[6] = (xz + wy) * sz, f->m[7] = (yz - wx) * sz, f->m[8] = (1.0 - (xx + yy)) * sz;
    f->m[9] = t[0], f->m[10] = t[1], f->m[11] = t[2];
}

/* a·b (affine). */
static void frame_mul(const frame *a, const frame *b, frame *out)
{
    frame r;
    for (int c = 0; c < 4; ++c)
        for (int i = 0; i < 3; ++i) {
            double v = (a->m[i] * b->m[3 * c] + a->m[3 + i] * b->m[3 * c + 1]) +
                       a->m[6 + i] * b->m[3 * c + 2];
            if (c == 3)
                v += a->m[9 + i];
            r.m[3 * c + i] = v;
        }
    *out = r;
}

static void frame_point(const frame *f, const double p[3], double out[3])
{
    const double x = ((f->m[0] * p[0] + f->m[3] * p[1]) + f->m[6] * p[2]) + f->m[9];
    const double y = ((f->m[1] * p[0] + f->m[4] * p[1]) + f->m[7] * p[2]) + f->m[10];
    const double z = ((f->m[2] * p[0] + f->m[5] * p[1]) + f->m[8] * p[2]) + f->m[11];
    out[0] = x, out[1] = y, out[2] = z;
}

/* Solve A·x = v for F's 3×3 A (cofactors); 0 when singular or not finite. */
static int frame_solve(const frame *f, const double v[3], double x[3])
{
    const double *a = f->m; /* column-major: a[3c + r] */
    const double c00 = a[4] * a[8] - a[7] * a[5], c01 = a[7] * a[2] - a[1] * a[8],
                 c02 = a[1] * a[5] - a[4] * a[2];
    const double det = (a[0] * c00 + a[3] * c01) + a[6] * c02;
    if (!(det != 0.0) || det - det != 0.0)
        return 0;
    /* inverse rows: (c00 c10 c20; c01 c11 c21; c02 c12 c22) / det, with */
    const double c10 = a[6] * a[5] - a[3] * a[8], c11 = a[0] * a[8] - a[6] * a[2],
                 c12 = a[3] * a[2] - a[0] * a[5];
    const double c20 = a[3] * a[7] - a[6] * a[4], c21 = a[6] * a[1] - a[0] * a[7],
                 c22 = a[0] * a[4] - a[3] * a[1];
    x[0] = ((c00 * v[0] + c10 * v[1]) + c20 * v[2]) / det;
    x[1] = ((c01 * v[0] + c11 * v[1]) + c21 * v[2]) / det;
    x[2] = ((c02 * v[0] + c12 * v[1]) + c22 * v[2]) / det;
    return x[0] - x[0] == 0.0 && x[1] - x[1] == 0.0 && x[2] - x[2] == 0.0;
}

static void quat_rotate(const double q[4], const double v[3], double out[3])
{
    /* v + 2w(q×v) + 2q×(q×v), q = (x y z w) */
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double tx = 2.0 * (y * v[2] - z * v[1]);
    const double ty = 2.0 * (z * v[0] - x * v[2]);
    const double tz = 2.0 * (x * v[1] - y * v[0]);
    out[0] = (v[0] + w * tx) + (y * tz - z * ty);
    out[1] = (v[1] + w * ty) + (z * tx - x * tz);
    out[2] = (v[2] + w * tz) + (x * ty - y * tx);
}

static double dot3(const double a[3], const double b[3])
{
    return (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2];
}

/*
 * The smallest rotation taking u to d (x y z w); the identity when either is zero or not
 * finite; a half turn about u × e (e the basis vector least aligned with u) when d is opposite.
 */
static void smallest_rotation(const double u[3], const double d[3], double q[4])
{
    q[0] = q[1] = q[2] = 0.0;
    q[3] = 1.0;
    const double uu = dot3(u, u), dd = dot3(d, d);
    if (!(uu > 0.0) || !(dd > 0.0) || uu - uu != 0.0 || dd - dd != 0.0)
        return;
    const double lu = tendon_det_sqrt(uu), ld = tendon_det_sqrt(dd);
    const double un[3] = {u[0] / lu, u[1] / lu, u[2] / lu};
    const double dn[3] = {d[0] / ld, d[1] / ld, d[2] / ld};
    const double c = dot3(un, dn);
    double r[4];
    if (c > -1.0 + 1e-12) {
        r[0] = un[1] * dn[2] - un[2] * dn[1];
        r[1] = un[2] * dn[0] - un[0] * dn[2];
        r[2] = un[0] * dn[1] - un[1] * dn[0];
        r[3] = 1.0 + c;
    } else {
        const double ax = tendon_det_fabs(un[0]), ay = tendon_det_fabs(un[1]),
                     az = tendon_det_fabs(un[2]);
        double e[3] = {0.0, 0.0, 0.0};
        e[ax <= ay && ax <= az ? 0 : ay <= az ? 1 : 2] = 1.0;
        r[0] = un[1] * e[2] - un[2] * e[1];
        r[1] = un[2] * e[0] - un[0] * e[2];
        r[2] = un[0] * e[1] - un[1] * e[0];
        r[3] = 0.0;
    }
    const double n = tendon_det_sqrt(((r[0] * r[0] + r[1] * r[1]) + r[2] * r[2]) + r[3] * r[3]);
    if (!(n > 0.0))
        return;
    for (int i = 0; i < 4; ++i)
        q[i] = r[i] / n;
}

static void quat_mul(const double a[4], const double b[4], double out[4])
{
    double r[4];
    r[0] = ((a[3] * b[0] + a[0] * b[3]) + a[1] * b[2]) - a[2] * b[1];
    r[1] = ((a[3] * b[1] - a[0] * b[2]) + a[1] * b[3]) + a[2] * b[0];
    r[2] = ((a[3] * b[2] + a[0] * b[1]) - a[1] * b[0]) + a[2] * b[3];
    r[3] = ((a[3] * b[3] - a[0] * b[0]) - a[1] * b[1]) - a[2] * b[2];
    memcpy(out, r, sizeof r);
}

/* Store x rounded to float (through a volatile: GCC 12's SLP vectoriser, docs/springs.md). */
static float store_f32(double x)
{
    volatile float f = (float)x;
    return f;
}

/*
 * Positions → rotations for one chain (tendon_spring_chain_pose's formula), unchecked.
 * root: NULL or [16]. rest: the skeleton's rest pose.
 */
static void chain_pose_core(const int32_t *parents, const tendon_pose *rest, const uint32_t *joints,
                            size_t count, const float *positions, const float *root,
                            tendon_pose *pose)
{
    frame f, l;
    frame_identity(&f);
    for (int32_t a = parents[joints[0]]; a >= 0; a = parents[a]) { /* F ← L(a)·F, upward */
        frame_trs(pose->translation + 3 * (size_t)a, pose->rotation + 4 * (size_t)a,
                  pose->scale + 3 * (size_t)a, &l);
        frame_mul(&l, &f, &f);
    }
    if (root) {
        frame r;
        frame_from_f32(root, &r);
        frame_mul(&r, &f, &f);
    }
    for (size_t k = 0; k + 1 < count; ++k) {
        const size_t j = joints[k], c = joints[k + 1];
        const float *tk = pose->translation + 3 * j, *sk = pose->scale + 3 * j;
        const float *tc = pose->translation + 3 * c;
        const double tkd[3] = {tk[0], tk[1], tk[2]};
        double x[3], u[3], d[3] = {0.0, 0.0, 0.0}, v[3];
        frame_point(&f, tkd, x);
        const double rk[4] = {rest->rotation[4 * j], rest->rotation[4 * j + 1],
                              rest->rotation[4 * j + 2], rest->rotation[4 * j + 3]};
        const double st[3] = {(double)sk[0] * tc[0], (double)sk[1] * tc[1], (double)sk[2] * tc[2]};
        quat_rotate(rk, st, u);
        const float *p = positions + 3 * k;
        v[0] = (double)p[0] - x[0], v[1] = (double)p[1] - x[1], v[2] = (double)p[2] - x[2];
        double s[4] = {0.0, 0.0, 0.0, 1.0}, q[4];
        if (frame_solve(&f, v, d))
            smallest_rotation(u, d, s);
        quat_mul(s, rk, q);
        const double n = tendon_det_sqrt(((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3]);
        float *out = pose->rotation + 4 * j;
        for (int i = 0; i < 4; ++i)
            out[i] = n > 0.0 ? store_f32(q[i] / n) : rest->rotation[4 * j + (size_t)i];
        frame_trs(tk, out, sk, &l);
        frame_mul(&f, &l, &f);
    }
    const size_t last = joints[count - 1];
    memcpy(pose->rotation + 4 * last, rest->rotation + 4 * last, 4 * sizeof(float));
}

/* ---- creation ------------------------------------------------------------------------------- */

void tendon_spring_rig_destroy(tendon_spring_rig *rig)
{
    if (!rig)
        return;
    for (size_t i = 0; i < rig->block_count; ++i)
        free(rig->blocks[i]);
    free(rig->blocks);
    tendon_pose_destroy(&rig->reference);
    free(rig);
}

static const char *jname(const tendon_skeleton *sk, uint32_t j, char buf[96])
{
    const char *n = tendon_skeleton_joint_name(sk, j);
    if (n)
        snprintf(buf, 96, "\"%s\" (joint %u)", n, (unsigned)j);
    else
        snprintf(buf, 96, "joint %u", (unsigned)j);
    return buf;
}

/* Resolve chain c's joints into rig->chains[c]; check the path. */
static tendon_status resolve_chain(const char *fn, tendon_spring_rig *rig,
                                   const tendon_spring_rig_chain *d, size_t c)
{
    rig_chain *ch = &rig->chains[c];
    if (d->name)
        snprintf(ch->name, sizeof ch->name, "chain \"%s\"", d->name);
    else
        snprintf(ch->name, sizeof ch->name, "chain %zu", c);
    if (d->joint_count < 2)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: %s has %zu joints: a chain is an anchor joint and at least one "
                           "link joint below it",
                           fn, ch->name, d->joint_count);
    if (d->joint_count > rig->joint_count) /* also keeps the sizes below from wrapping */
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: %s has %zu joints and the skeleton %zu: a parent → child path "
                           "passes each joint once at most",
                           fn, ch->name, d->joint_count, rig->joint_count);
    if (!d->joint_names && !d->joints)
        return tendon_fail(TENDON_ERR_NULL, "%s: %s: joint_names and joints are both NULL", fn,
                           ch->name);
    if (!d->settings)
        return tendon_fail(TENDON_ERR_NULL, "%s: %s: settings is NULL", fn, ch->name);
    const size_t n = d->joint_count - 1;
    if (d->settings_count != 1 && d->settings_count != n)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: %s: settings_count is %zu; it must be 1 (every link) or the link "
                           "count %zu",
                           fn, ch->name, d->settings_count, n);
    /* every array the chain is read from, aligned to its type (a misaligned read is undefined
       behaviour) and within the address space */
    {
        char what[96];
        tendon_status st;
        snprintf(what, sizeof what, "%s: settings", ch->name);
        if ((st = tendon_check_aligned(fn, what, d->settings, _Alignof(tendon_spring_settings))) !=
            TENDON_OK)
            return st;
        if (d->joint_names) {
            snprintf(what, sizeof what, "%s: joint_names", ch->name);
            if ((st = tendon_check_aligned(fn, what, d->joint_names, _Alignof(const char *))) !=
                TENDON_OK)
                return st;
        } else {
            snprintf(what, sizeof what, "%s: joints", ch->name);
            if ((st = tendon_check_array(fn, what, d->joints, d->joint_count, 1)) != TENDON_OK)
                return st;
        }
        snprintf(what, sizeof what, "%s: rest_offsets_m", ch->name);
        if (d->rest_offsets_m &&
            (st = tendon_check_array_f64(fn, what, d->rest_offsets_m, 3 * n)) != TENDON_OK)
            return st;
    }
    ch->n = n;
    ch->joints = rig_alloc(rig, (n + 1) * sizeof *ch->joints);
    ch->links = rig_alloc(rig, n * sizeof *ch->links);
    if (!ch->joints || !ch->links)
        return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
    for (size_t k = 0; k <= n; ++k) {
        if (d->joint_names) {
            if (!d->joint_names[k])
                return tendon_fail(TENDON_ERR_NULL, "%s: %s: joint_names[%zu] is NULL", fn,
                                   ch->name, k);
            size_t j;
            if (tendon_skeleton_find_joint(rig->skeleton, d->joint_names[k], &j) != TENDON_OK)
                return tendon_fail(TENDON_ERR_NOT_FOUND,
                                   "%s: %s: joint_names[%zu] \"%s\" is not a joint of the "
                                   "skeleton%s",
                                   fn, ch->name, k, d->joint_names[k],
                                   tendon_skeleton_joint_name(rig->skeleton, 0)
                                       ? ""
                                       : " (the skeleton has no joint names)");
            ch->joints[k] = (uint32_t)j;
        } else {
            if (d->joints[k] >= rig->joint_count)
                return tendon_fail(TENDON_ERR_RANGE,
                                   "%s: %s: joints[%zu] is %u, not below the skeleton's joint "
                                   "count %zu",
                                   fn, ch->name, k, (unsigned)d->joints[k], rig->joint_count);
            ch->joints[k] = d->joints[k];
        }
    }
    for (size_t k = 1; k <= n; ++k) {
        if (rig->parents[ch->joints[k]] != (int32_t)ch->joints[k - 1]) {
            char a[96], b[96], p[96];
            const int32_t par = rig->parents[ch->joints[k]];
            return tendon_fail(TENDON_ERR_VALUE,
                               "%s: %s is not a parent → child path: %s is not a child of %s "
                               "(its parent is %s)",
                               fn, ch->name, jname(rig->skeleton, ch->joints[k], a),
                               jname(rig->skeleton, ch->joints[k - 1], b),
                               par < 0 ? "none: it is a root" : jname(rig->skeleton, (uint32_t)par, p));
        }
    }
    for (int i = 0; i < 3; ++i) {
        if (!(d->anchor_offset[i] - d->anchor_offset[i] == 0.0f))
            return tendon_fail(TENDON_ERR_VALUE, "%s: %s: anchor_offset[%d] is not finite", fn,
                               ch->name, i);
        ch->offset[i] = d->anchor_offset[i];
    }
    return TENDON_OK;
}

/* Rest positions of the chain's joints (model space, double) and its links. */
static tendon_status chain_links(const char *fn, tendon_spring_rig *rig,
                                 const tendon_spring_rig_chain *d, rig_chain *ch)
{
    const tendon_pose *rest = tendon_skeleton_rest_view(rig->skeleton);
    /* the rest frame of J0 */
    frame f, l;
    frame_identity(&f);
    for (int32_t a = (int32_t)ch->joints[0]; a >= 0; a = rig->parents[a]) {
        frame_trs(rest->translation + 3 * (size_t)a, rest->rotation + 4 * (size_t)a,
                  rest->scale + 3 * (size_t)a, &l);
        frame_mul(&l, &f, &f);
    }
    const double off[3] = {ch->offset[0], ch->offset[1], ch->offset[2]};
    double above[3];
    frame_point(&f, off, above);
    for (size_t k = 1; k <= ch->n; ++k) {
        const size_t j = ch->joints[k];
        frame_trs(rest->translation + 3 * j, rest->rotation + 4 * j, rest->scale + 3 * j, &l);
        frame_mul(&f, &l, &f);
        const double pos[3] = {f.m[9], f.m[10], f.m[11]};
        const tendon_spring_settings *s = &d->settings[d->settings_count == 1 ? 0 : k - 1];
        tendon_spring_link *lk = &ch->links[k - 1];
        lk->frequency_hz = s->frequency_hz;
        lk->damping = s->damping;
        lk->max_offset_m = s->max_offset_m;
        for (int i = 0; i < 3; ++i) {
            lk->rest_offset_m[i] = d->rest_offsets_m ? d->rest_offsets_m[3 * (k - 1) + (size_t)i]
                                                     : pos[i] - above[i];
            if (!(lk->rest_offset_m[i] - lk->rest_offset_m[i] == 0.0))
                return tendon_fail(TENDON_ERR_VALUE,
                                   "%s: %s: link %zu's rest offset [%d] is not finite", fn,
                                   ch->name, k, i);
        }
        memcpy(above, pos, sizeof above);
    }
    return TENDON_OK;
}

static tendon_status check_source(const char *fn, tendon_spring_rig *rig,
                                  const tendon_spring_rig_source *src)
{
    const size_t n = rig->joint_count;
    if (src->kind == TENDON_RIG_SOURCE_TREE) {
        if (!src->tree)
            return tendon_fail(TENDON_ERR_NULL, "%s: the source is a tree and tree is NULL", fn);
        if (tendon_blend_tree_joint_count(src->tree) != n)
            return tendon_fail(TENDON_ERR_COUNT,
                               "%s: the source tree has %zu joints, the skeleton %zu", fn,
                               tendon_blend_tree_joint_count(src->tree), n);
        return TENDON_OK;
    }
    if (src->kind != TENDON_RIG_SOURCE_CLIPS)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: source.kind is %d, not a tendon_rig_source_kind (CLIPS = 0, TREE "
                           "= 1; a state machine is not a source: its past is not a function of "
                           "time)",
                           fn, (int)src->kind);
    const tendon_rig_clip *clips[3] = {&src->base, &src->blend, &src->layer};
    static const char *const what[3] = {"base", "blend", "layer"};
    for (int i = 0; i < 3; ++i) {
        if (clips[i]->clip && tendon_clip_joint_count(clips[i]->clip) != n)
            return tendon_fail(TENDON_ERR_COUNT,
                               "%s: source.%s.clip has %zu joints, the skeleton %zu", fn, what[i],
                               tendon_clip_joint_count(clips[i]->clip), n);
        if (!(clips[i]->offset_sec - clips[i]->offset_sec == 0.0))
            return tendon_fail(TENDON_ERR_VALUE, "%s: source.%s.offset_sec is not finite", fn,
                               what[i]);
        rig->clip[i] = clips[i]->clip;
    }
    if (src->layer_mode != TENDON_RIG_LAYER_ADDITIVE && src->layer_mode != TENDON_RIG_LAYER_OVERRIDE)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: source.layer_mode is %d, not a tendon_rig_layer_mode", fn,
                           (int)src->layer_mode);
    if (src->layer_reference) {
        if (src->layer_mode != TENDON_RIG_LAYER_ADDITIVE)
            return tendon_fail(TENDON_ERR_VALUE,
                               "%s: source.layer_reference is given with an override layer: a "
                               "reference makes the layer's poses deltas, which only the "
                               "additive layer takes",
                               fn);
        tendon_status st = tendon_check_pose(fn, "source.layer_reference", src->layer_reference);
        if (st != TENDON_OK)
            return st;
        if (src->layer_reference->joint_count != n)
            return tendon_fail(TENDON_ERR_COUNT,
                               "%s: source.layer_reference has %zu joints, the skeleton %zu", fn,
                               src->layer_reference->joint_count, n);
        if ((st = tendon_pose_create(n, &rig->reference)) != TENDON_OK ||
            (st = tendon_pose_copy(src->layer_reference, &rig->reference)) != TENDON_OK)
            return st;
        rig->has_reference = 1;
        tendon_pose probe; /* a reference a delta cannot be taken from is refused here, once */
        if ((st = tendon_pose_create(n, &probe)) != TENDON_OK)
            return st;
        st = tendon_pose_delta(&rig->reference, &rig->reference, &probe);
        tendon_pose_destroy(&probe);
        if (st != TENDON_OK)
            return st;
    }
    if (src->layer_mask) {
        if (!(rig->mask = rig_alloc(rig, (n ? n : 1) * sizeof(float))))
            return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
        memcpy(rig->mask, src->layer_mask, n * sizeof(float));
    }
    return TENDON_OK;
}

/*
 * A grid's idle layer slots (rig_grid.idle): an additive layer under a mask that is 0 at the
 * slot — its weight is then +0 at every time, whatever the weight function returns (the masked
 * kernels' rule: 0 where the clamped mask is 0) — and whose clip drives none of the slot's
 * tracks, so its delta D is the same at every time: the layer's start (the identity, or the
 * reference made a delta from itself, by the tier's own tendon_pose_delta). The layer kernel's
 * scalar formulas at w = +0 then need D only through three constants per slot, computed here
 * in the same operations: the translation's D.t·w, the scale's 1 + (D.s − 1)·w, and the
 * rotation's rounded slerp(identity, D.r, w). Per time what is left is a sum, a product and
 * one quaternion product (tendon_kernels.quat_multiply or its float32 twin: the add kernel's
 * own product; tendon_add_zero_weight_apply says when the twin serves the exact tier), the
 * same bits as the add kernel on every ISA.
 */
static tendon_status idle_slots(const char *fn, tendon_spring_rig *rig, rig_grid *gr)
{
    const size_t n = gr->slots, R = gr->run, cn = R * n;
    gr->idle_count = 0;
    if (!n || !rig->clip[2] || !gr->mask || rig->source.kind == TENDON_RIG_SOURCE_TREE ||
        rig->source.layer_mode != TENDON_RIG_LAYER_ADDITIVE)
        return TENDON_OK;
    if (!(gr->idle = rig_alloc(rig, n * sizeof *gr->idle)))
        return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
    const rig_subset *sub = &gr->clips[2];
    for (size_t s = 0; s < n; ++s)
        gr->idle[s] = gr->mask01[s] == 0.0;
    for (int k = 0; k < 3; ++k)
        for (size_t t = sub->first[k]; t < sub->first[k] + sub->count[k]; ++t)
            gr->idle[sub->slots[t]] = 0;
    for (size_t s = 0; s < n; ++s)
        if (gr->idle[s])
            gr->idle[s] = (uint32_t)++gr->idle_count;
    if (!gr->idle_count)
        return TENDON_OK;
    gr->idle_q = rig_alloc(rig, 4 * R * gr->idle_count * sizeof(float));
    gr->idle_c = rig_alloc(rig, TENDON_ADD_ZERO_FLOATS * gr->idle_count * sizeof(float));
    if (!gr->idle_q || !gr->idle_c)
        return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
    const int f32 = rig->tier == TENDON_TIER_F32;
    for (size_t s = 0; s < n; ++s) {
        if (!gr->idle[s])
            continue;
        const size_t x = gr->idle[s] - 1, b = s * R;
        /* D: the slot's layer pose (its start, gr->ident), a delta from the reference if any */
        float t[3], r[4], sc[3];
        memcpy(t, gr->ident + 3 * b, sizeof t);
        memcpy(r, gr->ident + 3 * cn + 4 * b, sizeof r);
        memcpy(sc, gr->ident + 7 * cn + 3 * b, sizeof sc);
        if (rig->has_reference) { /* as the evaluation: delta(reference, layer) into layer */
            float rt[3], rr[4], rs[3];
            memcpy(rt, t, sizeof t), memcpy(rr, r, sizeof r), memcpy(rs, sc, sizeof sc);
            const tendon_pose ref = {.translation = rt, .rotation = rr, .scale = rs,
                                     .joint_count = 1};
            tendon_pose d = {.translation = t, .rotation = r, .scale = sc, .joint_count = 1};
            const tendon_status st =
                (f32 ? tendon_pose_delta_f32 : tendon_pose_delta)(&ref, &d, &d);
            if (st != TENDON_OK)
                return st;
        }
        float q0[4];
        tendon_add_zero_weight_make(f32, t, r, sc, gr->idle_c + TENDON_ADD_ZERO_FLOATS * x, q0);
        for (size_t i = 0; i < R; ++i)
            memcpy(gr->idle_q + 4 * (R * x + i), q0, sizeof q0);
    }
    return TENDON_OK;
}

/* Group chains onto grids and batches; list each grid's joints; lay out the workspace. */
static tendon_status plan_rig(const char *fn, tendon_spring_rig *rig)
{
    const size_t C = rig->chain_count, J = rig->joint_count;
    tendon_spring_grid *plans = rig_alloc(rig, C * sizeof *plans);
    rig->grids = rig_alloc(rig, C * sizeof *rig->grids);
    rig->batches = rig_alloc(rig, C * sizeof *rig->batches);
    size_t *chain_lists = rig_alloc(rig, 2 * C * sizeof(size_t));
    int32_t *slot_of = rig_alloc(rig, (J ? J : 1) * sizeof(int32_t));
    if (!plans || !rig->grids || !rig->batches || !chain_lists || !slot_of)
        return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
    for (size_t c = 0; c < C; ++c) {
        rig_chain *ch = &rig->chains[c];
        char where[128];
        snprintf(where, sizeof where, "%s: %s", fn, ch->name);
        const tendon_status st = tendon_spring_chain_grid(where, ch->links, ch->n, rig->lookback,
                                                          1, rig->max_work, &plans[c]);
        if (st != TENDON_OK)
            return st;
        /* its grid: an earlier chain's with the same lookback and substeps */
        size_t g = 0;
        for (; g < rig->grid_count; ++g)
            if (rig->grids[g].plan.steps == plans[c].steps &&
                memcmp(&rig->grids[g].plan.lookback_sec, &plans[c].lookback_sec, sizeof(double)) ==
                    0 &&
                memcmp(&rig->grids[g].plan.step_sec, &plans[c].step_sec, sizeof(double)) == 0)
                break;
        if (g == rig->grid_count) {
            memset(&rig->grids[g], 0, sizeof rig->grids[g]);
            rig->grids[g].plan = plans[c];
            rig->grids[g].times = plans[c].steps + 2;
            rig->grids[g].anchor_run = rig_anchor_run(rig->grids[g].times);
            ++rig->grid_count;
        }
        ch->grid = g;
        ch->in_grid = rig->grids[g].chain_count++;
        /* its batch: an earlier chain's on the grid with the same links */
        size_t b = 0;
        for (; b < rig->batch_count; ++b) {
            const rig_chain *o = &rig->chains[rig->batches[b].first_chain_of];
            if (rig->batches[b].grid == g && o->n == ch->n &&
                memcmp(o->links, ch->links, ch->n * sizeof *ch->links) == 0)
                break;
        }
        if (b == rig->batch_count) {
            memset(&rig->batches[b], 0, sizeof rig->batches[b]);
            rig->batches[b].grid = g;
            rig->batches[b].first_chain_of = c;
            ++rig->batch_count;
        }
        ch->batch = b;
        ch->in_batch = rig->batches[b].chain_count++;
    }
    /* batch chain lists, anchors offsets, work budgets */
    size_t used = 0;
    size_t *anchors_used = rig_alloc(rig, rig->grid_count * sizeof(size_t));
    if (!anchors_used)
        return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
    rig->march_bytes = 0;
    for (size_t b = 0; b < rig->batch_count; ++b) {
        rig_batch *bt = &rig->batches[b];
        bt->chains = chain_lists + used;
        used += bt->chain_count;
        size_t k = 0;
        for (size_t c = 0; c < C; ++c)
            if (rig->chains[c].batch == b)
                bt->chains[k++] = c;
        const rig_grid *gr = &rig->grids[bt->grid];
        bt->anchors_at = anchors_used[bt->grid];
        const size_t per_chain = 3 * rig_anchor_run(gr->times); /* < 2^26: times ≤ 2^24 + 2 */
        if (bt->chain_count > (RIG_WS_LIMIT / sizeof(float) - anchors_used[bt->grid]) / per_chain)
            return tendon_fail(TENDON_ERR_OVERFLOW,
                               "%s: the anchors of the chains on a grid of %zu times do not fit "
                               "in a workspace of this address space",
                               fn, gr->times);
        anchors_used[bt->grid] += per_chain * bt->chain_count;
        const rig_chain *ch = &rig->chains[bt->first_chain_of];
        tendon_spring_grid check;
        char where[160];
        snprintf(where, sizeof where, "%s: the %zu chains with %s's links", fn, bt->chain_count,
                 ch->name);
        tendon_status st = tendon_spring_chain_grid(where, ch->links, ch->n, rig->lookback,
                                                    bt->chain_count, rig->max_work, &check);
        if (st != TENDON_OK)
            return st;
        size_t bytes;
        if ((st = tendon_spring_chain_workspace_size(ch->n, bt->chain_count, &bytes)) != TENDON_OK)
            return st;
        if (bytes > rig->march_bytes)
            rig->march_bytes = bytes;
        if (bt->chain_count > 1 && 3 * ch->n * bt->chain_count > rig->batch_out_floats)
            rig->batch_out_floats = 3 * ch->n * bt->chain_count;
    }
    /* what the source drives, and the rest pose's matrices */
    rig->animated = rig_alloc(rig, J ? J : 1);
    rig->rest_local = rig_alloc(rig, 16 * (J ? J : 1) * sizeof(float));
    rig->rest_model = rig_alloc(rig, 16 * (J ? J : 1) * sizeof(float));
    uint8_t *dynamic = rig_alloc(rig, J ? J : 1), *needed = rig_alloc(rig, J ? J : 1);
    if (!rig->animated || !rig->rest_local || !rig->rest_model || !dynamic || !needed)
        return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
    if (rig->source.kind == TENDON_RIG_SOURCE_TREE)
        memset(rig->animated, 1, J);
    else
        for (int k = 0; k < 3; ++k) {
            if (!rig->clip[k])
                continue;
            uint8_t *c = rig->clip_channels[k] = rig_alloc(rig, J ? J : 1);
            if (!c) /* zeroed, as every rig_alloc */
                return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
            tendon_clip_mark_channels(rig->clip[k], c);
            for (size_t j = 0; j < J; ++j)
                rig->animated[j] |= c[j];
        }
    for (size_t j = 0; j < J; ++j)
        dynamic[j] = rig->animated[j] || (rig->parents[j] >= 0 && dynamic[rig->parents[j]]);
    const tendon_pose *rest = tendon_skeleton_rest_view(rig->skeleton);
    const tendon_kernels *ks = tendon_kernels_for(TENDON_ISA_SCALAR);
    if (J) {
        ks->local_matrices(rest->translation, rest->rotation, rest->scale, J, rig->rest_local);
        memcpy(rig->rest_model, rig->rest_local, 16 * J * sizeof(float));
        ks->model_matrices(rig->rest_model, rig->parents, NULL, 0, J, rig->rest_model);
    }
    int32_t *pin_of = rig_alloc(rig, (J ? J : 1) * sizeof(int32_t));
    if (!pin_of)
        return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
    size_t off = round64(sizeof(rig_header));
    for (size_t g = 0; g < rig->grid_count; ++g) {
        rig_grid *gr = &rig->grids[g];
        /* the joints: every anchor joint's parent and its ancestors; an animated anchor joint */
        memset(needed, 0, J);
        for (size_t c = 0; c < C; ++c) {
            const rig_chain *ch = &rig->chains[c];
            if (ch->grid != g)
                continue;
            if (rig->animated[ch->joints[0]])
                needed[ch->joints[0]] = 1;
            for (int32_t a = rig->parents[ch->joints[0]]; a >= 0; a = rig->parents[a])
                needed[a] = 1;
        }
        size_t n = 0, np = 0;
        for (size_t j = 0; j < J; ++j) {
            slot_of[j] = needed[j] && dynamic[j] ? (int32_t)n++ : -1;
            pin_of[j] = -1;
        }
        for (size_t j = 0; j < J; ++j) /* a constant parent of a slot is pinned */
            if (slot_of[j] >= 0 && rig->parents[j] >= 0 && slot_of[rig->parents[j]] < 0 &&
                pin_of[rig->parents[j]] < 0)
                pin_of[rig->parents[j]] = (int32_t)np++;
        gr->slots = n;
        gr->pinned = np;
        const size_t T = gr->times;
        /* a chunk: about RIG_CHUNK_JOINTS joints (its buffers stay in the first cache levels
           across the stages), at most all the times; a multiple of 16 times — a slot's run of
           times is whole vectors of the widest ISA (16 floats), and the clip kernels' calls
           are per track, over the times — so at least 16 where the grid has them: with more
           than 32 slots a chunk holds 16 times of every slot (more joints than the budget, but
           no padding to compute) */
        size_t chunk = n ? RIG_CHUNK_JOINTS / n : T;
        if (n)
            chunk = chunk < 16 ? 16 : chunk - chunk % 16;
        chunk = chunk < 1 ? 1 : chunk > T ? T : chunk;
        gr->chunk = chunk;
        gr->run = (chunk + 15) / 16 * 16; /* chunk itself but where T < 16 */
        if (n && gr->run > rig->max_run) /* the local planes: only where there are slots */
            rig->max_run = gr->run;
        if (n > RIG_WS_LIMIT / (20 * sizeof(float)) / gr->run) /* gr->rest below */
            return tendon_fail(TENDON_ERR_OVERFLOW,
                               "%s: a grid of %zu evaluated joints does not fit in this address "
                               "space", fn, n);
        const size_t cn = gr->run * n;
        if (cn > rig->chunk_joints)
            rig->chunk_joints = cn;
        if (np + cn > rig->chunk_matrices)
            rig->chunk_matrices = np + cn;
        if (gr->run * gr->chain_count > rig->chunk_q)
            rig->chunk_q = gr->run * gr->chain_count;
        gr->joints = rig_alloc(rig, (n ? n : 1) * sizeof *gr->joints);
        gr->restore = rig_alloc(rig, (n ? n : 1) * sizeof *gr->restore);
        gr->pinned_model = rig_alloc(rig, 16 * (np ? np : 1) * sizeof(float));
        gr->parent_slot = rig_alloc(rig, (n ? n : 1) * sizeof *gr->parent_slot);
        gr->parent_pin = rig_alloc(rig, (n ? n : 1) * sizeof *gr->parent_pin);
        gr->j0_local = rig_alloc(rig, n ? n : 1);
        gr->rest = rig_alloc(rig, 20 * (cn ? cn : 1) * sizeof(float));
        if (!gr->joints || !gr->restore || !gr->pinned_model || !gr->parent_slot ||
            !gr->parent_pin || !gr->j0_local || !gr->rest)
            return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
        gr->ident = gr->rest + 10 * cn;
        for (size_t j = 0; j < J; ++j) {
            if (pin_of[j] >= 0) {
                memcpy(gr->pinned_model + 16 * (size_t)pin_of[j], rig->rest_model + 16 * j,
                       16 * sizeof(float));
            }
            if (slot_of[j] < 0)
                continue;
            const size_t s = (size_t)slot_of[j];
            gr->joints[s] = (uint32_t)j;
            if (!rig->animated[j] && rig->source.kind != TENDON_RIG_SOURCE_TREE)
                gr->restore[gr->restore_count++] = (uint32_t)s;
            static const float t0[3] = {0, 0, 0}, r0[4] = {0, 0, 0, 1}, s1[3] = {1, 1, 1};
            const tendon_pose *ref = rig->has_reference ? &rig->reference : NULL;
            const int32_t p = rig->parents[j];
            gr->parent_slot[s] = p >= 0 ? slot_of[p] : -1;
            gr->parent_pin[s] = p >= 0 && slot_of[p] < 0 ? pin_of[p] : -1;
            gr->j0_local[s] = 0;
            for (size_t i = 0; i < gr->run; ++i) { /* the padding too: defined values */
                const size_t b = s * gr->run + i;
                memcpy(gr->rest + 3 * b, rest->translation + 3 * j, 3 * sizeof(float));
                memcpy(gr->rest + 3 * cn + 4 * b, rest->rotation + 4 * j, 4 * sizeof(float));
                memcpy(gr->rest + 7 * cn + 3 * b, rest->scale + 3 * j, 3 * sizeof(float));
                memcpy(gr->ident + 3 * b, ref ? ref->translation + 3 * j : t0, 3 * sizeof(float));
                memcpy(gr->ident + 3 * cn + 4 * b, ref ? ref->rotation + 4 * j : r0,
                       4 * sizeof(float));
                memcpy(gr->ident + 7 * cn + 3 * b, ref ? ref->scale + 3 * j : s1, 3 * sizeof(float));
            }
        }
        if (!(gr->mask01 = rig_alloc(rig, (n ? n : 1) * sizeof(double))))
            return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
        if (rig->mask) {
            if (!(gr->mask = rig_alloc(rig, (n ? n : 1) * sizeof(float))))
                return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
            for (size_t s = 0; s < n; ++s)
                gr->mask[s] = rig->mask[gr->joints[s]];
        }
        for (size_t s = 0; s < n; ++s)
            gr->mask01[s] = gr->mask ? tendon_ref_clamp01((double)gr->mask[s]) + 0.0 : 1.0;
        for (int k = 0; k < 3; ++k) {
            if (!rig->clip[k])
                continue;
            const size_t tracks = tendon_clip_track_count(rig->clip[k]);
            rig_subset *sub = &gr->clips[k];
            sub->tracks = rig_alloc(rig, 2 * (tracks ? tracks : 1) * sizeof(uint32_t));
            if (!sub->tracks)
                return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
            sub->slots = sub->tracks + tracks;
            tendon_clip_subset(rig->clip[k], slot_of, sub->tracks, sub->slots, sub->first,
                               sub->count);
            if (k == 0) /* the base pose is P itself, filled whole */
                continue;
            gr->channels[k] = rig_alloc(rig, n ? n : 1);
            if (!gr->channels[k])
                return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
            for (size_t s = 0; s < n; ++s)
                gr->channels[k][s] = rig->clip_channels[k][gr->joints[s]];
        }
        {
            const tendon_status st = idle_slots(fn, rig, gr);
            if (st != TENDON_OK)
                return st;
        }
        if (!(gr->rest_ts = rig_alloc(rig, n ? n : 1)))
            return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
        if (rig->source.kind != TENDON_RIG_SOURCE_TREE && rig->clip[1])
            for (size_t s = 0; s < n; ++s) {
                const uint32_t j = gr->joints[s];
                int keeps = !(rig->clip_channels[1][j] & 5u) &&
                            !(rig->clip[0] && (rig->clip_channels[0][j] & 5u));
                for (int e = 0; e < 3 && keeps; ++e)
                    keeps = plain_float(rest->translation[3 * j + e]) &&
                            plain_float(rest->scale[3 * j + e]);
                if (keeps && gr->idle_count && gr->idle[s]) /* its constants keep them too */
                    keeps = tendon_add_zero_weight_keeps(
                        gr->idle_c + TENDON_ADD_ZERO_FLOATS * (gr->idle[s] - 1));
                gr->rest_ts[s] = (uint8_t)keeps;
            }
        /* each chain's anchor: anchor = M(parent of J0) · (L(J0) · (offset, 1)) */
        for (size_t c = 0; c < C; ++c) {
            rig_chain *ch = &rig->chains[c];
            if (ch->grid != g)
                continue;
            const uint32_t j0 = ch->joints[0];
            const int32_t p = rig->parents[j0];
            ch->j0_animated = rig->animated[j0];
            ch->j0_slot = ch->j0_animated ? (uint32_t)slot_of[j0] : 0;
            if (ch->j0_animated)
                gr->j0_local[ch->j0_slot] = 1;
            if (p < 0)
                ch->parent_kind = PARENT_NONE;
            else if (slot_of[p] >= 0)
                ch->parent_kind = PARENT_DYNAMIC, ch->parent_index = (uint32_t)slot_of[p];
            else if (pin_of[p] >= 0)
                ch->parent_kind = PARENT_PINNED, ch->parent_index = (uint32_t)pin_of[p];
            else
                ch->parent_kind = PARENT_CONSTANT;
            xform_point(rig->rest_local + 16 * (size_t)j0, ch->offset, ch->q);
            memcpy(ch->fixed, ch->q, sizeof ch->q);
            if (p >= 0)
                xform_point(rig->rest_model + 16 * (size_t)p, ch->q, ch->fixed);
        }
        if (!(gr->ops = rig_alloc(rig, (gr->chain_count ? gr->chain_count : 1) * sizeof *gr->ops)))
            return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
        for (size_t c = 0; c < C; ++c) {
            const rig_chain *ch = &rig->chains[c];
            if (ch->grid != g)
                continue;
            const rig_batch *bt = &rig->batches[ch->batch];
            rig_anchor_op *op = &gr->ops[ch->in_grid];
            op->parent_kind = ch->parent_kind;
            op->parent_index = ch->parent_index;
            op->qslot = ch->j0_animated ? (int32_t)ch->in_grid : -1;
            op->dst = bt->anchors_at + 3 * gr->anchor_run * ch->in_batch;
            memcpy(op->q, ch->q, sizeof op->q);
            memcpy(op->fixed, ch->fixed, sizeof op->fixed);
        }
        /* workspace parts of the grid */
        int fits = ws_part(&off, T, sizeof(double), &gr->ws_times) &&
                   ws_part(&off, 3 * T, sizeof(double), &gr->ws_ctimes) &&
                   ws_part(&off, anchors_used[g], sizeof(float), &gr->ws_anchors);
        for (int k = 0; k < 3 && fits; ++k)
            fits = ws_part(&off, rig->clip[k] ? tendon_clip_timeline_count(rig->clip[k]) : 0,
                           sizeof(uint32_t), &gr->ws_hints[k]);
        if (!fits)
            return tendon_fail(TENDON_ERR_OVERFLOW,
                               "%s: the workspace of %zu substep grids (the last of %zu times) "
                               "does not fit in this address space",
                               fn, g + 1, T);
    }
    /* the chunk buffers, the march's and the outputs' (counts bounded by the joints and the
       links: the grids' checks above keep them in range) */
    const size_t cj = rig->chunk_joints ? rig->chunk_joints : 1;
    int fits = 1;
    for (int k = 0; k < 3 && fits; ++k)
        fits = ws_part(&off, cj, 10 * sizeof(float), &rig->ws_pose[k]);
    fits = fits && cj <= (RIG_WS_LIMIT / sizeof(double) - RIG_CHUNK_JOINTS) / 2 &&
           ws_part(&off, rig->chunk_matrices ? rig->chunk_matrices : 1, 16 * sizeof(float),
                   &rig->ws_model) &&
           ws_part(&off, 2 * cj + RIG_CHUNK_JOINTS, sizeof(double), &rig->ws_weights) &&
           ws_part(&off, rig->chunk_q ? rig->chunk_q : 1, 3 * sizeof(float), &rig->ws_q) &&
           ws_part(&off, rig->max_run ? rig->max_run : 1, 16 * sizeof(float), &rig->ws_local) &&
           ws_part(&off, rig->source.kind == TENDON_RIG_SOURCE_TREE ? J : 0, 10 * sizeof(float),
                   &rig->ws_tree) &&
           ws_part(&off, 16, sizeof(float), &rig->ws_root) &&
           ws_part(&off, rig->march_bytes, 1, &rig->ws_march) &&
           ws_part(&off, rig->link_count, 3 * sizeof(float), &rig->ws_positions) &&
           ws_part(&off, rig->batch_out_floats, sizeof(float), &rig->ws_batch_out);
    if (!fits)
        return tendon_fail(TENDON_ERR_OVERFLOW, "%s: the workspace does not fit in this address "
                                                "space", fn);
    rig->ws_bytes = off + 63;
    return TENDON_OK;
}

tendon_status tendon_spring_rig_create(const tendon_spring_rig_desc *desc, tendon_spring_rig **out)
{
    TENDON_FPENV_GUARD_OUT(out); /* a refusal sets *out to NULL too */
    static const char fn[] = "tendon_spring_rig_create";
    if (!out)
        return tendon_fail(TENDON_ERR_NULL, "%s: out is NULL", fn);
    *out = NULL;
    if (!desc)
        return tendon_fail(TENDON_ERR_NULL, "%s: desc is NULL", fn);
    tendon_status st0 = tendon_check_aligned(fn, "desc", desc, _Alignof(tendon_spring_rig_desc));
    if (st0 != TENDON_OK)
        return st0;
    if (!desc->skeleton)
        return tendon_fail(TENDON_ERR_NULL, "%s: desc->skeleton is NULL", fn);
    if (!desc->chains || desc->chain_count == 0)
        return tendon_fail(desc->chains ? TENDON_ERR_VALUE : TENDON_ERR_NULL,
                           "%s: a rig needs at least one chain (chains %s, chain_count %zu)", fn,
                           desc->chains ? "given" : "NULL", desc->chain_count);
    if ((st0 = tendon_check_aligned(fn, "chains", desc->chains,
                                     _Alignof(tendon_spring_rig_chain))) != TENDON_OK)
        return st0;
    if (desc->tier != TENDON_TIER_EXACT && desc->tier != TENDON_TIER_F32)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: tier is %d, not a tendon_tier (TENDON_TIER_EXACT = 0, "
                           "TENDON_TIER_F32 = 1)",
                           fn, (int)desc->tier);
    if (desc->lookback != TENDON_SPRING_LOOKBACK_SEED &&
        desc->lookback != TENDON_SPRING_LOOKBACK_SLOW_POLE &&
        desc->lookback != TENDON_SPRING_LOOKBACK_CORRECTED_ROOT)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: lookback is %d, not a tendon_spring_lookback (SEED = 0, "
                           "SLOW_POLE = 1, CORRECTED_ROOT = 2)",
                           fn, (int)desc->lookback);
    if (desc->chain_count > SIZE_MAX / 4 / sizeof(rig_chain))
        return tendon_fail(TENDON_ERR_OVERFLOW, "%s: chain_count %zu is too large", fn,
                           desc->chain_count);
    tendon_spring_rig *rig = calloc(1, sizeof *rig);
    if (!rig)
        return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
    rig->serial = atomic_fetch_add_explicit(&rig_serials, 1, memory_order_relaxed);
    rig->skeleton = desc->skeleton;
    rig->joint_count = tendon_skeleton_joint_count(desc->skeleton);
    rig->parents = tendon_skeleton_parents(desc->skeleton);
    rig->chain_count = desc->chain_count;
    rig->source = desc->source;
    rig->tier = desc->tier;
    rig->lookback = desc->lookback;
    rig->max_work = desc->max_work ? desc->max_work : TENDON_SPRING_MAX_WORK;
    rig->root = desc->root;
    rig->root_user = desc->root_user;
    tendon_status st = TENDON_OK;
    rig->chains = rig_alloc(rig, desc->chain_count * sizeof *rig->chains);
    uint8_t *role = rig_alloc(rig, rig->joint_count ? rig->joint_count : 1); /* 1: a link */
    if (!rig->chains || !role) {
        st = tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
        goto fail;
    }
    if ((st = check_source(fn, rig, &desc->source)) != TENDON_OK)
        goto fail;
    for (size_t c = 0; c < desc->chain_count; ++c) {
        if ((st = resolve_chain(fn, rig, &desc->chains[c], c)) != TENDON_OK)
            goto fail;
        rig_chain *ch = &rig->chains[c];
        ch->first_link = rig->link_count;
        rig->link_count += ch->n;
        for (size_t k = 1; k <= ch->n; ++k) {
            if (role[ch->joints[k]]) {
                char a[96];
                size_t other = 0;
                for (size_t o = 0; o < c; ++o)
                    for (size_t m = 1; m <= rig->chains[o].n; ++m)
                        if (rig->chains[o].joints[m] == ch->joints[k])
                            other = o;
                st = tendon_fail(TENDON_ERR_VALUE,
                                 "%s: %s and %s both drive %s: a joint is a link of one chain at "
                                 "most",
                                 fn, rig->chains[other].name, ch->name,
                                 jname(rig->skeleton, ch->joints[k], a));
                goto fail;
            }
            role[ch->joints[k]] = 1;
        }
    }
    /* an anchor joint at or below another chain's link would move with that chain's springs */
    for (size_t c = 0; c < desc->chain_count; ++c) {
        const rig_chain *ch = &rig->chains[c];
        for (int32_t a = (int32_t)ch->joints[0]; a >= 0; a = rig->parents[a]) {
            if (role[a]) {
                char x[96], y[96];
                char which[160];
                if (a == (int32_t)ch->joints[0])
                    snprintf(which, sizeof which, "which is");
                else
                    snprintf(which, sizeof which, "which hangs below %s, which is",
                             jname(rig->skeleton, (uint32_t)a, y));
                st = tendon_fail(TENDON_ERR_VALUE,
                                 "%s: %s hangs from %s, %s a link of a chain: its frame would move "
                                 "with those springs, which the anchors (evaluated from the "
                                 "source) do not see; hang it from a joint above the chains",
                                 fn, ch->name, jname(rig->skeleton, ch->joints[0], x), which);
                goto fail;
            }
        }
        if ((st = chain_links(fn, rig, &desc->chains[c], &rig->chains[c])) != TENDON_OK)
            goto fail;
    }
    /* two chains from one anchor joint: the pose step writes J0's rotation too (turned toward
       J1's sprung position), so the second chain's overwrote the first's, whose links were left
       off their rays */
    for (size_t c = 0; c < desc->chain_count; ++c) {
        const uint32_t j0 = rig->chains[c].joints[0];
        if (!(role[j0] & 2)) {
            role[j0] |= 2;
            continue;
        }
        size_t other = 0; /* the earlier chain from j0 (there is one) */
        while (rig->chains[other].joints[0] != j0)
            ++other;
        char x[96];
        st = tendon_fail(TENDON_ERR_VALUE,
                         "%s: %s and %s both hang from %s: the pose step turns an anchor joint "
                         "toward its chain's first link, so each would overwrite the other's "
                         "rotation; a joint is the anchor joint of one chain at most",
                         fn, rig->chains[other].name, rig->chains[c].name,
                         jname(rig->skeleton, j0, x));
        goto fail;
    }
    /* the pose step's order: anchor joints increasing, so a chain hung below another's anchor
       joint reads that joint's rotation already turned (parents[j] < j), whatever order the
       chains were given in */
    {
        const size_t J = rig->joint_count ? rig->joint_count : 1;
        size_t *chain_of = rig_alloc(rig, J * sizeof *chain_of);
        if (!chain_of || !(rig->pose_order = rig_alloc(rig, desc->chain_count *
                                                                 sizeof *rig->pose_order))) {
            st = tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
            goto fail;
        }
        for (size_t c = 0; c < desc->chain_count; ++c)
            chain_of[rig->chains[c].joints[0]] = c;
        size_t k = 0;
        for (size_t j = 0; j < rig->joint_count; ++j)
            if (role[j] & 2)
                rig->pose_order[k++] = chain_of[j];
    }
    if ((st = plan_rig(fn, rig)) != TENDON_OK)
        goto fail;
    *out = rig;
    return TENDON_OK;
fail:
    tendon_spring_rig_destroy(rig);
    return st;
}

/* ---- queries -------------------------------------------------------------------------------- */

size_t tendon_spring_rig_chain_count(const tendon_spring_rig *rig)
{
    return rig ? rig->chain_count : 0;
}
size_t tendon_spring_rig_link_count(const tendon_spring_rig *rig)
{
    return rig ? rig->link_count : 0;
}
size_t tendon_spring_rig_chain_link_count(const tendon_spring_rig *rig, size_t chain)
{
    return rig && chain < rig->chain_count ? rig->chains[chain].n : 0;
}
uint32_t tendon_spring_rig_chain_joint(const tendon_spring_rig *rig, size_t chain, size_t k)
{
    return rig && chain < rig->chain_count && k <= rig->chains[chain].n
               ? rig->chains[chain].joints[k]
               : UINT32_MAX;
}
size_t tendon_spring_rig_chain_first_link(const tendon_spring_rig *rig, size_t chain)
{
    return rig && chain < rig->chain_count ? rig->chains[chain].first_link : 0;
}
size_t tendon_spring_rig_grid_count(const tendon_spring_rig *rig)
{
    return rig ? rig->grid_count : 0;
}
size_t tendon_spring_rig_grid_times(const tendon_spring_rig *rig, size_t grid)
{
    return rig && grid < rig->grid_count ? rig->grids[grid].times : 0;
}
size_t tendon_spring_rig_chain_times(const tendon_spring_rig *rig, size_t chain)
{
    return rig && chain < rig->chain_count ? rig->grids[rig->chains[chain].grid].times : 0;
}
size_t tendon_spring_rig_grid_joints(const tendon_spring_rig *rig, size_t grid)
{
    return rig && grid < rig->grid_count ? rig->grids[grid].slots : 0;
}

tendon_status tendon_spring_rig_chain_links(const tendon_spring_rig *rig, size_t chain,
                                            tendon_spring_link *out, size_t out_count)
{
    static const char fn[] = "tendon_spring_rig_chain_links";
    if (!rig || !out)
        return tendon_fail(TENDON_ERR_NULL, "%s: %s is NULL", fn, rig ? "out" : "rig");
    if (chain >= rig->chain_count)
        return tendon_fail(TENDON_ERR_RANGE, "%s: chain %zu of %zu", fn, chain, rig->chain_count);
    if (out_count < rig->chains[chain].n)
        return tendon_fail(TENDON_ERR_COUNT, "%s: out holds %zu links, %s has %zu", fn, out_count,
                           rig->chains[chain].name, rig->chains[chain].n);
    memcpy(out, rig->chains[chain].links, rig->chains[chain].n * sizeof *out);
    return TENDON_OK;
}

tendon_status tendon_spring_rig_workspace_size(const tendon_spring_rig *rig, size_t *out_bytes)
{
    if (!rig || !out_bytes)
        return tendon_fail(TENDON_ERR_NULL, "tendon_spring_rig_workspace_size: %s is NULL",
                           rig ? "out_bytes" : "rig");
    *out_bytes = rig->ws_bytes;
    return TENDON_OK;
}

/* ---- evaluation ----------------------------------------------------------------------------- */

static tendon_status check_workspace(const char *fn, const tendon_spring_rig *rig,
                                     const void *workspace, size_t bytes)
{
    if (!rig)
        return tendon_fail(TENDON_ERR_NULL, "%s: rig is NULL", fn);
    if (!workspace)
        return tendon_fail(TENDON_ERR_NULL,
                           "%s: workspace is NULL; it needs %zu bytes "
                           "(tendon_spring_rig_workspace_size)",
                           fn, rig->ws_bytes);
    if (bytes < rig->ws_bytes)
        return tendon_fail(TENDON_ERR_COUNT,
                           "%s: workspace_bytes is %zu and this rig needs %zu "
                           "(tendon_spring_rig_workspace_size)",
                           fn, bytes, rig->ws_bytes);
    return TENDON_OK;
}

/* A pose view of `count` joints of a compact pose from joint `first`. */
static tendon_pose view(float *base, size_t total, size_t first, size_t count)
{
    tendon_pose p;
    p.translation = base + 3 * first;
    p.rotation = base + 3 * total + 4 * first;
    p.scale = base + 7 * total + 3 * first;
    p.joint_count = count;
    return p;
}

/* `count` joints from joint b of a pose whose channels come from two: those in `channels` (1
   translation, 2 rotation, 4 scale) from `driven` (laid out t r s for `cap` joints), the
   others from `constant` (for `ccap` joints). The kernels only read it. */
static tendon_pose slot_view(float *driven, size_t cap, float *constant, size_t ccap,
                             unsigned channels, size_t b, size_t count)
{
    const tendon_pose d = view(driven, cap, b, count), c = view(constant, ccap, b, count);
    tendon_pose p;
    p.translation = channels & 1u ? d.translation : c.translation;
    p.rotation = channels & 2u ? d.rotation : c.rotation;
    p.scale = channels & 4u ? d.scale : c.scale;
    p.joint_count = count;
    return p;
}

/* The first `used` joints of a pose laid out t r s for `src_cap` joints into one for `dst_cap`. */
static void fill_chunk(float *dst, size_t dst_cap, const float *src, size_t src_cap, size_t used)
{
    memcpy(dst, src, 3 * used * sizeof(float));
    memcpy(dst + 3 * dst_cap, src + 3 * src_cap, 4 * used * sizeof(float));
    memcpy(dst + 7 * dst_cap, src + 7 * src_cap, 3 * used * sizeof(float));
}

/* From slot s0: whether it is an idle layer slot (then *s1 = s0 + 1), else the end of the run
   of slots that are not (*s1). */
static int idle_run(const rig_grid *gr, size_t s0, size_t *s1)
{
    if (gr->idle_count && gr->idle[s0]) {
        *s1 = s0 + 1;
        return 1;
    }
    size_t e = s0 + 1;
    while (e < gr->slots && !(gr->idle_count && gr->idle[e]))
        ++e;
    *s1 = e;
    return 0;
}

void tendon_add_zero_weight_make(int f32, const float d_translation[3],
                                 const float d_rotation[4], const float d_scale[3],
                                 float c[TENDON_ADD_ZERO_FLOATS], float q0[4])
{
    /* The translation's d.t·(+0) is ±0 or NaN, the scale's 1 + (d.s − 1)·(+0) is 1 or NaN: a
       float either way, and adding ±0 or NaN, or multiplying by 1 or NaN, is exact in float —
       so the exact tier's (float)((double)x + c) and (float)((double)x·c) are x + (float)c
       and x·(float)c, and both tiers apply one float pattern (16 joints of x y z: 48 floats
       of each) */
    float ct[3], cs[3];
    if (f32) { /* blend_f32_scalar.c's add_joint at w = +0.0f */
        const float w = 0.0f;
        for (int e = 0; e < 3; ++e) {
            ct[e] = d_translation[e] * w;
            cs[e] = 1.0f + (d_scale[e] - 1.0f) * w;
        }
        tendon_reff_slerp_from_identity(d_rotation, w, q0);
    } else { /* blend_scalar.c's add_joint at w = +0.0 */
        const double w = 0.0, id[4] = {0.0, 0.0, 0.0, 1.0};
        double qd[4], sq[4];
        for (int e = 0; e < 3; ++e) {
            ct[e] = (float)((double)d_translation[e] * w);
            cs[e] = (float)(1.0 + ((double)d_scale[e] - 1.0) * w);
        }
        tendon_ref_load4(d_rotation, qd);
        tendon_ref_slerp(id, qd, w, sq);
        for (int e = 0; e < 4; ++e)
            q0[e] = (float)sq[e]; /* the add kernels round the scaled delta before the product */
    }
    for (int i = 0; i < 48; ++i)
        c[i] = ct[i % 3], c[48 + i] = cs[i % 3];
}

void tendon_add_zero_weight_apply(const tendon_kernels *k, int f32,
                                  const float c[TENDON_ADD_ZERO_FLOATS], const float *q0,
                                  size_t count, tendon_pose *pose)
{
    float *t = pose->translation, *sc = pose->scale;
    const size_t n = 3 * count, whole = n - n % 48;
    for (size_t i0 = 0; i0 < whole; i0 += 48) /* whole patterns: the compiler vectorises */
        for (int i = 0; i < 48; ++i) {
            t[i0 + i] = t[i0 + i] + c[i];
            sc[i0 + i] = sc[i0 + i] * c[48 + i];
        }
    for (size_t i = whole; i < n; ++i) {
        t[i] = t[i] + c[i - whole];
        sc[i] = sc[i] * c[48 + i - whole];
    }
    tendon_add_zero_weight_rotate(k, f32, q0, count, pose->rotation);
}

int tendon_add_zero_weight_keeps(const float c[TENDON_ADD_ZERO_FLOATS])
{
    for (int e = 0; e < 3; ++e) {
        uint32_t bits;
        memcpy(&bits, &c[e], sizeof bits);
        if (bits != 0u || c[48 + e] != 1.0f)
            return 0;
    }
    return 1;
}

void tendon_add_zero_weight_rotate(const tendon_kernels *k, int f32, const float *q0,
                                   size_t count, float *rotation)
{
    /* q0 with one component ±1 and the others ±0 (the usual case: an identity delta): every
       product is exact and every sum has one term that is not ±0, so float arithmetic gives
       the exact tier's bits too, without the conversions to double */
    int axis = 0;
    for (int e = 0; e < 4; ++e)
        axis += q0[e] == 1.0f || q0[e] == -1.0f ? 1 : q0[e] == 0.0f ? 0 : 8;
    (f32 || axis == 1 ? k->quat_multiply_f32 : k->quat_multiply)(rotation, q0, count, rotation);
}

/* An idle layer slot's additive layer over its run (rig_grid.idle). */
static void idle_add(const tendon_kernels *k, const rig_grid *gr, int f32, float *pose0,
                     size_t cn, size_t s)
{
    const size_t R = gr->run, x = gr->idle[s] - 1;
    tendon_pose v = view(pose0, cn, s * R, R);
    tendon_add_zero_weight_apply(k, f32, gr->idle_c + TENDON_ADD_ZERO_FLOATS * x,
                                 gr->idle_q + 4 * R * x, R, &v);
}

static tendon_status evaluate_grid(const char *fn, const tendon_kernels *k,
                                   const tendon_spring_rig *rig, const rig_grid *gr, double time_sec,
                                   unsigned char *ws, const tendon_fpenv *env)
{
    /* a chunk's buffers slot by slot, each slot's run of R times consecutive (a time per lane):
       the kernels run over every run whole (m = n·R joints, the padding past a chunk's c
       times computed and never read) */
    const size_t T = gr->times, n = gr->slots, C = gr->chunk, R = gr->run, cn = rig->chunk_joints;
    const size_t np = gr->pinned, nc = gr->chain_count;
    const int f32 = rig->tier == TENDON_TIER_F32;
    double *times = (double *)(void *)(ws + gr->ws_times);
    double *ctimes = (double *)(void *)(ws + gr->ws_ctimes);
    float *pose[3] = {(float *)(void *)(ws + rig->ws_pose[0]), (float *)(void *)(ws + rig->ws_pose[1]),
                      (float *)(void *)(ws + rig->ws_pose[2])};
    float *model = (float *)(void *)(ws + rig->ws_model);
    float *qbuf = (float *)(void *)(ws + rig->ws_q);
    memcpy(model, gr->pinned_model, 16 * np * sizeof(float)); /* the pinned matrices */
    /* the weights: the blend's for one slot's run at [0, R) (the same at every slot), the
       layer's per joint at [cn, cn + m) (doubles on the exact tier, floats on the float32
       one), the chunk's times' own from double 2·cn */
    double *wd = (double *)(void *)(ws + rig->ws_weights), *ld = wd + cn, *wt = wd + 2 * cn;
    float *wf = (float *)(void *)(ws + rig->ws_weights), *lf = wf + cn;
    float *anchors = (float *)(void *)(ws + gr->ws_anchors);
    float *root = (float *)(void *)(ws + rig->ws_root);
    /* the times tendon_spring_chain_sample calls its root at */
    const double start = time_sec - gr->plan.lookback_sec;
    times[0] = start;
    for (size_t i = 1; i + 1 < T; ++i)
        times[i] = start + (double)i * gr->plan.step_sec;
    times[T - 1] = time_sec;
    const tendon_spring_rig_source *src = &rig->source;
    const tendon_rig_clip *rc[3] = {&src->base, &src->blend, &src->layer};
    for (int c = 0; c < 3; ++c)
        if (rig->clip[c]) {
            tendon_rig_clip_times_grid(rc[c], tendon_clip_duration(rig->clip[c]), times, T,
                                       ctimes + c * T);
        }
    const int additive = src->layer_mode == TENDON_RIG_LAYER_ADDITIVE;
    for (size_t i0 = 0; i0 < T; i0 += C) {
        const size_t c = T - i0 < C ? T - i0 : C, m = n * R; /* this chunk's times, joints */
        /* no NaN among the blend's weights; every layer weight in (0, 1] and no reference
           (the conditions of "Translations and scales left at rest", docs/springs.md) */
        int blend_plain = 0, layer_plain = 0;
        tendon_pose P = view(pose[0], cn, 0, m);
        if (src->kind == TENDON_RIG_SOURCE_TREE) {
            float *full = (float *)(void *)(ws + rig->ws_tree);
            const size_t J = rig->joint_count;
            tendon_pose fp = view(full, J, 0, J);
            const tendon_pose *rest = tendon_skeleton_rest_view(rig->skeleton);
            for (size_t i = 0; i < c; ++i) {
                tendon_pose_copy(rest, &fp);
                const tendon_status st =
                    tendon_blend_tree_evaluate_env(src->tree, times[i0 + i], &fp, env);
                if (st != TENDON_OK)
                    return st;
                for (size_t s = 0; s < n; ++s) {
                    const size_t j = gr->joints[s], b = s * R + i;
                    memcpy(P.translation + 3 * b, fp.translation + 3 * j, 3 * sizeof(float));
                    memcpy(P.rotation + 4 * b, fp.rotation + 4 * j, 4 * sizeof(float));
                    memcpy(P.scale + 3 * b, fp.scale + 3 * j, 3 * sizeof(float));
                }
            }
        } else if (m > 0) {
            /* base, blend, layer: each pose starts as the rest pose (the layer's as the identity
               or its reference), then its clip's tracks of these joints at these times */
            for (int q = 0; q < 3; ++q) {
                if (q > 0 && !rig->clip[q])
                    continue;
                /* P (q = 0) is layered in place, and a layer made a delta from its reference is
                   overwritten: both are filled every chunk. The blend and other layers hold
                   only their clips' channels: the rest the kernels read in place (slot_view) */
                if (q == 0 && !rig->clip[0] && rig->clip[1])
                    continue; /* the blend reads the rest pose itself (below) and writes P
                                 (only its rotations where it leaves the rest: rest_ts) */
                if (q == 0 || (q == 2 && rig->has_reference))
                    fill_chunk(pose[q], cn, q == 2 && additive ? gr->ident : gr->rest, m, m);
                if (!rig->clip[q])
                    continue;
                tendon_pose v = view(pose[q], cn, 0, m);
                uint32_t *hints = (uint32_t *)(void *)(ws + gr->ws_hints[q]);
                tendon_clip_sample_times_table(k, rig->clip[q], f32, gr->clips[q].tracks,
                                               gr->clips[q].slots, gr->clips[q].first,
                                               gr->clips[q].count, ctimes + q * T + i0, c, 1,
                                               R, hints, &v);
            }
            if (rig->clip[1]) { /* the blend's weights: every time's own, at each slot */
                weights_at(&src->blend_weight, times + i0, c, wt, env);
                /* no mask: every joint's weight is the time's, so one run of them serves every
                   slot (its lanes past c: earlier weights, or the fresh workspace's zeros —
                   computed with, never read) */
                blend_plain = 1;
                for (size_t i = 0; i < c; ++i)
                    blend_plain &= wt[i] == wt[i];
                if (f32) /* tendon_blend_weight_f32 without a mask */
                    for (size_t i = 0; i < c; ++i)
                        wf[i] = tendon_weight_to_f32(tendon_ref_clamp01(wt[i]));
                else
                    for (size_t i = 0; i < c; ++i)
                        wd[i] = tendon_blend_joint_weight(wt[i], NULL, 0);
            }
            if (rig->clip[2]) { /* the layer: its deltas, and its weights at each slot */
                /* a delta from the reference on runs of slots [s0, s1) that are not idle (all
                   of them but for an additive layer's idle slots: rig_grid.idle) */
                for (size_t s0 = 0, s1; s0 < n; s0 = s1) {
                    if (idle_run(gr, s0, &s1) || !rig->has_reference)
                        continue;
                    tendon_pose ref = view(gr->ident, m, s0 * R, (s1 - s0) * R);
                    tendon_pose lv = view(pose[2], cn, s0 * R, (s1 - s0) * R);
                    const tendon_status st =
                        (f32 ? tendon_pose_delta_f32 : tendon_pose_delta)(&ref, &lv, &lv);
                    if (st != TENDON_OK)
                        return st;
                }
                /* each joint's weight as the masked kernels form it (blend_scalar.c's
                   joint_weight: 0 where the clamped mask is 0, else t·m; the float tier then
                   clamps — below at 0 for an additive layer — and rounds once) */
                weights_at(&src->layer_weight, times + i0, c, wt, env);
                int common = 1; /* every time's weight in (0, 1] (NaN is not) */
                for (size_t i = 0; i < c; ++i)
                    common &= wt[i] > 0.0 && wt[i] <= 1.0;
                layer_plain = common && !rig->has_reference;
                if (common) {
                    /* the common case, without the branches, slot by slot: w·m ∈ [0, 1] (+0
                       where the mask is 0, as the rule below gives: mask01 holds no −0),
                       which the clamps, max0 and the float saturation leave as it is; mask01
                       is 1 without a mask */
                    for (size_t s = 0; s < n; ++s) {
                        const double ms = gr->mask01[s];
                        if (f32)
                            for (size_t i = 0; i < c; ++i)
                                lf[s * R + i] = (float)(wt[i] * ms);
                        else
                            for (size_t i = 0; i < c; ++i)
                                ld[s * R + i] = wt[i] * ms;
                    }
                }
                for (size_t i = 0; i < c && !common; ++i) {
                    const double w = wt[i];
                    for (size_t s = 0; s < n; ++s) {
                        const double m = gr->mask01[s];
                        const double raw = gr->mask && m == 0.0 ? 0.0 : w * m;
                        if (!f32)
                            ld[s * R + i] = gr->mask ? raw : w;
                        else if (additive)
                            lf[s * R + i] = tendon_weight_to_f32(tendon_ref_max0(raw));
                        else
                            lf[s * R + i] = tendon_weight_to_f32(tendon_ref_clamp01(raw));
                    }
                }
            }
        }
        /* slot by slot, parents before children (a parent's slot is lower: joints increase),
           each slot's stages one after the other while its run is in the first cache level
           (each joint-time's own arithmetic: the order of the slots changes no bit), over the
           chunk's times in whole vectors (cv; the lanes past them are never read):
           - the blend, P ← blend(P, Q, w(t)) (no base clip: P would be the rest pose, so the
             blend reads that directly), then the layer, P ← add or blend(P, L, w(t)·mask), or
             an idle slot's constant product;
           - where the stages leave a slot's translation and scale at rest (rest_ts and the
             chunk's weights), only its rotation computed — the blend's and layer's slerp,
             the additive layer's quat_add_weighted — and the matrices read the rest's
             translation and scale;
           - a joint no track drives back to its rest transform, exactly;
           - its local and model matrices at every time of the chunk, a time per lane (rows 0-2
             as planes: slot s's element e at time i is planes[16·R·s + R·e + i]), and an
             animated anchor joint's L(J0)·offset from its local matrices */
        const int layered = src->kind != TENDON_RIG_SOURCE_TREE && m > 0;
        float *planes = model + 16 * np, *lplanes = (float *)(void *)(ws + rig->ws_local);
        const size_t cv = (c + 15) / 16 * 16; /* the chunk's times in whole vectors (≤ R) */
        for (size_t sl = 0, r = 0; sl < n; ++sl) {
            const size_t b = sl * R;
            const int idle = gr->idle_count && gr->idle[sl];
            /* the blend leaves the translation and scale at rest (an idle slot's constants
               too: rest_ts); the layer too where its clip drives neither; so the matrices read
               the rest's. Not the float32 tier's additive layer: quat_add_weighted_f32 there
               measured 3-6 % slower in the demo at avx2 than the whole kernel (docs/springs.md) */
            const int blend_rest = layered && blend_plain && gr->rest_ts[sl];
            const int layer_rest = blend_rest && rig->clip[2] && layer_plain &&
                                   gr->mask01[sl] == gr->mask01[sl] && /* a NaN mask: NaN w */
                                   !(gr->channels[2][sl] & 5u) && !(f32 && additive);
            const int at_rest = blend_rest && (!rig->clip[2] || idle || layer_rest);
            const tendon_pose rv = view(gr->rest, m, b, cv);
            tendon_pose pv = view(pose[0], cn, b, cv);
            if (layered && rig->clip[1]) {
                const tendon_pose av = rig->clip[0] ? pv : rv,
                                  qv = slot_view(pose[1], cn, gr->rest, m, gr->channels[1][sl],
                                                 b, cv);
                if (blend_rest) /* pose_blend_weighted's rotations */
                    (f32 ? k->quat_slerp_f32(av.rotation, qv.rotation, wf, cv, pv.rotation)
                         : k->quat_slerp(av.rotation, qv.rotation, wd, cv, pv.rotation));
                else if (f32)
                    k->pose_blend_weighted_f32(&av, &qv, wf, cv, &pv);
                else
                    k->pose_blend_weighted(&av, &qv, wd, cv, &pv);
            }
            if (layered && rig->clip[2]) {
                const tendon_pose lv =
                    rig->has_reference
                        ? view(pose[2], cn, b, cv)
                        : slot_view(pose[2], cn, additive ? gr->ident : gr->rest, m,
                                    gr->channels[2][sl], b, cv);
                tendon_pose base = pv; /* the blend's output: its rest channels where kept */
                if (blend_rest)
                    base.translation = rv.translation, base.scale = rv.scale;
                if (idle && blend_rest) {
                    tendon_add_zero_weight_rotate(k, f32, gr->idle_q + 4 * R * (gr->idle[sl] - 1),
                                                  R, pv.rotation);
                } else if (idle) {
                    idle_add(k, gr, f32, pose[0], cn, sl);
                } else if (layer_rest && additive) { /* pose_add_weighted's rotations */
                    k->quat_add_weighted(pv.rotation, lv.rotation, ld + b, cv, pv.rotation);
                } else if (layer_rest) { /* pose_blend_weighted's rotations */
                    (f32 ? k->quat_slerp_f32(pv.rotation, lv.rotation, lf + b, cv, pv.rotation)
                         : k->quat_slerp(pv.rotation, lv.rotation, ld + b, cv, pv.rotation));
                } else if (additive) {
                    (f32 ? (void)k->pose_add_weighted_f32(&base, &lv, lf + b, cv, &pv)
                         : (void)k->pose_add_weighted(&base, &lv, ld + b, cv, &pv));
                } else {
                    (f32 ? (void)k->pose_blend_weighted_f32(&base, &lv, lf + b, cv, &pv)
                         : (void)k->pose_blend_weighted(&base, &lv, ld + b, cv, &pv));
                }
            }
            if (r < gr->restore_count && gr->restore[r] == sl) { /* increasing slots */
                ++r;
                for (size_t i = 0; i < c; ++i) {
                    memcpy(P.translation + 3 * (b + i), gr->rest + 3 * (b + i), 3 * sizeof(float));
                    memcpy(P.rotation + 4 * (b + i), gr->rest + 3 * m + 4 * (b + i),
                           4 * sizeof(float));
                    memcpy(P.scale + 3 * (b + i), gr->rest + 7 * m + 3 * (b + i), 3 * sizeof(float));
                }
            }
            const float *par = gr->parent_slot[sl] >= 0
                                   ? planes + 16 * R * (size_t)gr->parent_slot[sl]
                               : gr->parent_pin[sl] >= 0 ? model + 16 * (size_t)gr->parent_pin[sl]
                                                          : NULL;
            k->local_model_lanes(at_rest ? rv.translation : P.translation + 3 * b,
                                 P.rotation + 4 * b, at_rest ? rv.scale : P.scale + 3 * b, cv,
                                 par, gr->parent_slot[sl] >= 0 ? R : 0,
                                 gr->j0_local[sl] ? lplanes : NULL, planes + 16 * R * sl, R);
            if (!gr->j0_local[sl])
                continue;
            for (size_t q = 0; q < rig->chain_count; ++q) {
                const rig_chain *ch = &rig->chains[q];
                if (&rig->grids[ch->grid] == gr && ch->j0_animated && ch->j0_slot == sl)
                    k->transform_points_lanes(lplanes, R, ch->offset, 0, cv, qbuf + 3 * R * ch->in_grid,
                                              R);
            }
        }
        /* the anchors, chain by chain over the chunk's times, into their planes (x y z, each
           anchor_run floats: time i0 + i at [i0 + i]; whole vectors, up to cv − c lanes past
           the chunk's times, which the next chunk overwrites or nothing reads) */
        const size_t AR = gr->anchor_run;
        for (size_t o = 0; o < nc; ++o) {
            const rig_anchor_op *op = &gr->ops[o];
            float *dst = anchors + op->dst + i0;
            const float *qv = op->qslot >= 0 ? qbuf + 3 * R * (size_t)op->qslot : op->q;
            const size_t qs = op->qslot >= 0 ? R : 0;
            switch (op->parent_kind) {
            case PARENT_DYNAMIC:
                k->transform_points_lanes(planes + 16 * R * op->parent_index, R, qv, qs, cv, dst,
                                          AR);
                break;
            case PARENT_PINNED:
                k->transform_points_lanes(model + 16 * (size_t)op->parent_index, 0, qv, qs, cv,
                                          dst, AR);
                break;
            default: /* none (the anchor is L(J0)·offset) or constant (fixed) */
                for (int e = 0; e < 3; ++e)
                    for (size_t i = 0; i < c; ++i)
                        dst[e * AR + i] = op->parent_kind == PARENT_NONE
                                              ? (qs ? qv[e * qs + i] : qv[e])
                                              : op->fixed[e];
            }
        }
        if (rig->root) { /* placed in the world: the root transform once per time, in order */
            for (size_t i = 0; i < c; ++i) {
                const size_t ti = i0 + i;
                float r[16];
                tendon_fpenv_to_caller(env); /* the user's root transform */
                const tendon_status st = rig->root(rig->root_user, times[ti], r);
                tendon_fpenv_from_caller(env);
                if (st != TENDON_OK)
                    return root_failed(fn, st, times[ti]);
                if (ti + 1 == T)
                    memcpy(root, r, sizeof r);
                for (size_t o = 0; o < nc; ++o) {
                    float *dst = anchors + gr->ops[o].dst + ti, p[3];
                    for (int e = 0; e < 3; ++e)
                        p[e] = dst[e * gr->anchor_run];
                    xform_point(r, p, p);
                    for (int e = 0; e < 3; ++e)
                        dst[e * gr->anchor_run] = p[e];
                }
            }
        }
    }
    return TENDON_OK;
}

static tendon_status rig_evaluate(const tendon_kernels *given, const tendon_spring_rig *rig,
                                  double time_sec, void *workspace, size_t workspace_bytes,
                                  const tendon_fpenv *env)
{
    static const char fn[] = "tendon_spring_rig_evaluate";
    tendon_status st = check_workspace(fn, rig, workspace, workspace_bytes);
    if (st != TENDON_OK)
        return st;
    if (!(time_sec - time_sec == 0.0))
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: time_sec is %g: the rig samples finite times", fn, time_sec);
    for (size_t g = 0; g < rig->grid_count; ++g) /* evaluate_grid's first and last times */
        if ((st = check_clip_sums(fn, rig, time_sec - rig->grids[g].plan.lookback_sec,
                                  time_sec)) != TENDON_OK)
            return st;
    const tendon_kernels *k = given;
    if (!k && (st = tendon_active_kernels(&k)) != TENDON_OK)
        return st;
    unsigned char *ws = align64(workspace);
    rig_header *h = (rig_header *)(void *)ws;
    if (!header_is(h, rig)) { /* a fresh workspace: zero the hints */
        memset(ws, 0, rig->ws_bytes - 63);
        h->magic = RIG_MAGIC;
        h->rig = rig;
        h->serial = rig->serial;
    }
    h->valid = 0;
    for (size_t g = 0; g < rig->grid_count; ++g)
        if ((st = evaluate_grid(fn, k, rig, &rig->grids[g], time_sec, ws, env)) != TENDON_OK)
            return st;
    h->time_sec = time_sec;
    h->valid = 1;
    return TENDON_OK;
}

tendon_status tendon_spring_rig_evaluate_on(const tendon_kernels *given,
                                            const tendon_spring_rig *rig, double time_sec,
                                            void *workspace, size_t workspace_bytes)
{
    TENDON_FPENV_GUARD();
    return rig_evaluate(given, rig, time_sec, workspace, workspace_bytes, TENDON_FPENV_HERE);
}

tendon_status tendon_spring_rig_evaluate(const tendon_spring_rig *rig, double time_sec,
                                         void *workspace, size_t workspace_bytes)
{
    return tendon_spring_rig_evaluate_on(NULL, rig, time_sec, workspace, workspace_bytes);
}

/* ---- the march ------------------------------------------------------------------------------ */

typedef struct feed {
    const float *anchors; /* per chain, x y z planes of `run` floats (time i at [i]) */
    const double *times;
    size_t chains, calls, count, run;
    int bad;
} feed;

static void feed_root(void *user, double time_sec, float *out)
{
    feed *f = user;
    if (f->calls >= f->count || memcmp(&f->times[f->calls], &time_sec, sizeof time_sec) != 0) {
        f->bad = 1;
        return;
    }
    const float *a = f->anchors + f->calls;
    for (size_t e = 0; e < 3 * f->chains; ++e) /* chain e / 3's coordinate e % 3 */
        out[e] = a[e * f->run];
    ++f->calls;
}

static const rig_header *evaluated(const char *fn, const tendon_spring_rig *rig,
                                   const void *workspace, double time_sec, tendon_status *st)
{
    const rig_header *h = (const rig_header *)(const void *)align64((void *)(uintptr_t)workspace);
    if (!header_is(h, rig) || !h->valid ||
        memcmp(&h->time_sec, &time_sec, sizeof time_sec) != 0) {
        *st = tendon_fail(TENDON_ERR_VALUE,
                          "%s: the workspace holds no evaluation of this rig at time_sec %.17g: "
                          "call tendon_spring_rig_evaluate with it first",
                          fn, time_sec);
        return NULL;
    }
    *st = TENDON_OK;
    return h;
}

tendon_status tendon_spring_rig_march_on(const tendon_kernels *given, const tendon_spring_rig *rig,
                                         double time_sec, void *workspace, size_t workspace_bytes,
                                         float *out_positions, size_t out_count, tendon_pose *pose)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_spring_rig_march";
    tendon_status st = check_workspace(fn, rig, workspace, workspace_bytes);
    if (st != TENDON_OK)
        return st;
    if (!out_positions && !pose)
        return tendon_fail(TENDON_ERR_NULL, "%s: out_positions and pose are both NULL", fn);
    if (out_positions) {
        if (out_count < 3 * rig->link_count)
            return tendon_fail(TENDON_ERR_COUNT,
                               "%s: out_positions holds %zu floats and the rig's %zu links need "
                               "%zu",
                               fn, out_count, rig->link_count, 3 * rig->link_count);
        if ((st = tendon_check_array(fn, "out_positions", out_positions, 3 * rig->link_count,
                                     1)) != TENDON_OK)
            return st;
        if (tendon_ranges_overlap(out_positions, 3 * rig->link_count * sizeof(float), workspace,
                                  workspace_bytes))
            return tendon_fail(TENDON_ERR_ALIAS, "%s: out_positions overlaps the workspace", fn);
    }
    if (pose) {
        if ((st = tendon_check_pose(fn, "pose", pose)) != TENDON_OK)
            return st;
        if (pose->joint_count != rig->joint_count)
            return tendon_fail(TENDON_ERR_COUNT, "%s: pose has %zu joints, the skeleton %zu", fn,
                               pose->joint_count, rig->joint_count);
        const size_t b = pose->joint_count * sizeof(float);
        if (tendon_ranges_overlap(pose->translation, 3 * b, workspace, workspace_bytes) ||
            tendon_ranges_overlap(pose->rotation, 4 * b, workspace, workspace_bytes) ||
            tendon_ranges_overlap(pose->scale, 3 * b, workspace, workspace_bytes))
            return tendon_fail(TENDON_ERR_ALIAS, "%s: the pose overlaps the workspace", fn);
        if (out_positions &&
            (tendon_ranges_overlap(out_positions, 3 * rig->link_count * sizeof(float),
                                   pose->translation, 3 * b) ||
             tendon_ranges_overlap(out_positions, 3 * rig->link_count * sizeof(float),
                                   pose->rotation, 4 * b) ||
             tendon_ranges_overlap(out_positions, 3 * rig->link_count * sizeof(float),
                                   pose->scale, 3 * b)))
            return tendon_fail(TENDON_ERR_ALIAS, "%s: out_positions overlaps the pose", fn);
    }
    if (!evaluated(fn, rig, workspace, time_sec, &st))
        return st;
    const tendon_kernels *k = given;
    if (!k && (st = tendon_active_kernels(&k)) != TENDON_OK)
        return st;
    unsigned char *ws = align64(workspace);
    float *positions = (float *)(void *)(ws + rig->ws_positions);
    void *march_ws = ws + rig->ws_march;
    float *batch_out = (float *)(void *)(ws + rig->ws_batch_out);
    for (size_t b = 0; b < rig->batch_count; ++b) {
        const rig_batch *bt = &rig->batches[b];
        const rig_grid *gr = &rig->grids[bt->grid];
        const rig_chain *first = &rig->chains[bt->first_chain_of];
        feed f = {(const float *)(const void *)(ws + gr->ws_anchors) + bt->anchors_at,
                  (const double *)(const void *)(ws + gr->ws_times), bt->chain_count, 0,
                  gr->times, gr->anchor_run, 0};
        /* a single chain straight into its place; a batch chain-major into the batch scratch,
           then each chain's links into theirs */
        const size_t per = 3 * first->n;
        float *dst = bt->chain_count == 1 ? positions + 3 * first->first_link : batch_out;
        st = tendon_spring_chain_sample_plain(fn, k, first->links, first->n, rig->lookback,
                                              feed_root, &f, time_sec, rig->max_work,
                                              bt->chain_count, march_ws, rig->march_bytes, dst,
                                              per * bt->chain_count);
        if (st == TENDON_OK && bt->chain_count > 1)
            for (size_t m = 0; m < bt->chain_count; ++m)
                memcpy(positions + 3 * rig->chains[bt->chains[m]].first_link, batch_out + per * m,
                       per * sizeof(float));
        if (st != TENDON_OK)
            return st;
        if (f.bad || f.calls != gr->times)
            return tendon_fail(TENDON_ERR_VALUE,
                               "%s: the workspace's evaluation was overwritten since it was made "
                               "(another workspace overlapping this one, evaluated in between?): "
                               "the march asked for its root at times it does not hold (call %zu "
                               "of %zu); evaluate again",
                               fn, f.calls, gr->times);
    }
    if (pose) {
        const tendon_pose *rest = tendon_skeleton_rest_view(rig->skeleton);
        const float *root = rig->root ? (const float *)(const void *)(ws + rig->ws_root) : NULL;
        for (size_t c = 0; c < rig->chain_count; ++c) {
            const rig_chain *ch = &rig->chains[rig->pose_order[c]];
            chain_pose_core(rig->parents, rest, ch->joints, ch->n + 1,
                            positions + 3 * ch->first_link, root, pose);
        }
    }
    if (out_positions)
        memcpy(out_positions, positions, 3 * rig->link_count * sizeof(float));
    return TENDON_OK;
}

tendon_status tendon_spring_rig_march(const tendon_spring_rig *rig, double time_sec,
                                      void *workspace, size_t workspace_bytes,
                                      float *out_positions, size_t out_count, tendon_pose *pose)
{
    return tendon_spring_rig_march_on(NULL, rig, time_sec, workspace, workspace_bytes,
                                      out_positions, out_count, pose);
}

tendon_status tendon_spring_rig_sample(const tendon_spring_rig *rig, double time_sec,
                                       void *workspace, size_t workspace_bytes,
                                       float *out_positions, size_t out_count, tendon_pose *pose)
{
    TENDON_FPENV_GUARD();
    if (!out_positions && !pose)
        return tendon_fail(TENDON_ERR_NULL,
                           "tendon_spring_rig_sample: out_positions and pose are both NULL");
    tendon_status st =
        rig_evaluate(NULL, rig, time_sec, workspace, workspace_bytes, TENDON_FPENV_HERE);
    if (st != TENDON_OK)
        return st;
    return tendon_spring_rig_march(rig, time_sec, workspace, workspace_bytes, out_positions,
                                   out_count, pose);
}

tendon_status tendon_spring_rig_evaluated_anchors(const tendon_spring_rig *rig,
                                                  const void *workspace, size_t workspace_bytes,
                                                  size_t chain, float *out, size_t out_count,
                                                  double *out_times, size_t time_count)
{
    static const char fn[] = "tendon_spring_rig_evaluated_anchors";
    tendon_status st = check_workspace(fn, rig, workspace, workspace_bytes);
    if (st != TENDON_OK)
        return st;
    if (!out)
        return tendon_fail(TENDON_ERR_NULL, "%s: out is NULL", fn);
    if (chain >= rig->chain_count)
        return tendon_fail(TENDON_ERR_RANGE, "%s: chain %zu of %zu", fn, chain, rig->chain_count);
    const rig_header *h = (const rig_header *)(const void *)align64((void *)(uintptr_t)workspace);
    if (!header_is(h, rig) || !h->valid) /* no time to quote: none is held */
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: the workspace holds no evaluation of this rig: call "
                           "tendon_spring_rig_evaluate with it first",
                           fn);
    const rig_chain *ch = &rig->chains[chain];
    const rig_batch *bt = &rig->batches[ch->batch];
    const rig_grid *gr = &rig->grids[ch->grid];
    if (out_count < 3 * gr->times || (out_times && time_count < gr->times))
        return tendon_fail(TENDON_ERR_COUNT, "%s: %s has %zu anchor times (%zu floats)", fn,
                           ch->name, gr->times, 3 * gr->times);
    if ((st = tendon_check_array(fn, "out", out, gr->times, 3)) != TENDON_OK ||
        (out_times && (st = tendon_check_array_f64(fn, "out_times", out_times, gr->times)) !=
                          TENDON_OK))
        return st;
    /* written while the workspace is read */
    const int out_over =
        tendon_ranges_overlap(out, 3 * gr->times * sizeof(float), workspace, workspace_bytes);
    if (out_over || (out_times && tendon_ranges_overlap(out_times, gr->times * sizeof(double),
                                                        workspace, workspace_bytes)))
        return tendon_fail(TENDON_ERR_ALIAS, "%s: %s overlaps the workspace, which it is read from",
                           fn, out_over ? "out" : "out_times");
    const unsigned char *ws = (const unsigned char *)h;
    const float *anchors = (const float *)(const void *)(ws + gr->ws_anchors) + bt->anchors_at;
    const float *a = anchors + 3 * gr->anchor_run * ch->in_batch;
    for (size_t i = 0; i < gr->times; ++i)
        for (int e = 0; e < 3; ++e)
            out[3 * i + e] = a[e * gr->anchor_run + i];
    if (out_times)
        memcpy(out_times, ws + gr->ws_times, gr->times * sizeof(double));
    return TENDON_OK;
}

/* ---- the single-time reference -------------------------------------------------------------- */

/* The public call whose arguments these are (its name, and what it calls the two poses). */
typedef struct source_args {
    const char *fn, *pose, *scratch;
} source_args;

static tendon_status source_pose_clips(const source_args *a, const tendon_spring_rig *rig,
                                       double time_sec, tendon_pose *scratch, tendon_pose *pose,
                                       const tendon_fpenv *env);

static tendon_status rig_source_pose(const source_args *a, const tendon_spring_rig *rig,
                                     double time_sec, tendon_pose *scratch, tendon_pose *pose,
                                     const tendon_fpenv *env)
{
    tendon_status st = source_pose_clips(a, rig, time_sec, scratch, pose, env);
    if (st != TENDON_OK || rig->source.kind == TENDON_RIG_SOURCE_TREE)
        return st;
    /* joints no track drives hold their rest transform exactly */
    const tendon_pose *rest = tendon_skeleton_rest_view(rig->skeleton);
    for (size_t j = 0; j < rig->joint_count; ++j)
        if (!rig->animated[j]) {
            memcpy(pose->translation + 3 * j, rest->translation + 3 * j, 3 * sizeof(float));
            memcpy(pose->rotation + 4 * j, rest->rotation + 4 * j, 4 * sizeof(float));
            memcpy(pose->scale + 3 * j, rest->scale + 3 * j, 3 * sizeof(float));
        }
    return TENDON_OK;
}

tendon_status tendon_spring_rig_source_pose(const tendon_spring_rig *rig, double time_sec,
                                            tendon_pose *scratch, tendon_pose *pose)
{
    TENDON_FPENV_GUARD();
    static const source_args a = {"tendon_spring_rig_source_pose", "pose", "scratch"};
    return rig_source_pose(&a, rig, time_sec, scratch, pose, TENDON_FPENV_HERE);
}

static tendon_status source_pose_clips(const source_args *a, const tendon_spring_rig *rig,
                                       double time_sec, tendon_pose *scratch, tendon_pose *pose,
                                       const tendon_fpenv *env)
{
    const char *fn = a->fn;
    if (!rig)
        return tendon_fail(TENDON_ERR_NULL, "%s: rig is NULL", fn);
    tendon_status st = tendon_check_pose(fn, a->pose, pose);
    if (st != TENDON_OK)
        return st;
    if (pose->joint_count != rig->joint_count)
        return tendon_fail(TENDON_ERR_COUNT, "%s: %s has %zu joints, the skeleton %zu", fn,
                           a->pose, pose->joint_count, rig->joint_count);
    if (!(time_sec - time_sec == 0.0))
        return tendon_fail(TENDON_ERR_VALUE, "%s: time_sec is %g: the rig samples finite times",
                           fn, time_sec);
    if ((st = check_clip_sums(fn, rig, time_sec, time_sec)) != TENDON_OK)
        return st;
    const tendon_pose *rest = tendon_skeleton_rest_view(rig->skeleton);
    const tendon_spring_rig_source *src = &rig->source;
    if ((st = tendon_pose_copy(rest, pose)) != TENDON_OK)
        return st;
    if (src->kind == TENDON_RIG_SOURCE_TREE)
        return tendon_blend_tree_evaluate_env(src->tree, time_sec, pose, env);
    const int f32 = rig->tier == TENDON_TIER_F32;
    tendon_status (*sample)(const tendon_clip *, double, tendon_pose *) =
        f32 ? tendon_clip_sample_f32 : tendon_clip_sample;
    if (rig->clip[0] && (st = sample(rig->clip[0], clip_time(&src->base, time_sec), pose)) !=
                            TENDON_OK)
        return st;
    if (!rig->clip[1] && !rig->clip[2])
        return TENDON_OK;
    if (!scratch)
        return tendon_fail(TENDON_ERR_NULL,
                           "%s: %s is NULL, and this source blends or layers a second clip", fn,
                           a->scratch);
    if ((st = tendon_check_pose(fn, a->scratch, scratch)) != TENDON_OK)
        return st;
    if (scratch->joint_count != rig->joint_count)
        return tendon_fail(TENDON_ERR_COUNT, "%s: %s has %zu joints, the skeleton %zu", fn,
                           a->scratch, scratch->joint_count, rig->joint_count);
    /* the second clip is sampled into scratch while pose holds the first */
    if ((st = tendon_check_poses_apart(fn, a->scratch, scratch, a->pose, pose)) != TENDON_OK)
        return st;
    tendon_pose q = *scratch;
    if (rig->clip[1]) {
        tendon_pose_copy(rest, &q);
        if ((st = sample(rig->clip[1], clip_time(&src->blend, time_sec), &q)) != TENDON_OK ||
            (st = (f32 ? tendon_pose_blend_f32 : tendon_pose_blend)(
                 pose, &q, weight_at(&src->blend_weight, time_sec, env), pose)) != TENDON_OK)
            return st;
    }
    if (rig->clip[2]) {
        const int additive = src->layer_mode == TENDON_RIG_LAYER_ADDITIVE;
        if (additive && rig->has_reference)
            tendon_pose_copy(&rig->reference, &q);
        else if (additive)
            tendon_pose_set_identity(&q);
        else
            tendon_pose_copy(rest, &q);
        if ((st = sample(rig->clip[2], clip_time(&src->layer, time_sec), &q)) != TENDON_OK)
            return st;
        if (rig->has_reference &&
            (st = (f32 ? tendon_pose_delta_f32 : tendon_pose_delta)(&rig->reference, &q, &q)) !=
                TENDON_OK)
            return st;
        const double w = weight_at(&src->layer_weight, time_sec, env);
        if (additive)
            st = rig->mask ? (f32 ? tendon_pose_add_masked_f32 : tendon_pose_add_masked)(
                                 pose, &q, w, rig->mask, pose)
                           : (f32 ? tendon_pose_add_f32 : tendon_pose_add)(pose, &q, w, pose);
        else
            st = rig->mask ? (f32 ? tendon_pose_blend_masked_f32 : tendon_pose_blend_masked)(
                                 pose, &q, w, rig->mask, pose)
                           : (f32 ? tendon_pose_blend_f32 : tendon_pose_blend)(pose, &q, w, pose);
    }
    return st;
}

tendon_status tendon_spring_rig_anchor(const tendon_spring_rig *rig, size_t chain, double time_sec,
                                       tendon_pose *scratch_pose, tendon_pose *scratch_pose2,
                                       float *scratch_model, float out[3])
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_spring_rig_anchor";
    if (!rig || !scratch_model || !out)
        return tendon_fail(TENDON_ERR_NULL, "%s: %s is NULL", fn,
                           !rig ? "rig" : !scratch_model ? "scratch_model" : "out");
    if (chain >= rig->chain_count)
        return tendon_fail(TENDON_ERR_RANGE, "%s: chain %zu of %zu", fn, chain, rig->chain_count);
    static const source_args a = {fn, "scratch_pose", "scratch_pose2"};
    tendon_status st =
        rig_source_pose(&a, rig, time_sec, scratch_pose2, scratch_pose, TENDON_FPENV_HERE);
    if (st != TENDON_OK ||
        (st = tendon_pose_model_matrices(rig->skeleton, scratch_pose, NULL, scratch_model)) !=
            TENDON_OK)
        return st;
    /* anchor = M(parent of J0) · (L(J0) · (offset, 1)), L from J0's transform in the pose */
    const rig_chain *ch = &rig->chains[chain];
    const size_t j0 = ch->joints[0];
    float local[16], p[3];
    tendon_kernels_for(TENDON_ISA_SCALAR)
        ->local_matrices(scratch_pose->translation + 3 * j0, scratch_pose->rotation + 4 * j0,
                         scratch_pose->scale + 3 * j0, 1, local);
    xform_point(local, ch->offset, p);
    if (rig->parents[j0] >= 0)
        xform_point(scratch_model + 16 * (size_t)rig->parents[j0], p, p);
    if (rig->root) {
        float r[16];
        tendon_fpenv_to_caller(TENDON_FPENV_HERE); /* the user's root transform */
        st = rig->root(rig->root_user, time_sec, r);
        tendon_fpenv_from_caller(TENDON_FPENV_HERE);
        if (st != TENDON_OK)
            return root_failed(fn, st, time_sec);
        xform_point(r, p, p);
    }
    memcpy(out, p, sizeof p);
    return TENDON_OK;
}

/* ---- positions → rotations on their own ----------------------------------------------------- */

tendon_status tendon_spring_chain_pose(const tendon_skeleton *skeleton, const uint32_t *joints,
                                       size_t joint_count, const float *positions,
                                       const float *root_matrix, tendon_pose *pose)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_spring_chain_pose";
    if (!skeleton || !joints || !positions)
        return tendon_fail(TENDON_ERR_NULL, "%s: %s is NULL", fn,
                           !skeleton ? "skeleton" : !joints ? "joints" : "positions");
    tendon_status st = tendon_check_pose(fn, "pose", pose);
    if (st != TENDON_OK)
        return st;
    const size_t J = tendon_skeleton_joint_count(skeleton);
    if (pose->joint_count != J)
        return tendon_fail(TENDON_ERR_COUNT, "%s: pose has %zu joints, the skeleton %zu", fn,
                           pose->joint_count, J);
    if (joint_count < 2)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: joint_count is %zu: a chain is an anchor joint and at least one "
                           "link",
                           fn, joint_count);
    if (joint_count > J)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: joint_count is %zu and the skeleton has %zu joints: a parent → "
                           "child path passes each joint once at most",
                           fn, joint_count, J);
    if ((st = tendon_check_array(fn, "joints", joints, joint_count, 1)) != TENDON_OK ||
        (st = tendon_check_array(fn, "positions", positions, joint_count - 1, 3)) != TENDON_OK ||
        (root_matrix && (st = tendon_check_array(fn, "root_matrix", root_matrix, 1, 16)) !=
                            TENDON_OK))
        return st;
    if (tendon_ranges_overlap(positions, 3 * (joint_count - 1) * sizeof(float), pose->rotation,
                              4 * J * sizeof(float)))
        return tendon_fail(TENDON_ERR_ALIAS,
                           "%s: positions overlaps the pose's rotations, which it writes", fn);
    /* the joints are read again after each rotation is written: held in the rotations, a
       written float became an index far out of range */
    if (tendon_ranges_overlap(joints, joint_count * sizeof(uint32_t), pose->rotation,
                              4 * J * sizeof(float)))
        return tendon_fail(TENDON_ERR_ALIAS,
                           "%s: joints overlaps the pose's rotations, which it writes", fn);
    const int32_t *parents = tendon_skeleton_parents(skeleton);
    for (size_t k = 0; k < joint_count; ++k) {
        if (joints[k] >= J)
            return tendon_fail(TENDON_ERR_RANGE, "%s: joints[%zu] is %u, not below %zu", fn, k,
                               (unsigned)joints[k], J);
        if (k > 0 && parents[joints[k]] != (int32_t)joints[k - 1]) {
            char a[96], b[96];
            return tendon_fail(TENDON_ERR_VALUE,
                               "%s: not a parent → child path: %s is not a child of %s", fn,
                               jname(skeleton, joints[k], a), jname(skeleton, joints[k - 1], b));
        }
    }
    chain_pose_core(parents, tendon_skeleton_rest_view(skeleton), joints, joint_count, positions,
                    root_matrix, pose);
    return TENDON_OK;
}
