/*
 * Clips: creation, sampling as a pure function of time, root motion (tendon/clip.h).
 *
 * Storage, built once by tendon_clip_create (docs/clips.md, "Layout"):
 *   - timelines: tracks whose key times are equal (the same count and the same float bits; the
 *     same pointer is the cheap case) share one timeline — one copy of the times, one key
 *     search per sample, one cursor entry;
 *   - per timeline, a key-major block of the values of its LINEAR and STEP tracks: row k holds
 *     key k of every such track, ordered by (interpolation, path, joint; weights by track
 *     index), so rows k and k+1 hold the same tracks at the same offsets and a track's key k is
 *     at values + k·stride. CUBICSPLINE tracks keep their own copy in the glTF layout. The
 *     blocks are the only copy of the values: both tiers read them;
 *   - runs: the maximal pieces of a block row whose tracks have one interpolation and one TRS
 *     path and drive consecutive joints, so that the pose's floats of those tracks are
 *     contiguous too.
 *
 * Sampling, the seed-exact tier (tendon_clip_sample, _cursor, _tracks), per call:
 *   1. each track finds its key interval by a branchless binary search over its times (tracks
 *      of one timeline are ordered next to each other at creation and reuse one search);
 *   2. a track outside its keys, on a key exactly, or STEP, copies one key's value;
 *   3. LINEAR tracks are gathered (their two bracketing keys, component by component, and the
 *      double factor u) into stack chunks and interpolated W at a time by the table's kernels:
 *      clip_lerp for translation / scale / weights, quat_slerp for rotations;
 *   4. CUBICSPLINE tracks are gathered the same way, with their Hermite weights, into the
 *      table's clip_hermite (the sum in double); rotations are then normalised, and every
 *      value rounded once.
 * The float32 tier (tendon_clip_sample_f32, _cursor_f32, _tracks_f32) into a pose, per run:
 *   one key search per timeline (the same search, the same u in double, rounded to float
 *   once); on or outside the keys, or STEP, row k is copied; otherwise the run is one
 *   streaming clip_lerp_uniform_f32 (translations, scales) or clip_slerp_uniform_f32
 *   (rotations) from rows k and k+1 straight into the pose — no gather. Short runs, and the
 *   last few rotations of a long one, are pooled across runs into clip_lerp_f32 /
 *   quat_slerp_f32 (a u per element); CUBICSPLINE tracks are gathered into clip_hermite_f32.
 *   tendon_clip_sample_tracks_f32 pools every LINEAR track the same way.
 * The search and the copies are the same code for every ISA; the kernels are per ISA, bitwise
 * equal to the scalar reference. Nothing allocates.
 */
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "common/fpenv.h"
#include "common/kernels_internal.h"
#include "common/quat_ref.h"
#include "common/quat_ref_f32.h"
#include "common/max0_ref.h"

typedef struct clip_timeline {
    const float *times; /* [key_count], the clip's copy */
    size_t key_count;
    double guess; /* (n − 1) / (t_last − t_0): the key a uniform spacing would put t at */
} clip_timeline;

typedef struct clip_track {
    uint32_t joint;
    uint32_t path;
    uint32_t interp;
    uint32_t width;
    uint32_t timeline; /* index into the clip's timelines */
    /* LINEAR, STEP: key k at values + k·stride (inside its timeline's block); CUBICSPLINE: its
       own copy, 3·width floats per key (in-tangent, value, out-tangent), stride 3·width */
    const float *values;
    size_t stride;
    size_t offset; /* into tendon_clip_sample_tracks' output */
} clip_track;

enum { RUN_LERP = 0, RUN_SLERP = 1, RUN_STEP = 2 };

/* A run: `tracks` tracks of one path, one interpolation and one timeline, on consecutive joints
   from `joint`, whose keys lie side by side in the timeline's block rows from `src`. */
typedef struct clip_run {
    size_t src;         /* float offset of the run in a row of the block */
    const float *block; /* the timeline's block (row k at block + k·stride) */
    size_t stride;
    uint32_t timeline, tracks, joint;
    uint16_t op, path;
} clip_run;

struct tendon_clip {
    size_t joint_count;
    size_t track_count;
    size_t value_count;
    double duration;
    clip_track *tracks;
    clip_timeline *timelines;
    size_t timeline_count;
    /* track indices by kind, each ordered by timeline (the exact tier; the f32 tier's packed
       output): LINEAR non-rotations, LINEAR rotations, STEP and CUBICSPLINE */
    uint32_t *lin_vec, *lin_rot, *other;
    size_t n_lin_vec, n_lin_rot, n_other;
    /* the f32 tier into a pose: the runs of every LINEAR and STEP TRS track, ordered by
       timeline, and the CUBICSPLINE TRS tracks, ordered by timeline */
    clip_run *runs;
    size_t n_runs;
    uint32_t *f_cubic;
    size_t n_f_cubic;
};

static const char *path_name(uint32_t p)
{
    static const char *const names[] = {"translation", "rotation", "scale", "weights"};
    return p < 4 ? names[p] : "?";
}

void tendon_clip_destroy(tendon_clip *clip) { free(clip); }

double tendon_clip_duration(const tendon_clip *clip) { return clip ? clip->duration : 0.0; }
size_t tendon_clip_track_count(const tendon_clip *clip) { return clip ? clip->track_count : 0; }
size_t tendon_clip_joint_count(const tendon_clip *clip) { return clip ? clip->joint_count : 0; }
size_t tendon_clip_value_count(const tendon_clip *clip) { return clip ? clip->value_count : 0; }
size_t tendon_clip_timeline_count(const tendon_clip *clip) { return clip ? clip->timeline_count : 0; }
size_t tendon_clip_track_width(const tendon_clip *clip, size_t track)
{
    return clip && track < clip->track_count ? clip->tracks[track].width : 0;
}
size_t tendon_clip_track_offset(const tendon_clip *clip, size_t track)
{
    return clip && track < clip->track_count ? clip->tracks[track].offset : 0;
}

/* Stable ordering by timeline: a counting sort (timelines are 0 .. timelines−1). */
static void order_by_timeline(const clip_track *tracks, uint32_t *idx, size_t n, size_t timelines,
                              uint32_t *scratch_counts)
{
    memset(scratch_counts, 0, (timelines + 1) * sizeof *scratch_counts);
    for (size_t i = 0; i < n; ++i)
        scratch_counts[tracks[idx[i]].timeline + 1]++;
    for (size_t t = 0; t < timelines; ++t)
        scratch_counts[t + 1] += scratch_counts[t];
    uint32_t *tmp = scratch_counts + timelines + 1;
    for (size_t i = 0; i < n; ++i)
        tmp[scratch_counts[tracks[idx[i]].timeline]++] = idx[i];
    memcpy(idx, tmp, n * sizeof *idx);
}

/* FNV-1a over the bits of a track's times (the timeline merge's first test). */
static uint64_t times_hash(const float *times, size_t n)
{
    uint64_t h = 0xcbf29ce484222325u ^ (uint64_t)n;
    for (size_t k = 0; k < n; ++k) {
        uint32_t bits;
        memcpy(&bits, &times[k], sizeof bits);
        h = (h ^ bits) * 0x100000001b3u;
    }
    return h;
}

/*
 * An open-addressing table of (64-bit key, uint32 index) entries: tracks by channel, timelines
 * by the hash of their times. Linear probing; it doubles when half full, so it grows with what
 * is put in it, not with a claimed count. tendon_clip_create's two merges — one track per
 * channel, one timeline per distinct times — looked every earlier one up in a loop: quadratic,
 * 4 s for 80 000 tracks.
 */
typedef struct index_entry {
    uint64_t key;
    uint32_t index; /* UINT32_MAX: empty */
} index_entry;

typedef struct index_set {
    index_entry *slot;
    size_t mask, count;
} index_set;

static int index_set_alloc(index_set *t, size_t cap)
{
    t->slot = malloc(cap * sizeof *t->slot);
    t->mask = cap - 1;
    t->count = 0;
    if (!t->slot)
        return -1;
    for (size_t i = 0; i < cap; ++i)
        t->slot[i].index = UINT32_MAX;
    return 0;
}

/* The first probe for key (a 64-bit finaliser: keys are joint·4 + path, or FNV hashes). */
static size_t index_set_start(const index_set *t, uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdu;
    key ^= key >> 33;
    key *= 0xc4ceb9fe1a85ec53u;
    key ^= key >> 33;
    return (size_t)key & t->mask;
}

static void index_set_put(index_set *t, uint64_t key, uint32_t index)
{
    size_t at = index_set_start(t, key);
    while (t->slot[at].index != UINT32_MAX)
        at = (at + 1) & t->mask;
    t->slot[at].key = key;
    t->slot[at].index = index;
    ++t->count;
}

/* Adds (key, index), doubling the table first when it would be more than half full. */
static int index_set_add(index_set *t, uint64_t key, uint32_t index)
{
    if (2 * (t->count + 1) > t->mask + 1) {
        index_set bigger;
        if (index_set_alloc(&bigger, 2 * (t->mask + 1)) != 0)
            return -1;
        for (size_t i = 0; i <= t->mask; ++i)
            if (t->slot[i].index != UINT32_MAX)
                index_set_put(&bigger, t->slot[i].key, t->slot[i].index);
        free(t->slot);
        *t = bigger;
    }
    index_set_put(t, key, index);
    return 0;
}

/* The order of a timeline's LINEAR and STEP tracks in its block rows. */
typedef struct block_key {
    uint32_t timeline, interp, path, key, track;
} block_key;

static int block_key_cmp(const void *pa, const void *pb)
{
    const block_key *a = pa, *b = pb;
    const uint32_t x[4] = {a->timeline, a->interp, a->path, a->key};
    const uint32_t y[4] = {b->timeline, b->interp, b->path, b->key};
    for (int i = 0; i < 4; ++i)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0; /* not reached: (path, joint) is unique for TRS, the track index for weights */
}

/* The scratch of tendon_clip_create, freed on every path out. */
typedef struct create_scratch {
    uint32_t *tl_of;    /* [n] each track's timeline */
    uint32_t *tl_first; /* [n] the first track of each timeline */
    block_key *order;   /* [n] LINEAR and STEP tracks in block order */
    size_t *place;      /* [n] each ordered track's offset in its timeline's block rows */
    clip_run *runs;     /* [n] */
    uint32_t *counts;   /* [timelines + 1 + n] the counting sort's */
} create_scratch;

static void scratch_free(create_scratch *s)
{
    free(s->tl_of), free(s->tl_first), free(s->order), free(s->place);
    free(s->runs);
    free(s->counts);
}

/* Track i of desc checked (tendon_clip_create's validation, in its order), its floats and
   values counted; channels: the TRS tracks before it. */
