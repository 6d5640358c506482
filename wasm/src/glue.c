/*
 * The JavaScript binding's side inside the module (wasm/tendon.mjs; docs/wasm.md, "The
 * binding"): the spring anchors a JavaScript caller can give, as the C anchors the library
 * calls. Nothing here computes a kernel; every sample is the library's public call.
 *
 * Two kinds of anchor:
 * - a JavaScript one (MODE_BATCH): called once per sample with every time the sample will ask
 *   for (the seed's grid: start, start + n·step for n = 1..steps, time_sec; import
 *   tendon_js.anchor_batch), whose answers the library then reads from a table (one table per
 *   nesting depth: the function may sample a spring itself). A batched function `{batch}`
 *   fills the table itself; for a function (timeSec, out) the binding calls it once per time
 *   on its side of that one call out (a call out of the module costs 10-18 ns; one per
 *   substep was what the first binding made);
 * - a declarative anchor evaluated here, in the module (constant, linear, sine, step, keys: the
 *   seed cases' kinds, tests/data/CASES-README.md, with `tendon replay`'s formulas).
 *
 * Also the description structs of clips, skeletons, skinning, prepared skin meshes and the
 * spring rig filled from scalars (so the binding depends on no struct layout), and the rig's
 * blend / layer weights as JavaScript functions of time (import tendon_js.rig_weight).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <tendon/tendon.h>

#include "common/detmath_v8.h" /* tendon_v8_sin: V8's Math.sin, as the seed's JavaScript computes */

#include "common/spring_anchor_table.h" /* the anchor as a table, read by the march itself */
#include "common/spring_internal.h" /* tendon_spring_chain_grid: the checks chain_sample makes */

#define GLUE_API __attribute__((visibility("default")))

/* ---- a batched JavaScript function: every time of the sample in one call ------------------- */

__attribute__((import_module("tendon_js"), import_name("anchor_batch"))) void
tendon_js_anchor_batch(uint32_t id, const double *times, uint32_t count, float *out);

/* A time the table does not hold (a NaN time, say): asked of the function itself (user: its id). */
static void js_one(void *user, double time_sec, float *out)
{
    tendon_js_anchor_batch((uint32_t)(uintptr_t)user, &time_sec, 1, out);
}

/*
 * The anchor times of one sample, the seed's grid: times[0] = time_sec − lookback, times[n] =
 * times[0] + n·step for n = 1..steps, times[steps + 1] = time_sec. Returns the count (steps + 2),
 * 0 when the grid has no substep count (the sample then refuses, or marches nothing), or −1 when
 * `capacity` is too small.
 */
static long grid_times(double lookback, double fastest_hz, double time_sec, double *times,
                       size_t capacity)
{
    const double wanted = (lookback * fastest_hz) * (double)TENDON_SPRING_STEPS_PER_PERIOD;
    if (!(wanted <= (double)TENDON_SPRING_MAX_SUBSTEPS))
        return 0;
    size_t steps = (size_t)wanted;
    if ((double)steps < wanted)
        ++steps;
    if (steps < 1)
        steps = 1;
    if (steps + 2 > capacity)
        return -1;
    const double start = time_sec - lookback, step = lookback / (double)steps;
    times[0] = start;
    for (size_t n = 1; n <= steps; ++n)
        times[n] = start + (double)n * step;
    times[steps + 1] = time_sec;
    return (long)(steps + 2);
}

/* ---- declarative anchors, evaluated in the module ------------------------------------------ */

enum { ANCHOR_CONSTANT = 0, ANCHOR_LINEAR = 1, ANCHOR_SINE = 2, ANCHOR_STEP = 3, ANCHOR_KEYS = 4 };

/* Laid out by the binding (tendon.mjs, makeAnchor): 8 doubles of header, then the keys. */
typedef struct decl_anchor {
    double kind;          /* ANCHOR_* */
    double a[3];          /* value | origin | amplitude | from | - */
    double b[3];          /* - | velocity | center | to | - */
    double frequency_hz;  /* sine */
    double phase;         /* sine, radians */
    double at;            /* step: t < at ? from : to */
    double key_count;     /* keys */
    double keys[];        /* keys: times[key_count], then values[key_count][3] */
} decl_anchor;

