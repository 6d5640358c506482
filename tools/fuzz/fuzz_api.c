/*
 * libFuzzer target: the public API (docs/fuzzing.md).
 *
 * A fuzz input is read as a little program: a sequence of operations, each an opcode byte and
 * the bytes its arguments are decoded from (counts capped, floats and doubles drawn from a table
 * of edge values — 0, −0, ±1, NaN, ±∞, the smallest denormal, FLT_MAX, … — or taken raw, so
 * every bit pattern can occur). Each operation builds what it needs (poses of odd counts,
 * skeletons with random parents, clips with random keys and times, springs, meshes, trees and
 * state machines), calls the entry points of its module with it, and frees it again.
 *
 * The program runs once per ISA this CPU supports (tendon_isa_force), and every status and every
 * output is recorded (NaNs by class: docs/determinism.md). The contract checked, aborting with a
 * message on a violation:
 *   1. no crash, hang, leak or out-of-bounds access (ASan + UBSan; buffers are allocated to
 *      their exact size so that one float too far is a report);
 *   2. a refused call (status ≠ TENDON_OK) writes nothing: every output buffer is snapshotted
 *      before the call (fresh ones filled with a sentinel pattern) and compared after — and it
 *      leaves a message;
 *   3. every ISA gives the scalar bits: the record of each ISA's run equals scalar's, status by
 *      status and bit by bit; the `_on(k, …)` forms are also called on every kernel table that
 *      runs here (emulated NEON included) against the scalar table;
 *   4. sampling is pure: the same sample twice gives the same bits;
 *   5. the clip cursor never changes a result (a garbage cursor gives tendon_clip_sample's
 *      bits), and the documented equalities hold: many-times sampling == one time at a time,
 *      a batch of springs == each spring alone, a chain under its own budget == the default,
 *      the prepared skin mesh == tendon_skin, float(out64) == out.
 * Work per input is bounded: at most OPS_MAX operations, small counts, and springs whose
 * planned substeps exceed SPRING_STEPS_CAP are not marched (the library's own bound is 2^24
 * substeps, seconds under ASan).
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tendon/kernels.h>
#include <tendon/tendon.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { OPS_MAX = 24, SPRING_STEPS_CAP = 1 << 14 };
#define CHAIN_WORK_CAP ((uint64_t)1 << 15)

/* ---- reading the input ------------------------------------------------------------------- */

typedef struct reader {
    const uint8_t *p;
    size_t n, i;
} reader;

static reader R; /* the input of the current run */

static uint8_t u8(void) { return R.i < R.n ? R.p[R.i++] : 0; }
static uint32_t u32(void)
{
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k)
        v |= (uint32_t)u8() << (8 * k);
    return v;
}
static uint64_t u64(void) { return (uint64_t)u32() | (uint64_t)u32() << 32; }
static size_t upto(size_t max) { return (size_t)u8() % (max + 1); }

static float fval(void)
{
    const uint8_t tag = u8();
    switch (tag % 24) {
    case 0: return 0.0f;
    case 1: return -0.0f;
    case 2: return 1.0f;
    case 3: return -1.0f;
    case 4: return 0.5f;
    case 5: return NAN;
    case 6: return INFINITY;
    case 7: return -INFINITY;
    case 8: return 1.4e-45f; /* the smallest denormal */
    case 9: return FLT_MAX;
    case 10: return FLT_MIN;
    case 11: return -FLT_MAX;
    case 12: return 1e-20f;
    case 13: return 1e20f;
    case 14: {
        uint32_t b = u32();
        float f;
        memcpy(&f, &b, sizeof f);
        return f;
    }
    default: return (float)(int8_t)u8() / 32.0f; /* ordinary values, most of the time */
    }
}

static double dval(void)
{
    const uint8_t tag = u8();
    switch (tag % 24) {
    case 0: return 0.0;
    case 1: return -0.0;
    case 2: return 1.0;
    case 3: return -1.0;
    case 4: return 0.5;
    case 5: return NAN;
    case 6: return INFINITY;
    case 7: return -INFINITY;
    case 8: return 4.9e-324;
    case 9: return DBL_MAX;
    case 10: return -DBL_MAX;
    case 11: return 1e-300;
    case 12: return 1e15;
    case 13: return 2.0;
    case 14: {
        uint64_t b = u64();
        double d;
        memcpy(&d, &b, sizeof d);
        return d;
    }
    default: return (double)(int8_t)u8() / 16.0;
    }
}