static tendon_status check_track(const char *fn, const tendon_clip_desc *desc, size_t i,
                                 index_set *channels, size_t *floats, size_t *value_count)
{
    const tendon_track_desc *t = &desc->tracks[i];
    /* compared as unsigned: an enum's underlying type is the compiler's (gcc and clang make
       these unsigned; a signed one would let a negative value through to the arrays indexed by
       it) */
    if ((unsigned)t->path > (unsigned)TENDON_PATH_WEIGHTS)
        return tendon_fail(TENDON_ERR_VALUE, "%s: track %zu: path %d is not a tendon_track_path",
                           fn, i, (int)t->path);
    if ((unsigned)t->interpolation > (unsigned)TENDON_INTERP_CUBICSPLINE)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: track %zu: interpolation %d is not a tendon_interpolation", fn,
                           i, (int)t->interpolation);
    const size_t want = t->path == TENDON_PATH_ROTATION ? 4 : 3;
    if (t->path == TENDON_PATH_WEIGHTS ? (t->width < 1 || t->width > 65536)
                                       : t->width != want)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: track %zu (%s): width %zu, expected %s", fn, i,
                           path_name(t->path), t->width,
                           t->path == TENDON_PATH_WEIGHTS ? "1..65536"
                           : want == 4                    ? "4"
                                                          : "3");
    if (t->path != TENDON_PATH_WEIGHTS && t->joint >= desc->joint_count)
        return tendon_fail(TENDON_ERR_RANGE,
                           "%s: track %zu (%s): joint %u is not below the joint count %zu", fn,
                           i, path_name(t->path), (unsigned)t->joint, desc->joint_count);
    if (t->key_count == 0)
        return tendon_fail(TENDON_ERR_VALUE, "%s: track %zu (%s): no keys (key_count 0)", fn,
                           i, path_name(t->path));
    if (!t->times || !t->values)
        return tendon_fail(TENDON_ERR_NULL, "%s: track %zu (%s): %s is NULL", fn, i,
                           path_name(t->path), !t->times ? "times" : "values");
    const size_t per_key = t->width * (t->interpolation == TENDON_INTERP_CUBICSPLINE ? 3 : 1);
    if (t->key_count > (SIZE_MAX / sizeof(float) - *floats) / (per_key + 1) / 2)
        return tendon_fail(TENDON_ERR_OVERFLOW, "%s: track %zu: %zu keys overflow size_t", fn,
                           i, t->key_count);
    char what[64];
    snprintf(what, sizeof what, "track %zu (%s): times", i, path_name(t->path));
    tendon_status st = tendon_check_array(fn, what, t->times, t->key_count, 1);
    if (st != TENDON_OK)
        return st;
    snprintf(what, sizeof what, "track %zu (%s): values", i, path_name(t->path));
    if ((st = tendon_check_array(fn, what, t->values, t->key_count, per_key)) != TENDON_OK)
        return st;
    for (size_t k = 0; k < t->key_count; ++k) {
        const float x = t->times[k];
        if (!(x - x == 0.0f))
            return tendon_fail(TENDON_ERR_VALUE,
                               "%s: track %zu (%s): time of key %zu is %g: times must be "
                               "finite",
                               fn, i, path_name(t->path), k, (double)x);
        if (k > 0 && !(x > t->times[k - 1]))
            return tendon_fail(TENDON_ERR_VALUE,
                               "%s: track %zu (%s): key %zu at %.9g s is not after key %zu at "
                               "%.9g s: times must be strictly increasing",
                               fn, i, path_name(t->path), k, (double)x, k - 1,
                               (double)t->times[k - 1]);
    }
    *floats += t->key_count * (per_key + 1);
    *value_count += t->width;
    if (t->path != TENDON_PATH_WEIGHTS) { /* the earlier track of this channel, if any */
        const uint64_t key = (uint64_t)t->joint << 2 | (uint64_t)t->path;
        for (size_t at = index_set_start(channels, key); channels->slot[at].index != UINT32_MAX;
             at = (at + 1) & channels->mask)
            if (channels->slot[at].key == key)
                return tendon_fail(TENDON_ERR_VALUE,
                                   "%s: tracks %u and %zu both drive the %s of joint %u: one "
                                   "track per channel",
                                   fn, (unsigned)channels->slot[at].index, i, path_name(t->path),
                                   (unsigned)t->joint);
        if (index_set_add(channels, key, (uint32_t)i) != 0)
            return tendon_fail(TENDON_ERR_NOMEM, "%s: cannot allocate the creation scratch", fn);
    }
    return TENDON_OK;
}

tendon_status tendon_clip_create(const tendon_clip_desc *desc, tendon_clip **out)
{
    TENDON_FPENV_GUARD_OUT(out); /* a refusal sets *out to NULL too */
    static const char fn[] = "tendon_clip_create";
    if (!out)
        return tendon_fail(TENDON_ERR_NULL, "%s: out is NULL", fn);
    *out = NULL;
    if (!desc)
        return tendon_fail(TENDON_ERR_NULL, "%s: desc is NULL", fn);
    /* the description and its tracks are structs read member by member: each aligned to its
       type, as C requires (docs/skinning.md, "One alignment rule") */
    tendon_status ast = tendon_check_aligned(fn, "desc", desc, _Alignof(tendon_clip_desc));
    if (ast != TENDON_OK)
        return ast;
    const size_t n = desc->track_count;
    if (n > 0 && !desc->tracks)
        return tendon_fail(TENDON_ERR_NULL, "%s: desc->tracks is NULL with track_count %zu", fn, n);
    if (n > 0 && (ast = tendon_check_aligned(fn, "desc->tracks", desc->tracks,
                                             _Alignof(tendon_track_desc))) != TENDON_OK)
        return ast;
    if (n > UINT32_MAX / 4)
        return tendon_fail(TENDON_ERR_OVERFLOW, "%s: track_count %zu is too large", fn, n);

    /* validate, and bound the copy (every track counted with its own times); `channels` holds
       the TRS tracks seen so far, by (joint, path), for the one-track-per-channel rule */
    index_set channels;
    if (index_set_alloc(&channels, 16) != 0)
        return tendon_fail(TENDON_ERR_NOMEM, "%s: cannot allocate the creation scratch", fn);
    tendon_status vst = TENDON_OK;
    size_t floats = 0, value_count = 0;
    for (size_t i = 0; i < n && vst == TENDON_OK; ++i)
        vst = check_track(fn, desc, i, &channels, &floats, &value_count);
    free(channels.slot);
    if (vst != TENDON_OK)
        return vst;

    /* timelines: a track shares the timeline of an earlier one with equal times */
    create_scratch sc = {NULL, NULL, NULL, NULL, NULL, NULL};
    const size_t cap = n > 0 ? n : 1;
    sc.tl_of = malloc(cap * sizeof *sc.tl_of);
    sc.tl_first = malloc(cap * sizeof *sc.tl_first);
    sc.order = malloc(cap * sizeof *sc.order);
    sc.place = malloc(cap * sizeof *sc.place);
    sc.runs = malloc(cap * sizeof *sc.runs);
    if (!sc.tl_of || !sc.tl_first || !sc.order || !sc.place || !sc.runs) {
        scratch_free(&sc);
        return tendon_fail(TENDON_ERR_NOMEM, "%s: cannot allocate the creation scratch", fn);
    }
    size_t timelines = 0, time_floats = 0, value_floats = 0, n_order = 0;
    size_t n_lin_vec = 0, n_lin_rot = 0, n_other = 0, n_f_cubic = 0;
    index_set by_times; /* the timelines so far, by their times' hash */
    if (index_set_alloc(&by_times, 16) != 0) {
        scratch_free(&sc);
        return tendon_fail(TENDON_ERR_NOMEM, "%s: cannot allocate the creation scratch", fn);
    }
    for (size_t i = 0; i < n; ++i) {
        const tendon_track_desc *t = &desc->tracks[i];
        const uint64_t h = times_hash(t->times, t->key_count);
        size_t tl = timelines; /* the one timeline with these times (they are distinct), or new */
        for (size_t at = index_set_start(&by_times, h); by_times.slot[at].index != UINT32_MAX;
             at = (at + 1) & by_times.mask) {
            const size_t j = by_times.slot[at].index;
            const tendon_track_desc *f = &desc->tracks[sc.tl_first[j]];
            if (by_times.slot[at].key == h && f->key_count == t->key_count &&
                (f->times == t->times ||
                 memcmp(f->times, t->times, t->key_count * sizeof(float)) == 0)) {
                tl = j;
                break;
            }
        }
        if (tl == timelines) {
            if (index_set_add(&by_times, h, (uint32_t)timelines) != 0) {
                free(by_times.slot);
                scratch_free(&sc);
                return tendon_fail(TENDON_ERR_NOMEM, "%s: cannot allocate the creation scratch",
                                   fn);
            }
            sc.tl_first[timelines++] = (uint32_t)i;
            time_floats += t->key_count;
        }
        sc.tl_of[i] = (uint32_t)tl;
        value_floats +=
            t->key_count * t->width * (t->interpolation == TENDON_INTERP_CUBICSPLINE ? 3 : 1);
        if (t->interpolation == TENDON_INTERP_CUBICSPLINE) {
            ++n_other;
            n_f_cubic += t->path != TENDON_PATH_WEIGHTS;
            continue;
        }
        if (t->interpolation == TENDON_INTERP_STEP)
            ++n_other;
        else if (t->path == TENDON_PATH_ROTATION)
            ++n_lin_rot;
        else
            ++n_lin_vec;
        block_key *b = &sc.order[n_order++];
        b->timeline = (uint32_t)tl;
        b->interp = (uint32_t)t->interpolation;
        b->path = (uint32_t)t->path;
        b->key = t->path == TENDON_PATH_WEIGHTS ? (uint32_t)i : t->joint;
        b->track = (uint32_t)i;
    }
    free(by_times.slot);
    qsort(sc.order, n_order, sizeof *sc.order, block_key_cmp);

    /* the runs (their block offsets are filled in once the blocks have a place) */
    size_t n_runs = 0;
    for (size_t s = 0; s < n_order;) {
        const block_key *b = &sc.order[s];
        size_t e = s + 1;
        if (b->path != TENDON_PATH_WEIGHTS)
            while (e < n_order && sc.order[e].timeline == b->timeline &&
                   sc.order[e].interp == b->interp && sc.order[e].path == b->path &&
                   sc.order[e].key == b->key + (uint32_t)(e - s))
                ++e;
        if (b->path != TENDON_PATH_WEIGHTS) {
            clip_run *r = &sc.runs[n_runs++];
            r->src = s; /* for now: the first track's place in the block order */
            r->timeline = b->timeline;
            r->tracks = (uint32_t)(e - s);
            r->joint = b->key;
            r->op = b->interp == TENDON_INTERP_STEP ? RUN_STEP
                    : b->path == TENDON_PATH_ROTATION ? RUN_SLERP
                                                      : RUN_LERP;
            r->path = (uint16_t)b->path;
        }
        s = e;
    }

    /* one block: the clip, its tracks, timelines, runs and index lists, then the floats */
    const size_t head = sizeof(tendon_clip);
    const size_t tracks_bytes = n * sizeof(clip_track);
    const size_t tl_bytes = timelines * sizeof(clip_timeline);
    const size_t runs_bytes = n_runs * sizeof(clip_run);
    const size_t idx_bytes = (n + n_f_cubic) * sizeof(uint32_t);
    size_t bytes = head + tracks_bytes;
    bytes = (bytes + 15) & ~(size_t)15;
    const size_t tl_off = bytes;
    bytes += tl_bytes;
    bytes = (bytes + 15) & ~(size_t)15;
    const size_t runs_off = bytes;
    bytes += runs_bytes;
    const size_t idx_off = bytes;
    bytes += idx_bytes;
    bytes = (bytes + 15) & ~(size_t)15;
    const size_t float_off = bytes;
    /* time_floats + value_floats ≤ floats, each track's bounded above; but where size_t is
       32-bit (wasm32) the records before the floats can still take the sum past SIZE_MAX —
       16382 one-key weights tracks of width 65536 sharing their arrays wrapped it to 64 KiB */
    if (time_floats + value_floats > (SIZE_MAX - bytes) / sizeof(float)) {
        scratch_free(&sc);
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "%s: %zu tracks and %zu floats of times and values: the clip's "
                           "one block of memory overflows size_t",
                           fn, n, time_floats + value_floats);
    }
    bytes += (time_floats + value_floats) * sizeof(float);
    unsigned char *mem = calloc(1, bytes);
    sc.counts = malloc((timelines + 1 + cap) * sizeof(uint32_t));
    if (!mem || !sc.counts) {
        free(mem);
        scratch_free(&sc);
        return tendon_fail(TENDON_ERR_NOMEM, "%s: cannot allocate %zu bytes", fn, bytes);
    }
    tendon_clip *clip = (tendon_clip *)mem;
    clip->joint_count = desc->joint_count;
    clip->track_count = n;
    clip->value_count = value_count;
    clip->tracks = (clip_track *)(mem + head);
    clip->timelines = (clip_timeline *)(mem + tl_off);
    clip->timeline_count = timelines;
    clip->runs = (clip_run *)(mem + runs_off);
    clip->n_runs = n_runs;
    clip->lin_vec = (uint32_t *)(mem + idx_off);
    clip->lin_rot = clip->lin_vec + n_lin_vec;
    clip->other = clip->lin_rot + n_lin_rot;
    clip->f_cubic = clip->other + n_other;
    float *fp = (float *)(mem + float_off);

    /* the times, once per timeline */
    double duration = 0.0;
    for (size_t j = 0; j < timelines; ++j) {
        const tendon_track_desc *t = &desc->tracks[sc.tl_first[j]];
        clip_timeline *tl = &clip->timelines[j];
        memcpy(fp, t->times, t->key_count * sizeof(float));
        tl->times = fp;
        tl->key_count = t->key_count;
        fp += t->key_count;
        const double last = (double)t->times[t->key_count - 1];
        tl->guess =
            t->key_count > 1 ? (double)(t->key_count - 1) / (last - (double)t->times[0]) : 0.0;
        if (last > duration)
            duration = last;
    }
    clip->duration = duration;

    /* the tracks */
    size_t offset = 0;
    for (size_t i = 0; i < n; ++i) {
        const tendon_track_desc *t = &desc->tracks[i];
        clip_track *c = &clip->tracks[i];
        c->joint = t->joint;
        c->path = (uint32_t)t->path;
        c->interp = (uint32_t)t->interpolation;
        c->width = (uint32_t)t->width;
        c->timeline = sc.tl_of[i];
        c->offset = offset;
        offset += t->width;
        if (c->interp == TENDON_INTERP_CUBICSPLINE) { /* its own copy, as glTF lays it out */
            const size_t nv = t->key_count * 3 * t->width;
            memcpy(fp, t->values, nv * sizeof(float));
            c->values = fp;
            c->stride = 3 * t->width;
            fp += nv;
            clip->other[clip->n_other++] = (uint32_t)i;
        } else if (c->interp == TENDON_INTERP_STEP) {
            clip->other[clip->n_other++] = (uint32_t)i;
        } else if (c->path == TENDON_PATH_ROTATION) {
            clip->lin_rot[clip->n_lin_rot++] = (uint32_t)i;
        } else {
            clip->lin_vec[clip->n_lin_vec++] = (uint32_t)i;
        }
    }

    /* the key-major blocks: per timeline, its LINEAR and STEP tracks in block order */
    size_t *const place = sc.place;
    size_t next_run = 0; /* the runs were made in block order: they follow the timelines */
    for (size_t s = 0; s < n_order;) {
        const uint32_t tl = sc.order[s].timeline;
        size_t e = s, stride = 0;
        for (; e < n_order && sc.order[e].timeline == tl; ++e) {
            place[e] = stride;
            stride += desc->tracks[sc.order[e].track].width;
        }
        const size_t keys = clip->timelines[tl].key_count;
        for (size_t o = s; o < e; ++o) {
            const tendon_track_desc *t = &desc->tracks[sc.order[o].track];
            clip_track *c = &clip->tracks[sc.order[o].track];
            c->values = fp + place[o];
            c->stride = stride;
            for (size_t k = 0; k < keys; ++k)
                memcpy(fp + k * stride + place[o], t->values + k * t->width,
                       t->width * sizeof(float));
        }
        for (; next_run < n_runs && sc.runs[next_run].timeline == tl; ++next_run) {
            clip_run *r = &sc.runs[next_run];
            r->src = place[r->src];
            r->block = fp;
            r->stride = stride;
        }
        fp += keys * stride;
        s = e;
    }
    memcpy(clip->runs, sc.runs, runs_bytes);

    /* each kind ordered by timeline */
    order_by_timeline(clip->tracks, clip->lin_vec, clip->n_lin_vec, timelines, sc.counts);
    order_by_timeline(clip->tracks, clip->lin_rot, clip->n_lin_rot, timelines, sc.counts);
    order_by_timeline(clip->tracks, clip->other, clip->n_other, timelines, sc.counts);
    for (size_t i = 0; i < clip->n_other; ++i) {
        const clip_track *c = &clip->tracks[clip->other[i]];
        if (c->interp == TENDON_INTERP_CUBICSPLINE && c->path != TENDON_PATH_WEIGHTS)
            clip->f_cubic[clip->n_f_cubic++] = clip->other[i];
    }
    scratch_free(&sc);
    *out = clip;
    return TENDON_OK;
}