static void decl_eval(void *user, double t, float *out)
{
    const decl_anchor *an = user;
    double v[3];
    switch ((int)an->kind) {
    case ANCHOR_LINEAR:
        for (int k = 0; k < 3; ++k)
            v[k] = an->a[k] + an->b[k] * t;
        break;
    case ANCHOR_SINE: {
        const double s = tendon_v8_sin(((2.0 * 3.141592653589793) * an->frequency_hz) * t + an->phase);
        for (int k = 0; k < 3; ++k)
            v[k] = an->b[k] + an->a[k] * s;
        break;
    }
    case ANCHOR_STEP:
        memcpy(v, t < an->at ? an->a : an->b, sizeof v);
        break;
    case ANCHOR_KEYS: {
        const size_t n = (size_t)an->key_count;
        const double *times = an->keys, *values = an->keys + n;
        if (!(t > times[0])) {
            memcpy(v, values, sizeof v);
        } else if (t >= times[n - 1]) {
            memcpy(v, values + 3 * (n - 1), sizeof v);
        } else {
            size_t j = 0;
            while (j + 1 < n && times[j + 1] <= t)
                ++j;
            const double u = (t - times[j]) / (times[j + 1] - times[j]);
            for (int k = 0; k < 3; ++k)
                v[k] = values[3 * j + k] + (values[3 * (j + 1) + k] - values[3 * j + k]) * u;
        }
        break;
    }
    default: /* ANCHOR_CONSTANT */
        memcpy(v, an->a, sizeof v);
        break;
    }
    for (int k = 0; k < 3; ++k)
        out[k] = (float)v[k];
}

/* decl_eval at every time of a table: the same values, the kind's case chosen once (a call of
   decl_eval per time cost about as much as the constant, linear and sine cases themselves). */
static void decl_fill(const decl_anchor *an, const double *times, size_t count, float *values)
{
    switch ((int)an->kind) {
    case ANCHOR_CONSTANT:
        for (size_t i = 0; i < count; ++i)
            for (int k = 0; k < 3; ++k)
                values[3 * i + k] = (float)an->a[k];
        break;
    case ANCHOR_LINEAR:
        for (size_t i = 0; i < count; ++i)
            for (int k = 0; k < 3; ++k)
                values[3 * i + k] = (float)(an->a[k] + an->b[k] * times[i]);
        break;
    case ANCHOR_SINE: {
        const double angular = (2.0 * 3.141592653589793) * an->frequency_hz;
        for (size_t i = 0; i < count; ++i) {
            const double s = tendon_v8_sin(angular * times[i] + an->phase);
            for (int k = 0; k < 3; ++k)
                values[3 * i + k] = (float)(an->b[k] + an->a[k] * s);
        }
        break;
    }
    default:
        for (size_t i = 0; i < count; ++i)
            decl_eval((void *)an, times[i], values + 3 * i);
        break;
    }
}

/* ---- the entry points the binding calls ---------------------------------------------------- */

enum { MODE_BATCH = 1, MODE_DECL = 2 }; /* (0 was a call out per time: gone) */

/*
 * The batched mode's tables, grown on demand (the binding's scratch), one per nesting depth: an
 * anchor function may itself sample a spring (the binding is re-entrant), and that inner sample
 * must not move or overwrite the outer one's table while the outer is being filled or read.
 * Deeper than TABLE_DEPTH, a sample has no table and asks each time one by one (the same
 * answers, slower).
 */
#define TABLE_DEPTH 8
static struct {
    double *times;
    float *values;
    size_t capacity;
} g_tables[TABLE_DEPTH];
static unsigned g_depth; /* samples in the batched mode in progress */

static int reserve(unsigned d, size_t count)
{
    if (g_tables[d].capacity >= count)
        return 0;
    double *t = realloc(g_tables[d].times, count * sizeof *t);
    if (!t)
        return -1;
    g_tables[d].times = t;
    float *v = realloc(g_tables[d].values, 3 * count * sizeof *v);
    if (!v)
        return -1;
    g_tables[d].values = v;
    g_tables[d].capacity = count;
    return 0;
}

/* Fill table d (the sample's nesting depth − 1) for a sample of `lookback` at `fastest_hz`: a
   batched function (MODE_BATCH, `anchor` its id) answers every time of the grid in one call; a
   declarative anchor (MODE_DECL, `anchor` the decl_anchor) is evaluated at each in one loop. The
   library's march then reads the table without a call per substep (common/spring_anchor_table.h).
   No table (t->count 0: every time asked one by one of t->miss) when the grid has no count (the
   library then refuses or marches nothing), the time is NaN, or the nesting is deeper than
   TABLE_DEPTH. */