static void fvals(float *out, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        out[i] = fval();
}

/* A quaternion: usually unit length from small integers, sometimes raw values. */
static void quat(float q[4])
{
    if (u8() % 4 == 0) {
        fvals(q, 4);
        return;
    }
    double v[4], len = 0;
    for (int k = 0; k < 4; ++k) {
        v[k] = (double)(int8_t)u8();
        len += v[k] * v[k];
    }
    if (len == 0) {
        q[0] = q[1] = q[2] = 0, q[3] = 1;
        return;
    }
    len = sqrt(len);
    for (int k = 0; k < 4; ++k)
        q[k] = (float)(v[k] / len);
}

/* ---- the record every run is compared by ------------------------------------------------- */

enum { REC_MAX = 8192 };
typedef struct record {
    size_t n;
    uint64_t h[REC_MAX];
    const char *what[REC_MAX];
} record;

static record *REC;        /* the current run's */
static uint64_t hash_acc;  /* the entry being built */
static const char *CURRENT_OP = "";

static void mix(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; ++i) {
        hash_acc ^= b[i];
        hash_acc *= 0x100000001b3ULL;
    }
}
static void rec_floats(const float *v, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        float f = v[i];
        if (isnan(f))
            f = NAN; /* NaNs by class */
        mix(&f, sizeof f);
    }
}
static void rec_doubles(const double *v, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        double d = v[i];
        if (isnan(d))
            d = NAN;
        mix(&d, sizeof d);
    }
}
static void rec_u64(uint64_t v) { mix(&v, sizeof v); }
/* Close the entry: one per call, named. */
static void rec_end(const char *what)
{
    if (REC->n < REC_MAX) {
        REC->h[REC->n] = hash_acc;
        REC->what[REC->n] = what;
        REC->n++;
    }
    hash_acc = 0xcbf29ce484222325ULL;
}

__attribute__((format(printf, 1, 2), noreturn)) static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fuzz_api: CONTRACT VIOLATION in %s: ", CURRENT_OP);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

/* Bitwise equality, NaNs by class. */
static int same_floats(const float *a, const float *b, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (isnan(a[i]) && isnan(b[i]))
            continue;
        if (memcmp(&a[i], &b[i], sizeof(float)) != 0)
            return 0;
    }
    return 1;
}
static int same_doubles(const double *a, const double *b, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (isnan(a[i]) && isnan(b[i]))
            continue;
        if (memcmp(&a[i], &b[i], sizeof(double)) != 0)
            return 0;
    }
    return 1;
}

/* ---- snapshots: a refused call writes nothing -------------------------------------------- */

enum { SNAP_MAX = 16 };
static struct snap {
    const void *p;
    size_t n;
    unsigned char *copy;
} SNAPS[SNAP_MAX];
static size_t snap_count;

static void snap(const void *p, size_t n)
{
    if (!p || !n || snap_count == SNAP_MAX)
        return;
    struct snap *s = &SNAPS[snap_count++];
    s->p = p;
    s->n = n;
    s->copy = malloc(n);
    if (!s->copy)
        abort();
    memcpy(s->copy, p, n);
}

/* After a call: on a refusal every snapshot must be unchanged and a message set. Records the
 * status. Returns 1 when the call succeeded. */
static int settle(tendon_status st, const char *what)
{
    if (st != TENDON_OK) {
        for (size_t i = 0; i < snap_count; ++i)
            if (memcmp(SNAPS[i].p, SNAPS[i].copy, SNAPS[i].n) != 0)
                fail("%s refused (%s) but wrote to an output", what, tendon_status_name(st));
        if (tendon_error_message()[0] == '\0')
            fail("%s refused (%s) without a message", what, tendon_status_name(st));
    }
    for (size_t i = 0; i < snap_count; ++i)
        free(SNAPS[i].copy);
    snap_count = 0;
    rec_u64((uint64_t)st);
    return st == TENDON_OK;
}

/* ---- buffers ----------------------------------------------------------------------------- */

static float *falloc(size_t n)
{
    float *p = malloc(n ? n * sizeof *p : 1);
    if (!p)
        abort();
    for (size_t i = 0; i < n; ++i) {
        const uint32_t sentinel = 0x7fa5a5a5u ^ (uint32_t)i; /* a NaN pattern, per element */
        memcpy(&p[i], &sentinel, sizeof sentinel);
    }
    return p;
}