/* ---- locating a time among a track's keys ----------------------------------------------- */

typedef struct keypos {
    size_t k;
    double u;  /* in (0, 1) when interp; unused when copy */
    int copy;  /* 1: the value of key k as it is */
} keypos;

/*
 * t ≤ t_0 (or one key): key 0. t ≥ t_last: the last key. Otherwise the k with
 * t_k ≤ t < t_k+1 (half-open), found by a branchless binary search; t = t_k exactly copies key
 * k, else u = (t − t_k) / (t_k+1 − t_k) in double. t is not NaN (refused before).
 */
static inline keypos locate(const float *times, size_t n, double guess, double t)
{
    keypos p;
    if (n == 1 || !(t > (double)times[0])) {
        p.k = 0, p.u = 0.0, p.copy = 1;
        return p;
    }
    if (t >= (double)times[n - 1]) {
        p.k = n - 1, p.u = 0.0, p.copy = 1;
        return p;
    }
    /* times[0] < t < times[n−1], so t lies within float range. For a float x,
       x ≤ t ⟺ x ≤ tf with tf the largest float ≤ t: the search compares floats, with no
       conversion in its dependent chain. */
    float tf = (float)t;
    if ((double)tf > t) { /* rounded up: step one float down */
        uint32_t bits;
        memcpy(&bits, &tf, sizeof bits);
        if (tf > 0.0f)
            bits -= 1;
        else if (tf < 0.0f)
            bits += 1;
        else
            bits = 0x80000001u; /* −(smallest denormal), below a tiny negative t */
        memcpy(&tf, &bits, sizeof tf);
    }
    /* First the interval a uniform spacing of the keys would give, and its neighbours (baked
       clips are uniform: one probe); the interval holding t is unique, so a guess that misses
       only costs the search. */
    const double g = (t - (double)times[0]) * guess;
    size_t k = g < (double)(n - 2) ? (size_t)g : n - 2;
    if (times[k] <= tf && tf < times[k + 1]) {
        /* found */
    } else if (k > 0 && times[k - 1] <= tf && tf < times[k]) {
        k -= 1;
    } else if (k + 2 < n && times[k + 1] <= tf && tf < times[k + 2]) {
        k += 1;
    } else {
        const float *base = times;
        size_t len = n - 1; /* search times[0 .. n−2]; times[0] < t holds */
        while (len > 1) {
            const size_t half = len / 2;
            base = (base[half] <= tf) ? base + half : base;
            len -= half;
        }
        k = (size_t)(base - times);
    }
    p.k = k;
    const double t0 = (double)times[p.k];
    if (t == t0) {
        p.u = 0.0, p.copy = 1;
        return p;
    }
    p.u = (t - t0) / ((double)times[p.k + 1] - t0);
    p.copy = 0;
    return p;
}

/*
 * locate() with a hint: key interval *hint, or the next one, is tried before the search; the
 * interval containing t is unique (times strictly increase), so the answer is locate()'s
 * whatever the hint holds. *hint is left at the interval found.
 */
static inline keypos locate_hinted(const float *times, size_t n, double guess, double t,
                                   uint32_t *hint)
{
    keypos p;
    if (n == 1 || !(t > (double)times[0])) {
        p.k = 0, p.u = 0.0, p.copy = 1;
        *hint = 0;
        return p;
    }
    if (t >= (double)times[n - 1]) {
        p.k = n - 1, p.u = 0.0, p.copy = 1;
        *hint = (uint32_t)(n - 2);
        return p;
    }
    /* n ≥ 2 here; k < n − 1 rather than k + 1 < n: where size_t is 32-bit (wasm32) a garbage
       hint near UINT32_MAX wrapped k + 1 and k + 2 to 0 and 1 and read times[k], before the
       array (pointer overflow) */
    size_t k = *hint;
    if (k < n - 1 && (double)times[k] <= t && t < (double)times[k + 1]) {
        /* the same interval */
    } else if (k < n - 2 && (double)times[k + 1] <= t && t < (double)times[k + 2]) {
        k = k + 1;
    } else {
        p = locate(times, n, guess, t);
        *hint = (uint32_t)p.k;
        return p;
    }
    *hint = (uint32_t)k;
    p.k = k;
    const double t0 = (double)times[k];
    if (t == t0) {
        p.u = 0.0, p.copy = 1;
        return p;
    }
    p.u = (t - t0) / ((double)times[k + 1] - t0);
    p.copy = 0;
    return p;
}

/* The key interval of timeline `tl` at t (with the cursor's hint when there is one). */
static inline keypos locate_tl(const tendon_clip *clip, uint32_t tl, double t, uint32_t *hints)
{
    const clip_timeline *l = &clip->timelines[tl];
    return hints ? locate_hinted(l->times, l->key_count, l->guess, t, &hints[tl])
                 : locate(l->times, l->key_count, l->guess, t);
}

static inline keypos locate_track(const tendon_clip *clip, const clip_track *c, double t,
                                  uint32_t *hints)
{
    return locate_tl(clip, c->timeline, t, hints);
}

/* Where a track's value goes: the pose's channel, or the packed output. NULL: skip. */
typedef struct sink {
    tendon_pose *pose;
    float *packed;
} sink;

static inline float *dest_of(const clip_track *c, const sink *s)
{
    if (s->packed)
        return s->packed + c->offset;
    switch (c->path) {
    case TENDON_PATH_TRANSLATION: return s->pose->translation + 3 * (size_t)c->joint;
    case TENDON_PATH_ROTATION: return s->pose->rotation + 4 * (size_t)c->joint;
    case TENDON_PATH_SCALE: return s->pose->scale + 3 * (size_t)c->joint;
    default: return NULL;
    }
}

/* The value of key k (the middle slot for CUBICSPLINE). */
static inline const float *key_value(const clip_track *c, size_t k)
{
    return c->interp == TENDON_INTERP_CUBICSPLINE ? c->values + (3 * k + 1) * c->width
                                                  : c->values + k * c->stride;
}

/*
 * CUBICSPLINE between keys k and k+1 (glTF 2.0 Appendix C), in double:
 *   s = u, td = t_k+1 − t_k, s² = s·s, s³ = s²·s
 *   h00 = (2·s³ − 3·s²) + 1, h10 = (s³ − 2·s²) + s, h01 = 3·s² − 2·s³, h11 = s³ − s²
 *   p = ((h00·v_k + (h10·td)·b_k) + h01·v_k+1) + (h11·td)·a_k+1   (the clip_hermite kernel)
 * with b_k the out-tangent of key k and a_k+1 the in-tangent of key k+1. Rotations are then
 * normalised by their 4-component length (tendon_ref_normalize). Rounded once to float.
 */
static void cubic_coeffs(const tendon_clip *clip, const clip_track *c, keypos p, double h[4])
{
    const size_t k = p.k;
    const float *times = clip->timelines[c->timeline].times;
    const double s = p.u, s2 = s * s, s3 = s2 * s;
    const double td = (double)times[k + 1] - (double)times[k];
    h[0] = (2.0 * s3 - 3.0 * s2) + 1.0;
    h[1] = ((s3 - 2.0 * s2) + s) * td;
    h[2] = 3.0 * s2 - 2.0 * s3;
    h[3] = (s3 - s2) * td;
}

/* The Hermite sums (double) of one track → its value: normalised for a rotation, rounded once. */
static void cubic_store(const clip_track *c, const double *sum, float *dst)
{
    if (c->path == TENDON_PATH_ROTATION) {
        double q[4] = {sum[0], sum[1], sum[2], sum[3]};
        tendon_ref_normalize(q);
        tendon_ref_store4(q, dst);
        return;
    }
    for (size_t e = 0; e < c->width; ++e)
        dst[e] = (float)sum[e];
}