static tendon_status fill_table(unsigned d, double lookback, double fastest_hz, double time_sec,
                                uint32_t mode, uintptr_t anchor, tendon_spring_anchor_table *t)
{
    *t = (tendon_spring_anchor_table){0};
    t->width = 3;
    t->miss = mode == MODE_DECL ? decl_eval : js_one;
    t->miss_user = (void *)anchor;
    /* a NaN time makes every time of the grid NaN, which no lookup finds: asked one by one
       from the start, so the function is called once per time as without a table */
    if (d >= TABLE_DEPTH || time_sec != time_sec)
        return TENDON_OK;
    long count = grid_times(lookback, fastest_hz, time_sec, g_tables[d].times,
                            g_tables[d].capacity);
    if (count < 0) {
        const double wanted = (lookback * fastest_hz) * (double)TENDON_SPRING_STEPS_PER_PERIOD;
        if (reserve(d, (size_t)wanted + 3) != 0)
            return tendon_error_set(TENDON_ERR_NOMEM,
                                    "spring anchor table: out of memory for %.0f times",
                                    wanted + 3);
        count = grid_times(lookback, fastest_hz, time_sec, g_tables[d].times,
                           g_tables[d].capacity);
    }
    t->times = g_tables[d].times;
    t->values = g_tables[d].values;
    t->count = count > 0 ? (size_t)count : 0;
    if (t->count && mode == MODE_DECL)
        decl_fill((const decl_anchor *)anchor, g_tables[d].times, t->count, g_tables[d].values);
    else if (t->count)
        tendon_js_anchor_batch((uint32_t)anchor, g_tables[d].times, (uint32_t)t->count,
                               g_tables[d].values);
    return TENDON_OK;
}

static size_t g_last_misses;

/** How many anchor times the last batched sample had to ask one by one (0: none). */
GLUE_API uint32_t tendon_wasm_last_batch_misses(void) { return (uint32_t)g_last_misses; }

/** The batched mode's nesting depth, and setting it back: an exception raised inside the module
 *  (a JavaScript stack overflow in a nested sample) unwinds its frames without their cleanup,
 *  and the binding restores the depth it saw when it called in (tendon.mjs, _callEnd). */
GLUE_API uint32_t tendon_wasm_nesting(void) { return g_depth; }
GLUE_API void tendon_wasm_set_nesting(uint32_t depth) { g_depth = depth; }

/**
 * tendon_spring_sample with the binding's anchors: mode MODE_BATCH (`anchor` is the JavaScript
 * anchor's id; called once with every time), MODE_DECL (`anchor` is a decl_anchor in module
 * memory); any other mode is refused. Errors: the library's.
 */
GLUE_API tendon_status tendon_wasm_spring_sample(const tendon_spring_settings *settings,
                                                 uint32_t mode, uintptr_t anchor,
                                                 double time_sec, float *out)
{
    if (mode != MODE_BATCH && mode != MODE_DECL)
        return tendon_error_set(TENDON_ERR_VALUE, "tendon_wasm_spring_sample: mode %u is not "
                                "MODE_BATCH (1) or MODE_DECL (2)", (unsigned)mode);
    tendon_spring_anchor_table t;
    double lookback = 0.0;
    /* The binding writes every sample's settings to one buffer, and a function filling the
       table may sample a spring itself: the library gets this sample's copy. */
    tendon_spring_settings own;
    if (settings) {
        own = *settings;
        settings = &own;
    }
    const unsigned d = g_depth++; /* this sample's table, until it returns */
    tendon_status st = TENDON_OK;
    const int marches = settings && out && tendon_spring_settle_sec(settings, &lookback) == TENDON_OK &&
                        settings->frequency_hz > 0.0 && settings->damping > 0.0;
    st = fill_table(marches ? d : TABLE_DEPTH, lookback, settings ? settings->frequency_hz : 0.0,
                    time_sec, mode, anchor, &t);
    if (st == TENDON_OK)
        st = tendon_spring_sample(settings, tendon_spring_table_anchor, &t, time_sec, out);
    --g_depth;
    g_last_misses = mode == MODE_BATCH ? t.misses : 0;
    return st;
}