/* A pose of n joints whose three arrays are separate exact-size allocations. */
static tendon_pose pose_new(size_t n)
{
    tendon_pose p = {falloc(3 * n), falloc(4 * n), falloc(3 * n), n};
    return p;
}
static void pose_free(tendon_pose *p)
{
    free(p->translation);
    free(p->rotation);
    free(p->scale);
    memset(p, 0, sizeof *p);
}
static void pose_fill(tendon_pose *p)
{
    for (size_t j = 0; j < p->joint_count; ++j) {
        fvals(p->translation + 3 * j, 3);
        quat(p->rotation + 4 * j);
        if (u8() % 3 == 0)
            fvals(p->scale + 3 * j, 3);
        else
            p->scale[3 * j] = p->scale[3 * j + 1] = p->scale[3 * j + 2] = 1.0f;
    }
}
static void pose_rest(tendon_pose *p)
{
    for (size_t j = 0; j < p->joint_count; ++j) {
        memset(p->translation + 3 * j, 0, 3 * sizeof(float));
        p->rotation[4 * j] = p->rotation[4 * j + 1] = p->rotation[4 * j + 2] = 0;
        p->rotation[4 * j + 3] = 1;
        p->scale[3 * j] = p->scale[3 * j + 1] = p->scale[3 * j + 2] = 1;
    }
}
static void pose_copy_bits(tendon_pose *dst, const tendon_pose *src)
{
    memcpy(dst->translation, src->translation, 3 * src->joint_count * sizeof(float));
    memcpy(dst->rotation, src->rotation, 4 * src->joint_count * sizeof(float));
    memcpy(dst->scale, src->scale, 3 * src->joint_count * sizeof(float));
}
static void snap_pose(const tendon_pose *p)
{
    snap(p->translation, 3 * p->joint_count * sizeof(float));
    snap(p->rotation, 4 * p->joint_count * sizeof(float));
    snap(p->scale, 3 * p->joint_count * sizeof(float));
}
static void rec_pose(const tendon_pose *p)
{
    rec_floats(p->translation, 3 * p->joint_count);
    rec_floats(p->rotation, 4 * p->joint_count);
    rec_floats(p->scale, 3 * p->joint_count);
}
static int same_pose(const tendon_pose *a, const tendon_pose *b)
{
    const size_t n = a->joint_count;
    return n == b->joint_count && same_floats(a->translation, b->translation, 3 * n) &&
           same_floats(a->rotation, b->rotation, 4 * n) && same_floats(a->scale, b->scale, 3 * n);
}

/* The kernel tables that run here, emulated ones included; [0] is scalar. */
static const tendon_kernels *TABLES[TENDON_ISA_COUNT];
static size_t table_count;

/* The operations, one per module (a separate file only for its length). */
#include "fuzz_api_ops.h"

/* ---- the driver -------------------------------------------------------------------------- */

static void run_program(void)
{
    for (size_t op = 0; op < OPS_MAX && R.i < R.n; ++op) {
        const uint8_t code = u8();
        OPS[code % OP_COUNT].run();
        CURRENT_OP = "";
    }
}

static record RUNS[2];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!table_count)
        for (int i = 0; i < TENDON_ISA_COUNT; ++i)
            if (tendon_kernels_for((tendon_isa)i))
                TABLES[table_count++] = tendon_kernels_for((tendon_isa)i);
    int have_ref = 0;
    for (int isa = 0; isa < TENDON_ISA_COUNT; ++isa) {
        if (!tendon_isa_supported((tendon_isa)isa))
            continue;
        if (tendon_isa_force((tendon_isa)isa) != TENDON_OK)
            abort();
        record *rec = &RUNS[have_ref];
        rec->n = 0;
        REC = rec;
        hash_acc = 0xcbf29ce484222325ULL;
        R = (reader){data, size, 0};
        run_program();
        if (!have_ref) {
            have_ref = 1;
            continue;
        }
        const record *ref = &RUNS[0];
        for (size_t i = 0; i < ref->n || i < rec->n; ++i) {
            if (i >= ref->n || i >= rec->n || ref->h[i] != rec->h[i] ||
                ref->what[i] != rec->what[i]) {
                fprintf(stderr,
                        "fuzz_api: CONTRACT VIOLATION: %s differs from scalar at call %zu (%s on "
                        "%s, %s on scalar)\n",
                        tendon_isa_name((tendon_isa)isa), i, i < rec->n ? rec->what[i] : "-",
                        tendon_isa_name((tendon_isa)isa), i < ref->n ? ref->what[i] : "-");
                abort();
            }
        }
    }
    return 0;
}