/* One CUBICSPLINE track of width ≤ 4 through the scalar kernel (root motion). */
static void cubic_one(const tendon_clip *clip, const clip_track *c, keypos p, float *dst)
{
    const size_t w = c->width, k = p.k;
    double hc[4], h[16], sum[4];
    cubic_coeffs(clip, c, p, hc);
    for (size_t j = 0; j < 4; ++j)
        for (size_t e = 0; e < w; ++e)
            h[j * w + e] = hc[j];
    tendon_clip_hermite_scalar(c->values + (3 * k + 1) * w, c->values + (3 * k + 2) * w,
                               c->values + (3 * k + 4) * w, c->values + (3 * k + 3) * w, h, w,
                               sum);
    cubic_store(c, sum, dst);
}

/* Chunk sizes of the gathers (stack: ~13 KiB). */
enum { LERP_CHUNK = 256, SLERP_CHUNK = 128, CUBIC_CHUNK = 64 };

/* CUBICSPLINE tracks gathered component by component for clip_hermite. */
typedef struct cubic_gather {
    float v0[CUBIC_CHUNK], b0[CUBIC_CHUNK], v1[CUBIC_CHUNK], a1[CUBIC_CHUNK];
    double h[4 * CUBIC_CHUNK], sum[CUBIC_CHUNK];
    const clip_track *track[CUBIC_CHUNK];
    float *dst[CUBIC_CHUNK];
    size_t nc, nt;
} cubic_gather;

static void cubic_flush(const tendon_kernels *kt, cubic_gather *g)
{
    if (g->nc == 0)
        return;
    /* the planes are CUBIC_CHUNK apart; the kernel wants them `count` apart: close the gaps */
    const size_t n = g->nc;
    if (n < CUBIC_CHUNK)
        for (size_t j = 1; j < 4; ++j)
            memmove(g->h + j * n, g->h + j * CUBIC_CHUNK, n * sizeof(double));
    kt->clip_hermite(g->v0, g->b0, g->v1, g->a1, g->h, n, g->sum);
    size_t e = 0;
    for (size_t i = 0; i < g->nt; ++i) {
        cubic_store(g->track[i], g->sum + e, g->dst[i]);
        e += g->track[i]->width;
    }
    g->nc = g->nt = 0;
}

/* Gather components [e0, e0 + m) of a CUBICSPLINE track between keys p.k and p.k + 1. */
static void cubic_add(cubic_gather *g, const clip_track *c, keypos p, const double hc[4],
                      size_t e0, size_t m)
{
    const size_t w = c->width, k = p.k;
    const float *v0 = c->values + (3 * k + 1) * w + e0, *b0 = c->values + (3 * k + 2) * w + e0;
    const float *a1 = c->values + (3 * k + 3) * w + e0, *v1 = c->values + (3 * k + 4) * w + e0;
    for (size_t e = 0; e < m; ++e) {
        const size_t i = g->nc + e;
        g->v0[i] = v0[e], g->b0[i] = b0[e], g->v1[i] = v1[e], g->a1[i] = a1[e];
        for (size_t j = 0; j < 4; ++j)
            g->h[j * CUBIC_CHUNK + i] = hc[j];
    }
    g->nc += m;
}

static void sample_all(const tendon_kernels *kt, const tendon_clip *clip, double t, const sink *s,
                       uint32_t *hints)
{
    const clip_track *tracks = clip->tracks;
    uint32_t last_tl = UINT32_MAX;
    keypos p = {0, 0.0, 1};

    /* STEP (a copy) and CUBICSPLINE (gathered for clip_hermite) */
    {
        cubic_gather g;
        g.nc = g.nt = 0;
        for (size_t i = 0; i < clip->n_other; ++i) {
            const clip_track *c = &tracks[clip->other[i]];
            float *dst = dest_of(c, s);
            if (!dst)
                continue;
            if (c->timeline != last_tl) {
                p = locate_track(clip, c, t, hints);
                last_tl = c->timeline;
            }
            if (p.copy || c->interp == TENDON_INTERP_STEP) {
                memcpy(dst, key_value(c, p.k), c->width * sizeof(float));
                continue;
            }
            double hc[4];
            cubic_coeffs(clip, c, p, hc);
            if (c->width > CUBIC_CHUNK) { /* a wide weights track: in slices, on its own */
                cubic_flush(kt, &g);
                for (size_t e0 = 0; e0 < c->width; e0 += CUBIC_CHUNK) {
                    const size_t m = c->width - e0 < CUBIC_CHUNK ? c->width - e0 : CUBIC_CHUNK;
                    cubic_add(&g, c, p, hc, e0, m);
                    const size_t n = g.nc;
                    if (n < CUBIC_CHUNK)
                        for (size_t j = 1; j < 4; ++j)
                            memmove(g.h + j * n, g.h + j * CUBIC_CHUNK, n * sizeof(double));
                    kt->clip_hermite(g.v0, g.b0, g.v1, g.a1, g.h, n, g.sum);
                    for (size_t e = 0; e < m; ++e)
                        dst[e0 + e] = (float)g.sum[e];
                    g.nc = 0;
                }
                continue;
            }
            if (g.nc + c->width > CUBIC_CHUNK)
                cubic_flush(kt, &g);
            cubic_add(&g, c, p, hc, 0, c->width);
            g.track[g.nt] = c;
            g.dst[g.nt++] = dst;
        }
        cubic_flush(kt, &g);
    }

    /* LINEAR translation / scale / weights: gather components, clip_lerp */
    {
        float a[LERP_CHUNK], b[LERP_CHUNK], o[LERP_CHUNK];
        double u[LERP_CHUNK];
        float *dsts[LERP_CHUNK];
        uint32_t widths[LERP_CHUNK];
        size_t nc = 0, nt = 0;
        last_tl = UINT32_MAX;
        for (size_t i = 0; i <= clip->n_lin_vec; ++i) {
            const clip_track *c = i < clip->n_lin_vec ? &tracks[clip->lin_vec[i]] : NULL;
            if (!c || nc + c->width > LERP_CHUNK) {
                if (nc > 0) {
                    kt->clip_lerp(a, b, u, nc, o);
                    size_t e = 0;
                    for (size_t j = 0; j < nt; ++j) {
                        memcpy(dsts[j], o + e, widths[j] * sizeof(float));
                        e += widths[j];
                    }
                }
                nc = nt = 0;
                if (!c)
                    break;
            }
            float *dst = dest_of(c, s);
            if (!dst)
                continue;
            if (c->timeline != last_tl) {
                p = locate_track(clip, c, t, hints);
                last_tl = c->timeline;
            }
            const float *va = c->values + p.k * c->stride;
            if (p.copy) {
                memcpy(dst, va, c->width * sizeof(float));
                continue;
            }
            const size_t w = c->width;
            const float *vb = va + c->stride;
            if (w > LERP_CHUNK) { /* a very wide weights track: on its own, in slices */
                for (size_t e0 = 0; e0 < w; e0 += LERP_CHUNK) {
                    const size_t m = w - e0 < LERP_CHUNK ? w - e0 : LERP_CHUNK;
                    for (size_t e = 0; e < m; ++e)
                        u[e] = p.u;
                    kt->clip_lerp(va + e0, vb + e0, u, m, dst + e0);
                }
                continue;
            }
            for (size_t e = 0; e < w; ++e) {
                a[nc + e] = va[e];
                b[nc + e] = vb[e];
                u[nc + e] = p.u;
            }
            nc += w;
            dsts[nt] = dst;
            widths[nt++] = (uint32_t)w;
        }
    }

    /* LINEAR rotations: gather quaternions, the staged slerp */
    {
        float a[4 * SLERP_CHUNK], b[4 * SLERP_CHUNK], o[4 * SLERP_CHUNK];
        double u[SLERP_CHUNK];
        float *dsts[SLERP_CHUNK];
        size_t nq = 0;
        last_tl = UINT32_MAX;
        for (size_t i = 0; i <= clip->n_lin_rot; ++i) {
            const clip_track *c = i < clip->n_lin_rot ? &tracks[clip->lin_rot[i]] : NULL;
            if (!c || nq == SLERP_CHUNK) {
                if (nq > 0) {
                    kt->quat_slerp(a, b, u, nq, o);
                    for (size_t j = 0; j < nq; ++j)
                        memcpy(dsts[j], o + 4 * j, 4 * sizeof(float));
                }
                nq = 0;
                if (!c)
                    break;
            }
            float *dst = dest_of(c, s);
            if (!dst)
                continue;
            if (c->timeline != last_tl) {
                p = locate_track(clip, c, t, hints);
                last_tl = c->timeline;
            }
            const float *va = c->values + p.k * c->stride;
            if (p.copy) {
                memcpy(dst, va, 4 * sizeof(float));
                continue;
            }
            memcpy(a + 4 * nq, va, 4 * sizeof(float));
            memcpy(b + 4 * nq, va + c->stride, 4 * sizeof(float));
            u[nq] = p.u;
            dsts[nq++] = dst;
        }
    }
}

void tendon_clip_sample_table(const tendon_kernels *kt, const tendon_clip *clip, double time_sec,
                              tendon_pose *pose, float *packed)
{
    const sink s = {pose, packed};
    sample_all(kt, clip, time_sec, &s, NULL);
}

void tendon_clip_sample_table_cursor(const tendon_kernels *kt, const tendon_clip *clip,
                                     double time_sec, uint32_t *cursor, tendon_pose *pose)
{
    const sink s = {pose, NULL};
    sample_all(kt, clip, time_sec, &s, cursor);
}

/* ---- the float32 tier ------------------------------------------------------------------- */

/*
 * The arithmetic (tendon/clip.h, "The float32 tier"): the key search and u exactly as the exact
 * tier's, u rounded to float once; LINEAR a + (b − a)·u in float; rotations the float tier's
 * slerp by u; CUBICSPLINE the Hermite sum in float (weights from s = u and Δt computed in
 * double, each rounded to float once), rotations normalised in float.
 */

/* Pool sizes (stack: ~14 KiB with the cubic gather). A rotation run streams its first
   multiple of F_SLERP_ALIGN quaternions (every ISA's float vector width divides it) and pools
   the rest; a translation / scale run shorter than F_LERP_STREAM floats is pooled whole. */
enum { F_LERP_CHUNK = 256, F_SLERP_CHUNK = 64, F_CUBIC_CHUNK = 64 };
enum { F_SLERP_ALIGN = 16, F_LERP_STREAM = 32 };

/* Spans of floats to interpolate by their own u, gathered for one clip_lerp_f32. */
typedef struct f_lerp_pool {
    float a[F_LERP_CHUNK], b[F_LERP_CHUNK], u[F_LERP_CHUNK], o[F_LERP_CHUNK];
    float *dst[F_LERP_CHUNK];
    uint32_t len[F_LERP_CHUNK];
    size_t n, spans;
} f_lerp_pool;

static void f_lerp_flush(const tendon_kernels *kt, f_lerp_pool *g)
{
    if (g->n == 0)
        return;
    kt->clip_lerp_f32(g->a, g->b, g->u, g->n, g->o);
    /* element loops rather than memcpy: the spans are a few floats each (a call per span cost
       more than the copy) */
    const float *o = g->o;
    for (size_t i = 0; i < g->spans; ++i) {
        float *dst = g->dst[i];
        for (uint32_t e = 0; e < g->len[i]; ++e)
            dst[e] = o[e];
        o += g->len[i];
    }
    g->n = g->spans = 0;
}