/** tendon_spring_chain_sample (no workspace: at most TENDON_SPRING_CHAIN_STACK_LINKS links, or
 *  `workspace`) with the binding's anchors, as tendon_wasm_spring_sample. */
GLUE_API tendon_status tendon_wasm_spring_chain_sample(const tendon_spring_link *links,
                                                       size_t link_count, uint32_t mode,
                                                       uintptr_t anchor, double time_sec,
                                                       void *workspace, size_t workspace_bytes,
                                                       float *out, size_t out_count)
{
    if (mode != MODE_BATCH && mode != MODE_DECL)
        return tendon_error_set(TENDON_ERR_VALUE, "tendon_wasm_spring_chain_sample: mode %u is "
                                "not MODE_BATCH (1) or MODE_DECL (2)", (unsigned)mode);
    tendon_spring_anchor_table t;
    /* The binding writes every sample's links to one buffer, and a function filling the table
       may sample a chain itself: the library gets this sample's copy (on the stack up to
       TENDON_SPRING_CHAIN_STACK_LINKS links). */
    tendon_spring_link stack_links[TENDON_SPRING_CHAIN_STACK_LINKS], *copy = NULL;
    if (links && link_count > 0) {
        copy = link_count <= TENDON_SPRING_CHAIN_STACK_LINKS ? stack_links
                                                             : malloc(link_count * sizeof *copy);
        if (!copy)
            return tendon_error_set(TENDON_ERR_NOMEM,
                                    "sampleSpringChain: out of memory copying %zu links",
                                    link_count);
        memcpy(copy, links, link_count * sizeof *copy);
        links = copy;
    }
    double fastest = 0.0;
    for (size_t i = 0; links && i < link_count; ++i)
        if (links[i].frequency_hz > fastest)
            fastest = links[i].frequency_hz;
    /* the table only when the library will march (every check it makes before it asks the
       root: the links, the work budget, the substep bound, out and the workspace), so a refused
       sample calls the function no more than it would have one time at a time: not at all */
    size_t need = 0;
    tendon_spring_grid grid;
    const int marches =
        links && link_count > 0 && out && out_count / 3 >= link_count &&
        (link_count <= TENDON_SPRING_CHAIN_STACK_LINKS ||
         (workspace && tendon_spring_chain_workspace_size(link_count, 1, &need) == TENDON_OK &&
          workspace_bytes >= need)) &&
        tendon_spring_chain_grid("tendon_spring_chain_sample", links, link_count,
                                 TENDON_SPRING_LOOKBACK_SEED, 1, TENDON_SPRING_MAX_WORK,
                                 &grid) == TENDON_OK;
    const unsigned d = g_depth++; /* this sample's table, until it returns */
    tendon_status st = TENDON_OK;
    st = fill_table(marches ? d : TABLE_DEPTH, marches ? grid.lookback_sec : 0.0, fastest,
                    time_sec, mode, anchor, &t);
    if (st == TENDON_OK)
        st = tendon_spring_chain_sample(links, link_count, tendon_spring_table_anchor, &t,
                                        time_sec, workspace, workspace_bytes, out, out_count);
    --g_depth;
    if (copy != stack_links)
        free(copy);
    g_last_misses = mode == MODE_BATCH ? t.misses : 0;
    return st;
}

/* ---- clips, skeletons, skinning: the descriptions built from scalars ----------------------- */

/** Bytes of one tendon_track_desc (the binding allocates track_count of them). */
GLUE_API uint32_t tendon_wasm_track_desc_size(void) { return (uint32_t)sizeof(tendon_track_desc); }

/** Fill track i of `tracks`. */
GLUE_API void tendon_wasm_track_set(tendon_track_desc *tracks, uint32_t i, uint32_t joint,
                                    uint32_t path, uint32_t interpolation, uint32_t width,
                                    uint32_t key_count, const float *times, const float *values)
{
    tracks[i] = (tendon_track_desc){joint, (tendon_track_path)path,
                                    (tendon_interpolation)interpolation, width, key_count, times,
                                    values};
}

/** tendon_clip_create from tracks made with tendon_wasm_track_set. */
GLUE_API tendon_status tendon_wasm_clip_create(uint32_t joint_count, uint32_t track_count,
                                               const tendon_track_desc *tracks,
                                               tendon_clip **out)
{
    const tendon_clip_desc desc = {joint_count, track_count, tracks};
    return tendon_clip_create(&desc, out);
}