/* count floats va[i] → vb[i] by u, into dst[i] (at the next flush). */
static inline __attribute__((always_inline)) void f_lerp_push(const tendon_kernels *kt,
                                                              f_lerp_pool *g, const float *va,
                                                              const float *vb, float u,
                                                              size_t count, float *dst)
{
    while (count > 0) {
        if (g->n == F_LERP_CHUNK)
            f_lerp_flush(kt, g);
        const size_t m = count < F_LERP_CHUNK - g->n ? count : F_LERP_CHUNK - g->n;
        float *pa = g->a + g->n, *pb = g->b + g->n, *pu = g->u + g->n;
        for (size_t e = 0; e < m; ++e)
            pa[e] = va[e], pb[e] = vb[e], pu[e] = u;
        g->dst[g->spans] = dst;
        g->len[g->spans++] = (uint32_t)m;
        g->n += m;
        va += m, vb += m, dst += m, count -= m;
    }
}

/* Spans of quaternions to slerp by their own u, gathered for one quat_slerp_f32. */
typedef struct f_slerp_pool {
    float a[4 * F_SLERP_CHUNK], b[4 * F_SLERP_CHUNK], o[4 * F_SLERP_CHUNK], u[F_SLERP_CHUNK];
    float *dst[F_SLERP_CHUNK];
    uint32_t len[F_SLERP_CHUNK];
    size_t n, spans;
} f_slerp_pool;

static void f_slerp_flush(const tendon_kernels *kt, f_slerp_pool *g)
{
    if (g->n == 0)
        return;
    kt->quat_slerp_f32(g->a, g->b, g->u, g->n, g->o); /* u ∈ [0, 1]: its clamp changes nothing */
    const float *o = g->o;
    for (size_t i = 0; i < g->spans; ++i) {
        float *dst = g->dst[i];
        for (uint32_t e = 0; e < 4 * g->len[i]; ++e)
            dst[e] = o[e];
        o += 4 * g->len[i];
    }
    g->n = g->spans = 0;
}

/* count quaternions va[i] → vb[i] by u, into dst[i] (at the next flush). */
static inline __attribute__((always_inline)) void f_slerp_push(const tendon_kernels *kt,
                                                               f_slerp_pool *g, const float *va,
                                                               const float *vb, float u,
                                                               size_t count, float *dst)
{
    while (count > 0) {
        if (g->n == F_SLERP_CHUNK)
            f_slerp_flush(kt, g);
        const size_t m = count < F_SLERP_CHUNK - g->n ? count : F_SLERP_CHUNK - g->n;
        float *pa = g->a + 4 * g->n, *pb = g->b + 4 * g->n;
        for (size_t e = 0; e < 4 * m; ++e)
            pa[e] = va[e], pb[e] = vb[e];
        for (size_t e = 0; e < m; ++e)
            g->u[g->n + e] = u;
        g->dst[g->spans] = dst;
        g->len[g->spans++] = (uint32_t)m;
        g->n += m;
        va += 4 * m, vb += 4 * m, dst += 4 * m, count -= m;
    }
}

/*
 * CUBICSPLINE in the float32 tier between keys k and k+1: the Hermite weights are the exact
 * tier's, computed in double from the double u and Δt (cubic_coeffs), each rounded once to
 * float (saturated at ±FLT_MAX) — rounding s first and forming (2·s³ − 3·s²) + 1 in float
 * would lose up to ~1e-6 of h00 and h01 to cancellation near s = 1 —; the sum is then float:
 *   p = ((h00·v_k + h10·b_k) + h01·v_k+1) + h11·a_k+1   (the clip_hermite_f32 kernel),
 * and rotations are normalised in float (tendon_reff_normalize).
 */
static void cubic_coeffs_f32(const tendon_clip *clip, const clip_track *c, keypos p, float h[4])
{
    double hd[4];
    cubic_coeffs(clip, c, p, hd);
    for (int j = 0; j < 4; ++j)
        h[j] = tendon_weight_to_f32(hd[j]);
}

typedef struct f_cubic_gather {
    float v0[F_CUBIC_CHUNK], b0[F_CUBIC_CHUNK], v1[F_CUBIC_CHUNK], a1[F_CUBIC_CHUNK];
    float h[4 * F_CUBIC_CHUNK], sum[F_CUBIC_CHUNK];
    const clip_track *track[F_CUBIC_CHUNK];
    float *dst[F_CUBIC_CHUNK];
    size_t nc, nt;
} f_cubic_gather;

/* The gathered sums → the tracks' values (rotations normalised); with track NULL, the nc
   components go to dst[0] as they are (a slice of a wide weights track). */
static void f_cubic_flush(const tendon_kernels *kt, f_cubic_gather *g)
{
    if (g->nc == 0)
        return;
    const size_t n = g->nc;
    if (n < F_CUBIC_CHUNK)
        for (size_t j = 1; j < 4; ++j)
            memmove(g->h + j * n, g->h + j * F_CUBIC_CHUNK, n * sizeof(float));
    kt->clip_hermite_f32(g->v0, g->b0, g->v1, g->a1, g->h, n, g->sum);
    size_t e = 0;
    for (size_t i = 0; i < g->nt; ++i) {
        const clip_track *c = g->track[i];
        if (c && c->path == TENDON_PATH_ROTATION) {
            float q[4] = {g->sum[e], g->sum[e + 1], g->sum[e + 2], g->sum[e + 3]};
            tendon_reff_normalize(q);
            memcpy(g->dst[i], q, sizeof q);
            e += 4;
        } else {
            const size_t m = c ? c->width : n;
            memcpy(g->dst[i], g->sum + e, m * sizeof(float));
            e += m;
        }
    }
    g->nc = g->nt = 0;
}

static void f_cubic_add(f_cubic_gather *g, const clip_track *c, keypos p, const float hc[4],
                        size_t e0, size_t m)
{
    const size_t w = c->width, k = p.k;
    const float *v0 = c->values + (3 * k + 1) * w + e0, *b0 = c->values + (3 * k + 2) * w + e0;
    const float *a1 = c->values + (3 * k + 3) * w + e0, *v1 = c->values + (3 * k + 4) * w + e0;
    for (size_t e = 0; e < m; ++e) {
        const size_t i = g->nc + e;
        g->v0[i] = v0[e], g->b0[i] = b0[e], g->v1[i] = v1[e], g->a1[i] = a1[e];
        for (size_t j = 0; j < 4; ++j)
            g->h[j * F_CUBIC_CHUNK + i] = hc[j];
    }
    g->nc += m;
}

/* STEP copies and CUBICSPLINE tracks of `list` (ordered by timeline). */
static void f32_other(const tendon_kernels *kt, const tendon_clip *clip, const uint32_t *list,
                      size_t count, double t, const sink *s, uint32_t *hints)
{
    f_cubic_gather g;
    g.nc = g.nt = 0;
    uint32_t last_tl = UINT32_MAX;
    keypos p = {0, 0.0, 1};
    for (size_t i = 0; i < count; ++i) {
        const clip_track *c = &clip->tracks[list[i]];
        float *dst = dest_of(c, s);
        if (!dst)
            continue;
        if (c->timeline != last_tl) {
            p = locate_track(clip, c, t, hints);
            last_tl = c->timeline;
        }
        if (p.copy || c->interp == TENDON_INTERP_STEP) {
            memcpy(dst, key_value(c, p.k), c->width * sizeof(float));
            continue;
        }
        float hc[4];
        cubic_coeffs_f32(clip, c, p, hc);
        if (c->width > F_CUBIC_CHUNK) { /* a wide weights track: in slices, on its own */
            f_cubic_flush(kt, &g);
            for (size_t e0 = 0; e0 < c->width; e0 += F_CUBIC_CHUNK) {
                const size_t m = c->width - e0 < F_CUBIC_CHUNK ? c->width - e0 : F_CUBIC_CHUNK;
                f_cubic_add(&g, c, p, hc, e0, m);
                g.track[0] = NULL;
                g.dst[0] = dst + e0;
                g.nt = 1;
                f_cubic_flush(kt, &g);
            }
            continue;
        }
        if (g.nc + c->width > F_CUBIC_CHUNK)
            f_cubic_flush(kt, &g);
        f_cubic_add(&g, c, p, hc, 0, c->width);
        g.track[g.nt] = c;
        g.dst[g.nt++] = dst;
    }
    f_cubic_flush(kt, &g);
}

/* LINEAR tracks of `list` (ordered by timeline), each pooled on its own (the packed output). */
static void f32_linear(const tendon_kernels *kt, const tendon_clip *clip, const uint32_t *list,
                       size_t count, double t, const sink *s, uint32_t *hints, f_lerp_pool *lp,
                       f_slerp_pool *sp)
{
    uint32_t last_tl = UINT32_MAX;
    keypos p = {0, 0.0, 1};
    float u = 0.0f;
    for (size_t i = 0; i < count; ++i) {
        const clip_track *c = &clip->tracks[list[i]];
        float *dst = dest_of(c, s);
        if (!dst)
            continue;
        if (c->timeline != last_tl) {
            p = locate_track(clip, c, t, hints);
            u = (float)p.u;
            last_tl = c->timeline;
        }
        const float *va = c->values + p.k * c->stride;
        if (p.copy)
            memcpy(dst, va, c->width * sizeof(float));
        else if (c->path == TENDON_PATH_ROTATION)
            f_slerp_push(kt, sp, va, va + c->stride, u, 1, dst);
        else
            f_lerp_push(kt, lp, va, va + c->stride, u, c->width, dst);
    }
}

/* Every run into the pose: one search per timeline, then a copy, a stream or the pools. */
static void f32_runs(const tendon_kernels *kt, const tendon_clip *clip, double t,
                     tendon_pose *pose, uint32_t *hints, f_lerp_pool *lp, f_slerp_pool *sp)
{
    float *const arrays[3] = {pose->translation, pose->rotation, pose->scale};
    uint32_t last_tl = UINT32_MAX;
    keypos p = {0, 0.0, 1};
    float u = 0.0f;
    for (size_t i = 0; i < clip->n_runs; ++i) {
        const clip_run *r = &clip->runs[i];
        if (r->timeline != last_tl) {
            p = locate_tl(clip, r->timeline, t, hints);
            u = (float)p.u;
            last_tl = r->timeline;
        }
        const size_t w = r->path == TENDON_PATH_ROTATION ? 4 : 3;
        float *dst = arrays[r->path] + w * (size_t)r->joint;
        const float *a = r->block + p.k * r->stride + r->src;
        if (p.copy || r->op == RUN_STEP) {
            memcpy(dst, a, w * r->tracks * sizeof(float));
            continue;
        }
        const float *b = a + r->stride;
        if (r->op == RUN_LERP) {
            const size_t nf = 3 * (size_t)r->tracks;
            if (nf >= F_LERP_STREAM)
                kt->clip_lerp_uniform_f32(a, b, u, nf, dst);
            else
                f_lerp_push(kt, lp, a, b, u, nf, dst);
        } else {
            const size_t m = r->tracks & ~(size_t)(F_SLERP_ALIGN - 1);
            if (m > 0)
                kt->clip_slerp_uniform_f32(a, b, u, m, dst);
            if (m < r->tracks)
                f_slerp_push(kt, sp, a + 4 * m, b + 4 * m, u, r->tracks - m, dst + 4 * m);
        }
    }
}

static void sample_all_f32(const tendon_kernels *kt, const tendon_clip *clip, double t,
                           const sink *s, uint32_t *hints)
{
    f_lerp_pool lp;
    f_slerp_pool sp;
    lp.n = lp.spans = 0;
    sp.n = sp.spans = 0;
    if (s->packed) {
        f32_other(kt, clip, clip->other, clip->n_other, t, s, hints);
        f32_linear(kt, clip, clip->lin_vec, clip->n_lin_vec, t, s, hints, &lp, &sp);
        f32_linear(kt, clip, clip->lin_rot, clip->n_lin_rot, t, s, hints, &lp, &sp);
    } else {
        f32_other(kt, clip, clip->f_cubic, clip->n_f_cubic, t, s, hints);
        f32_runs(kt, clip, t, s->pose, hints, &lp, &sp);
    }
    f_lerp_flush(kt, &lp);
    f_slerp_flush(kt, &sp);
}

void tendon_clip_sample_table_f32(const tendon_kernels *kt, const tendon_clip *clip,
                                  double time_sec, tendon_pose *pose, float *packed)
{
    const sink s = {pose, packed};
    sample_all_f32(kt, clip, time_sec, &s, NULL);
}

void tendon_clip_sample_table_cursor_f32(const tendon_kernels *kt, const tendon_clip *clip,
                                         double time_sec, uint32_t *cursor, tendon_pose *pose)
{
    const sink s = {pose, NULL};
    sample_all_f32(kt, clip, time_sec, &s, cursor);
}

/* ---- many times, a subset of the joints (the spring rig's anchors) ------------------------ */

/*
 * The tracks that drive a set of joints, for tendon_clip_sample_times_table: the TRS tracks
 * whose joint has a slot (slot_of_joint[joint] ≥ 0), in three kinds — STEP and CUBICSPLINE,
 * LINEAR non-rotations, LINEAR rotations — each ordered by timeline as the clip orders them.
 * `tracks` and `slots` have room for tendon_clip_track_count(clip) entries; kind k's entries
 * start at out_first[k] and number out_count[k]. Returns the total.
 */
size_t tendon_clip_subset(const tendon_clip *clip, const int32_t *slot_of_joint, uint32_t *tracks,
                          uint32_t *slots, size_t out_first[3], size_t out_count[3])
{
    const uint32_t *lists[3] = {clip->other, clip->lin_vec, clip->lin_rot};
    const size_t counts[3] = {clip->n_other, clip->n_lin_vec, clip->n_lin_rot};
    size_t n = 0;
    for (int kind = 0; kind < 3; ++kind) {
        out_first[kind] = n;
        for (size_t i = 0; i < counts[kind]; ++i) {
            const clip_track *c = &clip->tracks[lists[kind][i]];
            if (c->path == TENDON_PATH_WEIGHTS)
                continue;
            const int32_t slot = slot_of_joint[c->joint];
            if (slot < 0)
                continue;
            tracks[n] = lists[kind][i];
            slots[n++] = (uint32_t)slot;
        }
        out_count[kind] = n - out_first[kind];
    }
    return n;
}

void tendon_clip_mark_channels(const tendon_clip *clip, uint8_t *channels)
{
    for (size_t i = 0; i < clip->track_count; ++i) {
        const clip_track *c = &clip->tracks[i];
        if (c->path == TENDON_PATH_WEIGHTS) /* its id is a target's, not a joint: any value */
            continue;
        channels[c->joint] |= c->path == TENDON_PATH_TRANSLATION ? 1u
                              : c->path == TENDON_PATH_ROTATION  ? 2u
                              : c->path == TENDON_PATH_SCALE     ? 4u
                                                                 : 0u;
    }
}

/* Where track c's value at time i goes: slot `slot` of time i's block of `slots` joints. */
static inline float *times_dest(const clip_track *c, tendon_pose *out, size_t i,
                                size_t time_step, size_t slot_step, uint32_t slot)
{
    const size_t j = i * time_step + slot * slot_step;
    switch (c->path) {
    case TENDON_PATH_TRANSLATION: return out->translation + 3 * j;
    case TENDON_PATH_ROTATION: return out->rotation + 4 * j;
    default: return out->scale + 3 * j;
    }
}

/*
 * The listed tracks at `count` ≤ TIMES_CHUNK times, track by track: per timeline the key
 * interval at every time (the same search and u as the single-time samplers, in double), then
 * per track its interpolated values at every time gathered into one kernel call — clip_lerp /
 * quat_slerp (exact) or clip_lerp_f32 / quat_slerp_f32 with u rounded to float once (the
 * float32 tier; bit for bit the uniform kernels the single-time sampler streams long runs
 * through) — and scattered to each time's slot; STEP and on-key values copied; CUBICSPLINE
 * through clip_hermite(_f32) as the single-time samplers. The kernels are element-wise, so each
 * value has the single-time sampler's bits at its time.
 */
enum { TIMES_CHUNK = 64 };

static inline size_t pad16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

/*
 * One timeline's key intervals at a chunk's times, shared by every track on it (across kinds):
 * kp per time, and for LINEAR tracks the times that interpolate (at, their key k, u — once per
 * element for rotations, three times for vectors — rounded to float for the float32 tier,
 * padded to 16 elements as the kernels are called) and those on a key (copies).
 */
typedef struct times_plan {
    uint32_t timeline; /* UINT32_MAX: none yet */
    keypos kp[TIMES_CHUNK];
    size_t m, copies;
    uint8_t at[TIMES_CHUNK], copy_at[TIMES_CHUNK];
    size_t k[TIMES_CHUNK], copy_k[TIMES_CHUNK];
    float uf[TIMES_CHUNK], uf3[3 * TIMES_CHUNK];
    double ud[TIMES_CHUNK], ud3[3 * TIMES_CHUNK];
} times_plan;

static void times_plan_make(const tendon_clip *clip, uint32_t tl, const double *times,
                            size_t count, uint32_t *hints, int f32, times_plan *tp)
{
    tp->timeline = tl;
    tp->m = tp->copies = 0;
    for (size_t i = 0; i < count; ++i) {
        const keypos p = tp->kp[i] = locate_tl(clip, tl, times[i], hints);
        if (p.copy) {
            tp->copy_at[tp->copies] = (uint8_t)i;
            tp->copy_k[tp->copies++] = p.k;
            continue;
        }
        const size_t e = tp->m++;
        tp->at[e] = (uint8_t)i;
        tp->k[e] = p.k;
        if (f32) {
            const float u = (float)p.u;
            tp->uf[e] = tp->uf3[3 * e] = tp->uf3[3 * e + 1] = tp->uf3[3 * e + 2] = u;
        } else {
            tp->ud[e] = tp->ud3[3 * e] = tp->ud3[3 * e + 1] = tp->ud3[3 * e + 2] = p.u;
        }
    }
    /* the padding (see times_chunk): rotations repeat element 0, vectors are zeros */
    const size_t m = tp->m, mp = pad16(m), fp = pad16(3 * m);
    for (size_t e = m; e < mp; ++e) /* the tier's own arrays only: the other is never written */
        if (f32)
            tp->uf[e] = m ? tp->uf[0] : 0.0f;
        else
            tp->ud[e] = m ? tp->ud[0] : 0.0;
    for (size_t e = 3 * m; e < fp; ++e)
        if (f32)
            tp->uf3[e] = 0.0f;
        else
            tp->ud3[e] = 0.0;
}

static void times_chunk(const tendon_kernels *kt, const tendon_clip *clip, int f32, int kind,
                        const uint32_t *list, const uint32_t *slot, size_t n_tracks,
                        const double *times, size_t count, size_t time_step,
                        size_t slot_step, int direct, uint32_t *hints, tendon_pose *out,
                        times_plan *tp)
{
    const clip_track *tracks = clip->tracks;
    const keypos *kp = tp->kp;
    /* gathered values of one track (rotations: 4 floats an element, else 3 per element) */
    float a[4 * TIMES_CHUNK], b[4 * TIMES_CHUNK], o[4 * TIMES_CHUNK];
    cubic_gather g;
    f_cubic_gather gf;
    g.nc = g.nt = 0;
    gf.nc = gf.nt = 0;
    for (size_t n = 0; n < n_tracks; ++n) {
        const clip_track *c = &tracks[list[n]];
        if (c->timeline != tp->timeline)
            times_plan_make(clip, c->timeline, times, count, hints, f32, tp);
        const size_t w = c->width;
        if (kind == 0) { /* STEP copies, CUBICSPLINE through the Hermite kernels */
            for (size_t i = 0; i < count; ++i) {
                float *dst = times_dest(c, out, i, time_step, slot_step, slot[n]);
                const keypos p = kp[i];
                if (p.copy || c->interp == TENDON_INTERP_STEP) {
                    memcpy(dst, key_value(c, p.k), w * sizeof(float));
                } else if (f32) {
                    float hc[4];
                    cubic_coeffs_f32(clip, c, p, hc);
                    if (gf.nc + w > F_CUBIC_CHUNK)
                        f_cubic_flush(kt, &gf);
                    f_cubic_add(&gf, c, p, hc, 0, w);
                    gf.track[gf.nt] = c;
                    gf.dst[gf.nt++] = dst;
                } else {
                    double hc[4];
                    cubic_coeffs(clip, c, p, hc);
                    if (g.nc + w > CUBIC_CHUNK)
                        cubic_flush(kt, &g);
                    cubic_add(&g, c, p, hc, 0, w);
                    g.track[g.nt] = c;
                    g.dst[g.nt++] = dst;
                }
            }
            continue;
        }
        /* LINEAR: per time its two keys gathered, one kernel call, the values scattered to
           each time's slot (a rotation is 4 floats, a translation or scale 3: fixed sizes, so
           the copies are moves, not calls) */
        float *base = c->path == TENDON_PATH_TRANSLATION ? out->translation
                      : c->path == TENDON_PATH_ROTATION  ? out->rotation
                                                         : out->scale;
        const size_t step = w * time_step, at0 = w * slot_step * slot[n];
        /* the track's fields in locals: the scattered stores below may alias them for all the
           compiler knows, which made it reload both on every time */
        const float *const values = c->values;
        const size_t stride = c->stride;
        float *const dst0 = base + at0;
        const size_t m = tp->m; /* elements that interpolate */
        for (size_t e = 0; e < tp->copies; ++e) /* times on a key: its value */
            memcpy(dst0 + tp->copy_at[e] * step, values + tp->copy_k[e] * stride,
                   w * sizeof(float));
        if (m == 0)
            continue;
        if (kind == 2) {
            for (size_t e = 0; e < m; ++e) {
                const float *va = values + tp->k[e] * stride;
                memcpy(a + 4 * e, va, 4 * sizeof(float));
                memcpy(b + 4 * e, va + stride, 4 * sizeof(float));
            }
            /* padded to a multiple of 16 elements with copies of the first (each element is
               computed on its own, and the padding is never read back): no kernel runs a scalar
               tail, which on the 16-lane ISA cost as much as the vectors */
            const size_t mp = pad16(m);
            for (size_t e = m; e < mp; ++e) {
                memcpy(a + 4 * e, a, 4 * sizeof(float));
                memcpy(b + 4 * e, b, 4 * sizeof(float));
            }
            /* every time interpolates and the times are consecutive: straight into place (the
               padding lands in the slot's room past its times) */
            float *const to = direct && m == count ? dst0 : o;
            if (f32)
                kt->quat_slerp_f32(a, b, tp->uf, mp, to); /* u ∈ [0, 1]: the clamp does nothing */
            else
                kt->quat_slerp(a, b, tp->ud, mp, to);
            if (to == dst0)
                continue;
            for (size_t e = 0; e < m; ++e)
                memcpy(dst0 + tp->at[e] * step, o + 4 * e, 4 * sizeof(float));
            continue;
        }
        for (size_t e = 0; e < m; ++e) {
            const float *va = values + tp->k[e] * stride;
            memcpy(a + 3 * e, va, 3 * sizeof(float));
            memcpy(b + 3 * e, va + stride, 3 * sizeof(float));
        }
        const size_t fp = pad16(3 * m); /* floats, padded as above (with zeros) */
        for (size_t e = 3 * m; e < fp; ++e)
            a[e] = b[e] = 0.0f;
        float *const to = direct && m == count ? dst0 : o;
        if (f32)
            kt->clip_lerp_f32(a, b, tp->uf3, fp, to);
        else
            kt->clip_lerp(a, b, tp->ud3, fp, to);
        if (to == dst0)
            continue;
        for (size_t e = 0; e < m; ++e)
            memcpy(dst0 + tp->at[e] * step, o + 3 * e, 3 * sizeof(float));
    }
    if (f32)
        f_cubic_flush(kt, &gf);
    else
        cubic_flush(kt, &g);
}