/** tendon_skeleton_create: names may be NULL, rest may be NULL. */
GLUE_API tendon_status tendon_wasm_skeleton_create(uint32_t joint_count, const int32_t *parents,
                                                   const char *const *names,
                                                   const tendon_pose *rest,
                                                   tendon_skeleton **out)
{
    const tendon_skeleton_desc desc = {joint_count, parents, names, rest};
    return tendon_skeleton_create(&desc, out);
}

/**
 * tendon_skin on tightly packed arrays: joints as uint16 (glTF JOINTS_0's usual type), normals
 * and out_normals NULL to skin positions only.
 */
GLUE_API tendon_status tendon_wasm_skin(const float *palette, uint32_t palette_count,
                                        uint32_t vertex_count, uint32_t influence_count,
                                        const uint16_t *joints, const float *weights,
                                        const float *positions, float *out_positions,
                                        const float *normals, float *out_normals)
{
    tendon_skin_job job;
    memset(&job, 0, sizeof job);
    job.palette = palette;
    job.palette_count = palette_count;
    job.vertex_count = vertex_count;
    job.influence_count = influence_count;
    job.joint_index_type = TENDON_JOINT_INDEX_U16;
    job.joints = joints;
    job.weights = weights;
    job.positions = positions;
    job.out_positions = out_positions;
    job.normals = normals;
    job.out_normals = out_normals;
    return tendon_skin(&job);
}

/**
 * tendon_skin_mesh_create on tightly packed arrays: joints `index_type` (TENDON_JOINT_INDEX_U8 or
 * _U16) and weights influence_count per vertex, positions and normals 3 floats, tangents 4;
 * normals and tangents NULL when absent; packed outputs (apply writes 12, 12 and 16 bytes a
 * vertex). Errors: the library's.
 */
GLUE_API tendon_status tendon_wasm_skin_mesh_create(uint32_t palette_count, uint32_t vertex_count,
                                                    uint32_t influence_count, uint32_t index_type,
                                                    const void *joints, const float *weights,
                                                    const float *positions, const float *normals,
                                                    const float *tangents, tendon_skin_mesh **out)
{
    tendon_skin_job job;
    memset(&job, 0, sizeof job);
    job.palette_count = palette_count;
    job.vertex_count = vertex_count;
    job.influence_count = influence_count;
    job.joint_index_type = (tendon_joint_index_type)index_type;
    job.joints = joints;
    job.weights = weights;
    job.positions = positions;
    job.normals = normals;
    job.tangents = tangents;
    return tendon_skin_mesh_create(&job, out);
}

/* ---- the spring rig ------------------------------------------------------------------------ */

/* A rig weight as a JavaScript function of time (import tendon_js.rig_weight: the binding looks
   the function up by `id` and writes its value at each of the `count` times into out). */
__attribute__((import_module("tendon_js"), import_name("rig_weight"))) void
tendon_js_rig_weight(uint32_t id, const double *times_sec, uint32_t count, double *out);

static void js_rig_weight(void *user, const double *times_sec, size_t count, double *out)
{
    tendon_js_rig_weight((uint32_t)(uintptr_t)user, times_sec, (uint32_t)count, out);
}

/* The constant `value` (id 0), or the JavaScript function `id`. */
static tendon_rig_weight rig_weight(uint32_t id, double value)
{
    tendon_rig_weight w = {NULL, NULL, value};
    if (id != 0) {
        w.fn = js_rig_weight;
        w.user = (void *)(uintptr_t)id;
    }
    return w;
}

/**
 * tendon_spring_rig_create with a clips source and chains given by joint index, one spring per
 * chain (its every link), rest offsets from the skeleton's rest pose. chain_joint_counts:
 * [chain_count] (each J0 … Jn, n + 1 ≥ 2), joints: all chains' joints one after the other,
 * anchor_offsets: [3·chain_count], settings: [chain_count]. A NULL clip is not used; the clips'
 * loop flags and the base's offset are as tendon_rig_clip's. blend_weight_id / layer_weight_id:
 * 0 for the constant blend_weight / layer_weight, else the JavaScript weight function of that id
 * (called back through tendon_js.rig_weight with every substep time, for the rig's life).
 */