void tendon_clip_sample_times_table(const tendon_kernels *kt, const tendon_clip *clip, int f32,
                                    const uint32_t *tracks, const uint32_t *slots,
                                    const size_t first[3], const size_t count[3],
                                    const double *times, size_t time_count, size_t time_step,
                                    size_t slot_step, uint32_t *hints, tendon_pose *out)
{
    /* time-major runs of a slot with room for their times padded to 16: the kernels may write
       there directly */
    const int direct = time_step == 1 && slot_step >= pad16(time_count);
    for (size_t i0 = 0; i0 < time_count; i0 += TIMES_CHUNK) {
        const size_t c = time_count - i0 < TIMES_CHUNK ? time_count - i0 : TIMES_CHUNK;
        tendon_pose part = *out; /* time i0's block onward */
        part.translation += 3 * i0 * time_step;
        part.rotation += 4 * i0 * time_step;
        part.scale += 3 * i0 * time_step;
        times_plan tp; /* the last timeline's intervals, across kinds */
        tp.timeline = UINT32_MAX;
        for (int kind = 0; kind < 3; ++kind)
            if (count[kind])
                times_chunk(kt, clip, f32, kind, tracks + first[kind], slots + first[kind],
                            count[kind], times + i0, c, time_step, slot_step, direct, hints,
                            &part, &tp);
    }
}

/* The slot of `joint` in the strictly increasing joints[count], or −1. */
static int32_t slot_in(const uint32_t *joints, size_t count, uint32_t joint)
{
    size_t lo = 0, hi = count;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (joints[mid] < joint)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < count && joints[lo] == joint ? (int32_t)lo : -1;
}

static tendon_status sample_times_checked(const char *fn, const tendon_kernels *given,
                                          const tendon_clip *clip, const double *times,
                                          size_t time_count, const uint32_t *joints,
                                          size_t joint_count, tendon_pose *out, int f32)
{
    if (!clip)
        return tendon_fail(TENDON_ERR_NULL, "%s: clip is NULL", fn);
    if (time_count > 0 && !times)
        return tendon_fail(TENDON_ERR_NULL, "%s: times is NULL with a count of %zu", fn,
                           time_count);
    if (joint_count > 0 && !joints)
        return tendon_fail(TENDON_ERR_NULL, "%s: joints is NULL with a count of %zu", fn,
                           joint_count);
    tendon_status st;
    if ((st = tendon_check_array_f64(fn, "times", times, time_count)) != TENDON_OK ||
        (st = tendon_check_array(fn, "joints", joints, joint_count, 1)) != TENDON_OK ||
        (st = tendon_check_pose(fn, "out", out)) != TENDON_OK)
        return st;
    if (joint_count != 0 && time_count > SIZE_MAX / joint_count)
        return tendon_fail(TENDON_ERR_OVERFLOW, "%s: %zu times × %zu joints overflow size_t", fn,
                           time_count, joint_count);
    if (out->joint_count != time_count * joint_count)
        return tendon_fail(TENDON_ERR_COUNT,
                           "%s: out has %zu joints; %zu times × %zu joints need %zu (time i's "
                           "joint s at i·joint_count + s)",
                           fn, out->joint_count, time_count, joint_count,
                           time_count * joint_count);
    /* times and joints are read again after out is partly written (a chunk of times, the
       tracks' slots): neither may share memory with it */
    {
        const size_t n = out->joint_count;
        const void *arr[3] = {out->translation, out->rotation, out->scale};
        const size_t bytes[3] = {3 * n * sizeof(float), 4 * n * sizeof(float),
                                 3 * n * sizeof(float)};
        static const char *const name[3] = {"translation", "rotation", "scale"};
        for (int a = 0; a < 3; ++a) {
            if (tendon_ranges_overlap(times, time_count * sizeof(double), arr[a], bytes[a]))
                return tendon_fail(TENDON_ERR_ALIAS, "%s: times overlaps out.%s, which it writes",
                                   fn, name[a]);
            if (tendon_ranges_overlap(joints, joint_count * sizeof(uint32_t), arr[a], bytes[a]))
                return tendon_fail(TENDON_ERR_ALIAS, "%s: joints overlaps out.%s, which it writes",
                                   fn, name[a]);
        }
    }
    for (size_t s = 0; s < joint_count; ++s) {
        if (joints[s] >= clip->joint_count)
            return tendon_fail(TENDON_ERR_RANGE,
                               "%s: joints[%zu] is %u, not below the clip's joint count %zu", fn,
                               s, (unsigned)joints[s], clip->joint_count);
        if (s > 0 && !(joints[s] > joints[s - 1]))
            return tendon_fail(TENDON_ERR_VALUE,
                               "%s: joints[%zu] = %u is not after joints[%zu] = %u: the joints "
                               "must be strictly increasing",
                               fn, s, (unsigned)joints[s], s - 1, (unsigned)joints[s - 1]);
    }
    for (size_t i = 0; i < time_count; ++i)
        if (times[i] != times[i])
            return tendon_fail(TENDON_ERR_VALUE,
                               "%s: times[%zu] is NaN: a clip is sampled at a number of seconds",
                               fn, i);
    const tendon_kernels *kt = given;
    if (!kt && (st = tendon_active_kernels(&kt)) != TENDON_OK)
        return st;
    if (time_count == 0 || joint_count == 0)
        return TENDON_OK;
    /* the tracks of the joints, a chunk of the clip's lists at a time (no allocation) */
    enum { CHUNK = 256 };
    const uint32_t *lists[3] = {clip->other, clip->lin_vec, clip->lin_rot};
    const size_t counts[3] = {clip->n_other, clip->n_lin_vec, clip->n_lin_rot};
    uint32_t tracks[CHUNK], slots[CHUNK];
    for (int kind = 0; kind < 3; ++kind) {
        for (size_t i = 0; i < counts[kind];) {
            size_t n = 0;
            for (; i < counts[kind] && n < CHUNK; ++i) {
                const clip_track *c = &clip->tracks[lists[kind][i]];
                if (c->path == TENDON_PATH_WEIGHTS)
                    continue;
                const int32_t slot = slot_in(joints, joint_count, c->joint);
                if (slot < 0)
                    continue;
                tracks[n] = lists[kind][i];
                slots[n++] = (uint32_t)slot;
            }
            size_t first[3] = {0, 0, 0}, count[3] = {0, 0, 0};
            count[kind] = n;
            tendon_clip_sample_times_table(kt, clip, f32, tracks, slots, first, count, times,
                                           time_count, joint_count, 1, NULL, out);
        }
    }
    return TENDON_OK;
}

tendon_status tendon_clip_sample_times(const tendon_clip *clip, const double *times,
                                       size_t time_count, const uint32_t *joints,
                                       size_t joint_count, tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    return sample_times_checked("tendon_clip_sample_times", NULL, clip, times, time_count, joints,
                                joint_count, out, 0);
}

tendon_status tendon_clip_sample_times_f32(const tendon_clip *clip, const double *times,
                                           size_t time_count, const uint32_t *joints,
                                           size_t joint_count, tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    return sample_times_checked("tendon_clip_sample_times_f32", NULL, clip, times, time_count,
                                joints, joint_count, out, 1);
}

tendon_status tendon_clip_sample_times_on(const tendon_kernels *k, const tendon_clip *clip,
                                          const double *times, size_t time_count,
                                          const uint32_t *joints, size_t joint_count,
                                          tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    return sample_times_checked("tendon_clip_sample_times", k, clip, times, time_count, joints,
                                joint_count, out, 0);
}

tendon_status tendon_clip_sample_times_f32_on(const tendon_kernels *k, const tendon_clip *clip,
                                              const double *times, size_t time_count,
                                              const uint32_t *joints, size_t joint_count,
                                              tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    return sample_times_checked("tendon_clip_sample_times_f32", k, clip, times, time_count,
                                joints, joint_count, out, 1);
}

/* ---- the public samplers: the checks both tiers make ----------------------------------- */

/* The pose and time checks both pose samplers make, then the active table. */
static tendon_status check_pose_sample(const char *fn, const tendon_clip *clip, double time_sec,
                                       const tendon_pose *pose, const tendon_kernels **kt)
{
    tendon_status st = tendon_check_pose(fn, "pose", pose);
    if (st != TENDON_OK)
        return st;
    if (pose->joint_count != clip->joint_count)
        return tendon_fail(TENDON_ERR_COUNT,
                           "%s: pose has %zu joints, the clip was made for %zu", fn,
                           pose->joint_count, clip->joint_count);
    if (time_sec != time_sec)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: time_sec is NaN: a clip is sampled at a number of seconds", fn);
    return tendon_active_kernels(kt);
}

static tendon_status sample_checked(const char *fn, const tendon_clip *clip, double time_sec,
                                    tendon_pose *pose, int f32)
{
    if (!clip)
        return tendon_fail(TENDON_ERR_NULL, "%s: clip is NULL", fn);
    const tendon_kernels *kt;
    const tendon_status st = check_pose_sample(fn, clip, time_sec, pose, &kt);
    if (st != TENDON_OK)
        return st;
    const sink s = {pose, NULL};
    if (f32)
        sample_all_f32(kt, clip, time_sec, &s, NULL);
    else
        sample_all(kt, clip, time_sec, &s, NULL);
    return TENDON_OK;
}

static tendon_status sample_cursor_checked(const char *fn, const tendon_clip *clip,
                                           double time_sec, uint32_t *cursor,
                                           size_t cursor_count, tendon_pose *pose, int f32)
{
    if (!clip)
        return tendon_fail(TENDON_ERR_NULL, "%s: clip is NULL", fn);
    if (cursor_count < clip->timeline_count)
        return tendon_fail(TENDON_ERR_COUNT,
                           "%s: the cursor holds %zu entries, the clip has %zu timelines "
                           "(tendon_clip_timeline_count)",
                           fn, cursor_count, clip->timeline_count);
    if (clip->timeline_count > 0 && !cursor)
        return tendon_fail(TENDON_ERR_NULL, "%s: cursor is NULL", fn);
    tendon_status cst = tendon_check_array(fn, "cursor", cursor, clip->timeline_count, 1);
    if (cst != TENDON_OK)
        return cst;
    const tendon_kernels *kt;
    const tendon_status st = check_pose_sample(fn, clip, time_sec, pose, &kt);
    if (st != TENDON_OK)
        return st;
    /* a timeline's entry is written at each of its searches, after other timelines' values are
       already in the pose: a cursor sharing memory with the pose would overwrite them */
    {
        const size_t n = pose->joint_count;
        const void *arr[3] = {pose->translation, pose->rotation, pose->scale};
        const size_t bytes[3] = {3 * n * sizeof(float), 4 * n * sizeof(float),
                                 3 * n * sizeof(float)};
        static const char *const name[3] = {"translation", "rotation", "scale"};
        for (int a = 0; a < 3; ++a)
            if (tendon_ranges_overlap(cursor, clip->timeline_count * sizeof(uint32_t), arr[a],
                                      bytes[a]))
                return tendon_fail(TENDON_ERR_ALIAS,
                                   "%s: cursor overlaps pose.%s, which it writes", fn, name[a]);
    }
    const sink s = {pose, NULL};
    if (f32)
        sample_all_f32(kt, clip, time_sec, &s, cursor);
    else
        sample_all(kt, clip, time_sec, &s, cursor);
    return TENDON_OK;
}