GLUE_API tendon_status tendon_wasm_spring_rig_create(
    const tendon_skeleton *skeleton, uint32_t chain_count, const uint32_t *chain_joint_counts,
    const uint32_t *joints, const float *anchor_offsets, const tendon_spring_settings *settings,
    const tendon_clip *base, double base_offset_sec, int32_t base_loop,
    const tendon_clip *blend, int32_t blend_loop, double blend_weight, uint32_t blend_weight_id,
    const tendon_clip *layer, int32_t layer_loop, uint32_t layer_mode, double layer_weight,
    uint32_t layer_weight_id, const float *layer_mask, uint32_t tier, tendon_spring_rig **out)
{
    if (chain_count == 0 || chain_count > 4096)
        return tendon_error_set(TENDON_ERR_VALUE,
                                "spring rig: %u chains; expected 1 to 4096", chain_count);
    tendon_spring_rig_chain *chains = calloc(chain_count, sizeof *chains);
    if (!chains)
        return tendon_error_set(TENDON_ERR_NOMEM, "spring rig: out of memory");
    size_t at = 0;
    for (uint32_t c = 0; c < chain_count; ++c) {
        chains[c].joints = joints + at;
        chains[c].joint_count = chain_joint_counts[c];
        memcpy(chains[c].anchor_offset, anchor_offsets + 3 * c, sizeof chains[c].anchor_offset);
        chains[c].settings = settings + c;
        chains[c].settings_count = 1;
        at += chain_joint_counts[c];
    }
    tendon_spring_rig_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.skeleton = skeleton;
    desc.chains = chains;
    desc.chain_count = chain_count;
    desc.source.kind = TENDON_RIG_SOURCE_CLIPS;
    desc.source.base = (tendon_rig_clip){base, base_offset_sec, base_loop};
    desc.source.blend = (tendon_rig_clip){blend, 0.0, blend_loop};
    desc.source.blend_weight = rig_weight(blend_weight_id, blend_weight);
    desc.source.layer = (tendon_rig_clip){layer, 0.0, layer_loop};
    desc.source.layer_mode = (tendon_rig_layer_mode)layer_mode;
    desc.source.layer_weight = rig_weight(layer_weight_id, layer_weight);
    desc.source.layer_mask = layer_mask;
    desc.tier = (tendon_tier)tier;
    const tendon_status st = tendon_spring_rig_create(&desc, out);
    free(chains);
    return st;
}

/* ---- glTF (tendon/gltf.h): the two structs the importer fills, as uint32 slots ---------------
   (pointers and size_t are 32 bits on wasm32), so the binding depends on no struct layout. */

#include <tendon/gltf.h>

/* out[9]: vertex_count, positions, normals, joints, weights, tangents, target_count,
   target_positions, default_weights (0 for an absent array). */
GLUE_API tendon_status tendon_wasm_gltf_primitive(const tendon_gltf *gltf, uint32_t mesh,
                                                  uint32_t primitive, uint32_t *out)
{
    tendon_gltf_primitive p;
    const tendon_status st = tendon_gltf_get_primitive(gltf, mesh, primitive, &p);
    if (st != TENDON_OK)
        return st;
    out[0] = (uint32_t)p.vertex_count;
    out[1] = (uint32_t)(uintptr_t)p.positions;
    out[2] = (uint32_t)(uintptr_t)p.normals;
    out[3] = (uint32_t)(uintptr_t)p.joints;
    out[4] = (uint32_t)(uintptr_t)p.weights;
    out[5] = (uint32_t)(uintptr_t)p.tangents;
    out[6] = (uint32_t)p.target_count;
    out[7] = (uint32_t)(uintptr_t)p.target_positions;
    out[8] = (uint32_t)(uintptr_t)p.default_weights;
    return TENDON_OK;
}

/* out[3]: channel, node, path (tendon_track_path) of track `track` of animation `anim`. */
GLUE_API tendon_status tendon_wasm_gltf_channel(const tendon_gltf *gltf, uint32_t anim,
                                                uint32_t track, uint32_t *out)
{
    tendon_gltf_channel c;
    const tendon_status st = tendon_gltf_animation_channel(gltf, anim, track, &c);
    if (st != TENDON_OK)
        return st;
    out[0] = (uint32_t)c.channel;
    out[1] = (uint32_t)c.node;
    out[2] = (uint32_t)c.path;
    return TENDON_OK;
}