static tendon_status sample_tracks_checked(const char *fn, const tendon_clip *clip,
                                           double time_sec, float *out, size_t out_count, int f32)
{
    if (!clip)
        return tendon_fail(TENDON_ERR_NULL, "%s: clip is NULL", fn);
    if (out_count < clip->value_count)
        return tendon_fail(TENDON_ERR_COUNT,
                           "%s: out holds %zu floats, the clip's tracks need %zu", fn, out_count,
                           clip->value_count);
    if (time_sec != time_sec)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: time_sec is NaN: a clip is sampled at a number of seconds", fn);
    if (clip->value_count == 0)
        return TENDON_OK;
    tendon_status st = tendon_check_array(fn, "out", out, clip->value_count, 1);
    if (st != TENDON_OK)
        return st;
    const tendon_kernels *kt;
    if ((st = tendon_active_kernels(&kt)) != TENDON_OK)
        return st;
    const sink s = {NULL, out};
    if (f32)
        sample_all_f32(kt, clip, time_sec, &s, NULL);
    else
        sample_all(kt, clip, time_sec, &s, NULL);
    return TENDON_OK;
}

tendon_status tendon_clip_sample(const tendon_clip *clip, double time_sec, tendon_pose *pose)
{
    TENDON_FPENV_GUARD();
    return sample_checked("tendon_clip_sample", clip, time_sec, pose, 0);
}

tendon_status tendon_clip_sample_cursor(const tendon_clip *clip, double time_sec, uint32_t *cursor,
                                        size_t cursor_count, tendon_pose *pose)
{
    TENDON_FPENV_GUARD();
    return sample_cursor_checked("tendon_clip_sample_cursor", clip, time_sec, cursor,
                                 cursor_count, pose, 0);
}

tendon_status tendon_clip_sample_tracks(const tendon_clip *clip, double time_sec, float *out,
                                        size_t out_count)
{
    TENDON_FPENV_GUARD();
    return sample_tracks_checked("tendon_clip_sample_tracks", clip, time_sec, out, out_count, 0);
}

tendon_status tendon_clip_sample_f32(const tendon_clip *clip, double time_sec, tendon_pose *pose)
{
    TENDON_FPENV_GUARD();
    return sample_checked("tendon_clip_sample_f32", clip, time_sec, pose, 1);
}

tendon_status tendon_clip_sample_cursor_f32(const tendon_clip *clip, double time_sec,
                                            uint32_t *cursor, size_t cursor_count,
                                            tendon_pose *pose)
{
    TENDON_FPENV_GUARD();
    return sample_cursor_checked("tendon_clip_sample_cursor_f32", clip, time_sec, cursor,
                                 cursor_count, pose, 1);
}

tendon_status tendon_clip_sample_tracks_f32(const tendon_clip *clip, double time_sec, float *out,
                                            size_t out_count)
{
    TENDON_FPENV_GUARD();
    return sample_tracks_checked("tendon_clip_sample_tracks_f32", clip, time_sec, out, out_count,
                                 1);
}

/* ---- root motion --------------------------------------------------------------------------- */

/* One track at one time, through the scalar reference (the same bits as any ISA's sampler). */
static void sample_one(const tendon_clip *clip, const clip_track *c, double t, float *dst)
{
    const keypos p = locate_track(clip, c, t, NULL);
    if (p.copy || c->interp == TENDON_INTERP_STEP) {
        memcpy(dst, key_value(c, p.k), c->width * sizeof(float));
    } else if (c->interp == TENDON_INTERP_CUBICSPLINE) {
        cubic_one(clip, c, p, dst);
    } else {
        const float *va = c->values + p.k * c->stride, *vb = va + c->stride;
        if (c->path == TENDON_PATH_ROTATION) {
            tendon_quat_slerp_scalar(va, vb, &p.u, 1, dst);
        } else {
            for (size_t e = 0; e < c->width; ++e) {
                const double uu = p.u;
                tendon_clip_lerp_scalar(va + e, vb + e, &uu, 1, dst + e);
            }
        }
    }
}

/* A rigid transform in double: translation and rotation (x y z w). */
typedef struct rigid {
    double t[3];
    double q[4];
} rigid;

static void quat_rotate(const double q[4], const double v[3], double out[3])
{
    /* q ⊗ (v, 0) ⊗ q*, by two products in the seed's order */
    const double p[4] = {v[0], v[1], v[2], 0.0};
    const double qc[4] = {-q[0], -q[1], -q[2], q[3]};
    double a[4], b[4];
    tendon_ref_multiply(q, p, a);
    tendon_ref_multiply(a, qc, b);
    out[0] = b[0], out[1] = b[1], out[2] = b[2];
}

/* x ∘ y: first x, then y in x's frame: (tx + qx·ty, qx ⊗ qy). */
static rigid rigid_compose(const rigid *x, const rigid *y)
{
    rigid r;
    double v[3];
    quat_rotate(x->q, y->t, v);
    for (int c = 0; c < 3; ++c)
        r.t[c] = x->t[c] + v[c];
    tendon_ref_multiply(x->q, y->q, r.q);
    return r;
}

/* The inverse of a rigid transform whose rotation is unit: (−q*·t, q*). */
static rigid rigid_inverse(const rigid *x)
{
    rigid r;
    const double qc[4] = {-x->q[0], -x->q[1], -x->q[2], x->q[3]};
    double v[3];
    quat_rotate(qc, x->t, v);
    for (int c = 0; c < 3; ++c)
        r.t[c] = -v[c];
    memcpy(r.q, qc, sizeof qc);
    return r;
}

static rigid rigid_identity(void)
{
    rigid r = {{0, 0, 0}, {0, 0, 0, 1}};
    return r;
}

typedef struct root_tracks {
    const tendon_clip *clip;
    const clip_track *t, *r;
} root_tracks;

/* The root's transform at phase t (its rotation normalised in double, so the inverse holds). */
static rigid root_at(const root_tracks *rt, double t)
{
    rigid x = rigid_identity();
    float v[4];
    if (rt->t) {
        sample_one(rt->clip, rt->t, t, v);
        x.t[0] = v[0], x.t[1] = v[1], x.t[2] = v[2];
    }
    if (rt->r) {
        sample_one(rt->clip, rt->r, t, v);
        tendon_ref_load4(v, x.q);
        tendon_ref_normalize(x.q);
    }
    return x;
}

/* Δ(a, b) = R(a)⁻¹ ∘ R(b) */
static rigid root_delta(const root_tracks *rt, double a, double b)
{
    const rigid ra = root_at(rt, a), rb = root_at(rt, b);
    const rigid inv = rigid_inverse(&ra);
    return rigid_compose(&inv, &rb);
}

static tendon_status root_tracks_of(const char *fn, const tendon_clip *clip, size_t root,
                                    root_tracks *rt)
{
    if (root >= clip->joint_count)
        return tendon_fail(TENDON_ERR_RANGE, "%s: root_joint %zu is not below the joint count %zu",
                           fn, root, clip->joint_count);
    rt->clip = clip;
    rt->t = rt->r = NULL;
    for (size_t i = 0; i < clip->track_count; ++i) {
        const clip_track *c = &clip->tracks[i];
        if (c->joint != root)
            continue;
        if (c->path == TENDON_PATH_TRANSLATION)
            rt->t = c;
        else if (c->path == TENDON_PATH_ROTATION)
            rt->r = c;
    }
    return TENDON_OK;
}

/* ⌊x⌋ for finite x, exact, without libm. */
static double floor_exact(double x)
{
    if (!(x > -4503599627370496.0 && x < 4503599627370496.0))
        return x; /* |x| ≥ 2^52: already an integer */
    const double i = (double)(int64_t)x; /* truncation toward zero */
    return i > x ? i - 1.0 : i;
}

/* Motion from a to b, a ≤ b, looping with period d > 0. */
static rigid motion_forward(const root_tracks *rt, double d, double a, double b)
{
    const double ca = floor_exact(a / d);
    const double cb = floor_exact(b / d);
    double pa = a - ca * d, pb = b - cb * d;
    /* guard the rounding of the phase into [0, d] */
    pa = tendon_ref_max0(pa);
    if (pa > d)
        pa = d;
    pb = tendon_ref_max0(pb);
    if (pb > d)
        pb = d;
    double wraps = cb - ca;
    if (wraps <= 0.0)
        return root_delta(rt, pa, pb);
    const rigid head = root_delta(rt, pa, d), tail = root_delta(rt, 0.0, pb);
    rigid loop = root_delta(rt, 0.0, d), acc = rigid_identity();
    double m = wraps - 1.0; /* whole loops between: loop^m by squaring */
    while (m >= 1.0) {
        const double half = floor_exact(m / 2.0);
        if (m - 2.0 * half == 1.0)
            acc = rigid_compose(&acc, &loop);
        loop = rigid_compose(&loop, &loop);
        m = half;
    }
    rigid r = rigid_compose(&head, &acc);
    return rigid_compose(&r, &tail);
}

tendon_status tendon_root_motion_extract(const tendon_clip *clip, size_t root_joint,
                                         double from_sec, double to_sec, tendon_root_motion *out)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_root_motion_extract";
    if (!clip || !out)
        return tendon_fail(TENDON_ERR_NULL, "%s: %s is NULL", fn, !clip ? "clip" : "out");
    tendon_status ast = tendon_check_aligned(fn, "out", out, _Alignof(tendon_root_motion));
    if (ast != TENDON_OK)
        return ast;
    if (!(from_sec - from_sec == 0.0) || !(to_sec - to_sec == 0.0))
        return tendon_fail(TENDON_ERR_VALUE, "%s: %s is %g: times must be finite", fn,
                           !(from_sec - from_sec == 0.0) ? "from_sec" : "to_sec",
                           !(from_sec - from_sec == 0.0) ? from_sec : to_sec);
    root_tracks rt = {clip, NULL, NULL};
    tendon_status st = root_tracks_of(fn, clip, root_joint, &rt);
    if (st != TENDON_OK)
        return st;
    rigid m = rigid_identity();
    const double d = clip->duration;
    /* Past 2^53 loops (or where t/d overflows to ±∞) a time has no phase, and the loop count
     * would be ±∞ — which halving never brings below 1: refuse before any of that. */
    for (int which = 0; d > 0.0 && which < 2; ++which) {
        const double t = which == 0 ? from_sec : to_sec, loops = t / d;
        if (!(loops < TENDON_ROOT_MOTION_MAX_LOOPS && loops > -TENDON_ROOT_MOTION_MAX_LOOPS))
            return tendon_fail(TENDON_ERR_VALUE,
                               "%s: %s is %.17g s, %.17g loops of the %.17g s clip; a time must "
                               "stay below TENDON_ROOT_MOTION_MAX_LOOPS (2^53) loops from 0, "
                               "where it still has a phase",
                               fn, which == 0 ? "from_sec" : "to_sec", t, loops, d);
    }
    if (d > 0.0 && (rt.t || rt.r) && from_sec != to_sec) {
        if (to_sec > from_sec) {
            m = motion_forward(&rt, d, from_sec, to_sec);
        } else {
            const rigid back = motion_forward(&rt, d, to_sec, from_sec);
            m = rigid_inverse(&back);
        }
    }
    for (int c = 0; c < 3; ++c)
        out->translation[c] = (float)m.t[c];
    tendon_ref_normalize(m.q);
    tendon_ref_store4(m.q, out->rotation);
    return TENDON_OK;
}

tendon_status tendon_root_motion_strip(const tendon_clip *clip, size_t root_joint,
                                       tendon_pose *pose)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_root_motion_strip";
    if (!clip)
        return tendon_fail(TENDON_ERR_NULL, "%s: clip is NULL", fn);
    tendon_status st = tendon_check_pose(fn, "pose", pose);
    if (st != TENDON_OK)
        return st;
    if (pose->joint_count != clip->joint_count)
        return tendon_fail(TENDON_ERR_COUNT, "%s: pose has %zu joints, the clip was made for %zu",
                           fn, pose->joint_count, clip->joint_count);
    root_tracks rt = {clip, NULL, NULL};
    if ((st = root_tracks_of(fn, clip, root_joint, &rt)) != TENDON_OK)
        return st;
    if (rt.t)
        sample_one(clip, rt.t, 0.0, pose->translation + 3 * root_joint);
    if (rt.r)
        sample_one(clip, rt.r, 0.0, pose->rotation + 4 * root_joint);
    return TENDON_OK;
}
