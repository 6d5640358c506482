/*
 * tendon replay: JSON cases in (tests/data/CASES-README.md), the same cases out with `actual`.
 *
 * Adding an op is one function (parse the case, run it through run->k's kernel or the public API,
 * return `actual`) and one entry in OPS[] below.
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tendon/tendon.h>

#include "cli.h"
#include "common/detmath_v8.h"
#include "json.h"

const char USAGE_REPLAY[] =
    "usage: tendon replay [--isa NAME|all] [--only OP[,OP...]] < cases.json > results.json\n"
    "\n"
    "Read a JSON array of cases on stdin (the format: CASES-README.md, installed with tendon;\n"
    "its path is printed below) and write the same array, one case per line, each with an\n"
    "`actual` member shaped like `expected`. Every other\n"
    "member is passed through untouched. Numbers are written as JavaScript writes them (-0 keeps\n"
    "its sign); NaN and the infinities are the strings \"NaN\", \"Infinity\", \"-Infinity\".\n"
    "A refusal by the library is actual {error, status}; an unknown op or a malformed case (a\n"
    "number too large for a double anywhere in it, too) is actual {error} and makes the exit\n"
    "status 2 (after every case is written). `expected` is not looked at.\n"
    "\n"
    "  --isa NAME   run the kernels of that ISA (any ISA that can run here, emulated ones too);\n"
    "               without --isa the public API runs on the active (dispatched) ISA\n"
    "  --isa all    run every ISA that can run here; actual is the scalar result, and the exit\n"
    "               status is 1 if any other ISA differs bit for bit (NaNs by class)\n"
    "  --only OPS   replay only the cases whose op is in the comma-separated list; everything\n"
    "               else (other ops, no op, elements that are not objects) is left out\n"
    "\n"
    "ops: blendPoses, addPose, setJoint, sampleSpring, sampleSpringChain, springSettleSec,\n"
    "     springChainSettleSec, stateMachine\n";

/* How one case is run. */
typedef struct replay_run {
    /* NULL: the public API (on the dispatched ISA); else this table's kernel, called only with
     * inputs the public API has just accepted. */
    const tendon_kernels *k;
    int refused;      /* the library refused the case: actual is {error, status} */
    char error[512];  /* why the case is malformed (when the op returns NULL) */
} replay_run;

/*
 * One op: read the case's inputs, run them, return `actual` (a refusal is an actual too, made
 * by refusal()); NULL when the case is malformed, with run->error saying what is wrong.
 */
typedef json_t *(*replay_fn)(const json_t *c, replay_run *run);

static json_t *op_blend_poses(const json_t *c, replay_run *run);
static json_t *op_add_pose(const json_t *c, replay_run *run);
static json_t *op_set_joint(const json_t *c, replay_run *run);
static json_t *op_sample_spring(const json_t *c, replay_run *run);
static json_t *op_sample_spring_chain(const json_t *c, replay_run *run);
static json_t *op_spring_settle_sec(const json_t *c, replay_run *run);
static json_t *op_spring_chain_settle_sec(const json_t *c, replay_run *run);
static json_t *op_state_machine(const json_t *c, replay_run *run);

static const struct replay_op {
    const char *name;
    replay_fn run;
    int has_kernel; /* 0: no per-ISA kernel; `--isa` runs it once, through the public API */
} OPS[] = {
    {"blendPoses", op_blend_poses, 1},
    {"addPose", op_add_pose, 1},
    {"setJoint", op_set_joint, 0},
    {"sampleSpring", op_sample_spring, 1},
    {"sampleSpringChain", op_sample_spring_chain, 1},
    {"springSettleSec", op_spring_settle_sec, 0},
    {"springChainSettleSec", op_spring_chain_settle_sec, 0},
    {"stateMachine", op_state_machine, 0},
};
enum { OP_COUNT = sizeof OPS / sizeof OPS[0] };

/* ---- reading a case ---------------------------------------------------------------------- */

__attribute__((format(printf, 2, 3))) static int malformed(replay_run *run, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(run->error, sizeof run->error, fmt, ap);
    va_end(ap);
    return -1;
}

static const json_t *member(const json_t *c, const char *name, replay_run *run)
{
    const json_t *v = json_object_get(c, name);
    if (!v)
        malformed(run, "member \"%s\" is missing", name);
    return v;
}

/* A number in the case format (JSON number, "NaN", "Infinity", "-Infinity"). */
static int get_number(const json_t *c, const char *name, double *out, replay_run *run)
{
    const json_t *v = member(c, name, run);
    if (!v)
        return -1;
    if (jx_get_double(v, out) != 0)
        return malformed(run, "\"%s\" is not a number (nor \"NaN\", \"Infinity\", \"-Infinity\")",
                         name);
    return 0;
}

/* An array of exactly n numbers, read as float32. */
static int get_floats(const json_t *c, const char *name, float *out, size_t n, replay_run *run)
{
    char why[128];
    const json_t *v = member(c, name, run);
    if (!v)
        return -1;
    if (jx_get_floats(v, out, n, why, sizeof why) != 0)
        return malformed(run, "\"%s\" %s", name, why);
    return 0;
}

/* A fresh pose at rest of n joints. */
static int new_pose(size_t n, tendon_pose *p, replay_run *run)
{
    if (tendon_pose_create(n, p) != TENDON_OK)
        return malformed(run, "cannot allocate a pose of %zu joints: %s", n,
                         tendon_error_message());
    return 0;
}

/* A pose {translation[3n], rotation[4n], scale[3n]}, allocated into *p. */
static int get_pose(const json_t *c, const char *name, tendon_pose *p, replay_run *run)
{
    const json_t *v = member(c, name, run);
    if (!v)
        return -1;
    if (!json_is_object(v))
        return malformed(run, "pose \"%s\" is not an object {translation, rotation, scale}", name);
    const json_t *t = json_object_get(v, "translation");
    const json_t *r = json_object_get(v, "rotation");
    const json_t *s = json_object_get(v, "scale");
    if (!json_is_array(t) || !json_is_array(r) || !json_is_array(s))
        return malformed(run, "pose \"%s\" needs arrays translation, rotation and scale", name);
    const size_t n = json_array_size(r) / 4;
    if (json_array_size(r) % 4 != 0 || json_array_size(t) != 3 * n || json_array_size(s) != 3 * n)
        return malformed(run,
                         "pose \"%s\": translation has %zu numbers, rotation %zu, scale %zu; "
                         "expected 3n, 4n, 3n for n joints",
                         name, json_array_size(t), json_array_size(r), json_array_size(s));
    if (new_pose(n, p, run) != 0)
        return -1;
    char why[128];
    if (jx_get_floats(t, p->translation, 3 * n, why, sizeof why) != 0)
        return malformed(run, "pose \"%s\": translation%s", name, why);
    if (jx_get_floats(r, p->rotation, 4 * n, why, sizeof why) != 0)
        return malformed(run, "pose \"%s\": rotation%s", name, why);
    if (jx_get_floats(s, p->scale, 3 * n, why, sizeof why) != 0)
        return malformed(run, "pose \"%s\": scale%s", name, why);
    return 0;
}

/* `alias`: absent or null → 0; names[0] → 1; names[1] → 2. */
static int get_alias(const json_t *c, const char *const names[2], int *which, replay_run *run)
{
    const json_t *v = json_object_get(c, "alias");
    *which = 0;
    if (!v || json_is_null(v))
        return 0;
    for (int i = 0; i < 2; ++i) {
        if (json_is_string(v) && strcmp(json_string_value(v), names[i]) == 0) {
            *which = i + 1;
            return 0;
        }
    }
    return malformed(run, "\"alias\" must be null, \"%s\" or \"%s\"", names[0], names[1]);
}

/* ---- writing a result -------------------------------------------------------------------- */

static json_t *pose_json(const tendon_pose *p)
{
    return json_pack("{s:o, s:o, s:o}", "translation",
                     jx_float_array(p->translation, 3 * p->joint_count), "rotation",
                     jx_float_array(p->rotation, 4 * p->joint_count), "scale",
                     jx_float_array(p->scale, 3 * p->joint_count));
}

static json_t *out_pose(const tendon_pose *p) { return json_pack("{s:o}", "out", pose_json(p)); }

/* The library refused: {error: its message, status: "TENDON_ERR_…"}. */
static json_t *refusal(replay_run *run, tendon_status s)
{
    run->refused = 1;
    return json_pack("{s:s, s:s}", "error", tendon_error_message(), "status",
                     tendon_status_name(s));
}

/* Kernels validate nothing: the driver runs them only after the public API accepted the same
 * inputs, and this re-checks the one thing that would make a kernel read out of bounds. */
static int same_counts(const tendon_pose *a, const tendon_pose *b, const tendon_pose *out,
                       replay_run *run)
{
    if (a->joint_count == out->joint_count && b->joint_count == out->joint_count)
        return 0;
    return malformed(run, "internal: a kernel was about to run on unequal joint counts");
}

/* ---- the ops ----------------------------------------------------------------------------- */

/* blendPoses {a, b, t, alias?} → {out} */
static json_t *op_blend_poses(const json_t *c, replay_run *run)
{
    static const char *const ALIAS[2] = {"a", "b"};
    tendon_pose a = {0}, b = {0}, fresh = {0};
    double t;
    int alias = 0;
    json_t *actual = NULL;
    if (get_pose(c, "a", &a, run) == 0 && get_pose(c, "b", &b, run) == 0 &&
        get_number(c, "t", &t, run) == 0 && get_alias(c, ALIAS, &alias, run) == 0 &&
        (alias || new_pose(a.joint_count, &fresh, run) == 0)) {
        tendon_pose *out = alias == 1 ? &a : alias == 2 ? &b : &fresh;
        if (!run->k) {
            tendon_status s = tendon_pose_blend(&a, &b, t, out);
            actual = s != TENDON_OK ? refusal(run, s) : out_pose(out);
        } else if (same_counts(&a, &b, out, run) == 0) {
            if (out->joint_count > 0)
                run->k->pose_blend(&a, &b, t, NULL, out->joint_count, out);
            actual = out_pose(out);
        }
    }
    tendon_pose_destroy(&a);
    tendon_pose_destroy(&b);
    tendon_pose_destroy(&fresh);
    return actual;
}

/* addPose {base, delta, weight, alias?} → {out} */
static json_t *op_add_pose(const json_t *c, replay_run *run)
{
    static const char *const ALIAS[2] = {"base", "delta"};
    tendon_pose base = {0}, delta = {0}, fresh = {0};
    double weight;
    int alias = 0;
    json_t *actual = NULL;
    if (get_pose(c, "base", &base, run) == 0 && get_pose(c, "delta", &delta, run) == 0 &&
        get_number(c, "weight", &weight, run) == 0 && get_alias(c, ALIAS, &alias, run) == 0 &&
        (alias || new_pose(base.joint_count, &fresh, run) == 0)) {
        tendon_pose *out = alias == 1 ? &base : alias == 2 ? &delta : &fresh;
        if (!run->k) {
            tendon_status s = tendon_pose_add(&base, &delta, weight, out);
            actual = s != TENDON_OK ? refusal(run, s) : out_pose(out);
        } else if (same_counts(&base, &delta, out, run) == 0) {
            if (out->joint_count > 0)
                run->k->pose_add(&base, &delta, weight, NULL, out->joint_count, out);
            actual = out_pose(out);
        }
    }
    tendon_pose_destroy(&base);
    tendon_pose_destroy(&delta);
    tendon_pose_destroy(&fresh);
    return actual;
}

/* setJoint {pose, joint, translation[3], rotation[4], scale[3]} → {out: the pose after}
 *
 * `joint` must be a non-negative integer (else the case is malformed). One too large for a size_t
 * (2^64 and up, e.g. 1e300) cannot be handed to the library; it is out of range for every pose,
 * so it is refused here as the library refuses any joint >= joint_count (2^53 included): with
 * TENDON_ERR_RANGE. */
static json_t *op_set_joint(const json_t *c, replay_run *run)
{
    tendon_pose pose = {0};
    double joint;
    float t[3], r[4], s[3];
    json_t *actual = NULL;
    if (get_pose(c, "pose", &pose, run) == 0 && get_number(c, "joint", &joint, run) == 0 &&
        get_floats(c, "translation", t, 3, run) == 0 && get_floats(c, "rotation", r, 4, run) == 0 &&
        get_floats(c, "scale", s, 3, run) == 0) {
        /* Every finite double from 2^53 up is an integer; below, compare with its truncation. */
        const int integer = joint >= 0 && joint <= 1.7976931348623157e308 &&
                            (joint >= 9007199254740992.0 || joint == (double)(uint64_t)joint);
        char shown[32];
        jx_format_double(joint, shown, sizeof shown);
        if (!integer) {
            malformed(run, "\"joint\" is %s, not a non-negative integer", shown);
        } else if (joint >= (double)SIZE_MAX + 1.0) {
            char msg[256];
            if (pose.joint_count == 0)
                snprintf(msg, sizeof msg, "joint %s is out of range (no size_t holds it): the "
                         "pose has 0 joints, so no index is valid", shown);
            else
                snprintf(msg, sizeof msg, "joint %s is out of range (no size_t holds it): the "
                         "pose has %zu joints (0..%zu)", shown, pose.joint_count,
                         pose.joint_count - 1);
            run->refused = 1;
            actual = json_pack("{s:s, s:s}", "error", msg, "status",
                               tendon_status_name(TENDON_ERR_RANGE));
        } else {
            tendon_status st = tendon_pose_set_joint(&pose, (size_t)joint, t, r, s);
            actual = st != TENDON_OK ? refusal(run, st) : out_pose(&pose);
        }
    }
    tendon_pose_destroy(&pose);
    return actual;
}

/* ---- springs (tendon/spring.h) ----------------------------------------------------------- */

/*
 * The cases' declarative anchors (tests/data/CASES-README.md), evaluated in double and rounded
 * to float32 once: constant {value}, sine {amplitude, frequencyHz, phase, center?}
 * → center + amplitude·sin(((2π)·f)·t + phase), step {at, from, to} → t < at ? from : to,
 * linear {origin, velocity} → origin + velocity·t, keys {times[k], values[k][3]} → piecewise
 * linear, clamped at both ends. The anchor is the case's function, not a kernel: its sine is
 * the seed's Math.sin as node 20.20.2 / V8 11.3 computes it (src/common/detmath_v8.h), so the
 * anchors — and every double after them — are the seed's to the bit. Every call is counted, with its first, second and last time.
 */
enum { SPRING_ANCHOR_MAX_KEYS = 256, SPRING_MAX_OUT = 3 * 4096 };

typedef struct spring_anchor {
    enum { A_CONSTANT, A_SINE, A_STEP, A_LINEAR, A_KEYS } kind;
    double a[3], b[3], c[3]; /* value | amplitude, center | from, to | origin, velocity */
    double frequency_hz, phase, at;
    size_t key_count;
    double times[SPRING_ANCHOR_MAX_KEYS], values[SPRING_ANCHOR_MAX_KEYS][3];
    size_t calls;
    double first, second, last;
} spring_anchor;

static void spring_anchor_eval(const spring_anchor *an, double t, double v[3])
{
    switch (an->kind) {
    case A_CONSTANT:
        memcpy(v, an->a, sizeof an->a);
        break;
    case A_SINE: {
        const double s = tendon_v8_sin(((2.0 * 3.141592653589793) * an->frequency_hz) * t + an->phase);
        for (int k = 0; k < 3; ++k)
            v[k] = an->b[k] + an->a[k] * s;
        break;
    }
    case A_STEP:
        memcpy(v, t < an->at ? an->a : an->b, sizeof an->a);
        break;
    case A_LINEAR:
        for (int k = 0; k < 3; ++k)
            v[k] = an->a[k] + an->b[k] * t;
        break;
    case A_KEYS: {
        const size_t n = an->key_count;
        if (!(t > an->times[0])) {
            memcpy(v, an->values[0], 3 * sizeof(double));
        } else if (t >= an->times[n - 1]) {
            memcpy(v, an->values[n - 1], 3 * sizeof(double));
        } else {
            size_t j = 0;
            while (j + 1 < n && an->times[j + 1] <= t)
                ++j;
            const double u = (t - an->times[j]) / (an->times[j + 1] - an->times[j]);
            for (int k = 0; k < 3; ++k)
                v[k] = an->values[j][k] + (an->values[j + 1][k] - an->values[j][k]) * u;
        }
        break;
    }
    }
}

/* Rounded through a volatile: GCC 12's SLP vectoriser can drop a plain (double)(float) round
   trip (docs/springs.md). */
static float spring_f32(double x)
{
    volatile float f = (float)x;
    return f;
}

static void spring_anchor_cb(void *user, double t, float *out)
{
    spring_anchor *an = user;
    if (an->calls == 0)
        an->first = t;
    else if (an->calls == 1)
        an->second = t;
    an->last = t;
    an->calls++;
    double v[3];
    spring_anchor_eval(an, t, v);
    for (int k = 0; k < 3; ++k)
        out[k] = spring_f32(v[k]);
}

static int get_vec3(const json_t *o, const char *name, double out[3], replay_run *run)
{
    const json_t *v = json_object_get(o, name);
    if (!json_is_array(v) || json_array_size(v) != 3)
        return malformed(run, "\"%s\" must be an array of 3 numbers", name);
    for (size_t k = 0; k < 3; ++k)
        if (jx_get_double(json_array_get(v, k), &out[k]) != 0)
            return malformed(run, "\"%s\"[%zu] is not a number", name, k);
    return 0;
}

static int get_anchor(const json_t *c, spring_anchor *an, replay_run *run)
{
    memset(an, 0, sizeof *an);
    const json_t *o = member(c, "anchor", run);
    if (!o)
        return -1;
    const char *kind = json_string_value(json_object_get(o, "kind"));
    if (!json_is_object(o) || !kind)
        return malformed(run, "\"anchor\" must be an object with a \"kind\"");
    if (strcmp(kind, "constant") == 0) {
        an->kind = A_CONSTANT;
        return get_vec3(o, "value", an->a, run);
    }
    if (strcmp(kind, "sine") == 0) {
        an->kind = A_SINE;
        if (get_vec3(o, "amplitude", an->a, run) != 0 ||
            get_number(o, "frequencyHz", &an->frequency_hz, run) != 0 ||
            get_number(o, "phase", &an->phase, run) != 0)
            return -1;
        return json_object_get(o, "center") ? get_vec3(o, "center", an->b, run) : 0;
    }
    if (strcmp(kind, "step") == 0) {
        an->kind = A_STEP;
        return get_number(o, "at", &an->at, run) != 0 || get_vec3(o, "from", an->a, run) != 0 ||
                       get_vec3(o, "to", an->b, run) != 0
                   ? -1
                   : 0;
    }
    if (strcmp(kind, "linear") == 0) {
        an->kind = A_LINEAR;
        return get_vec3(o, "origin", an->a, run) != 0 || get_vec3(o, "velocity", an->b, run) != 0
                   ? -1
                   : 0;
    }
    if (strcmp(kind, "keys") == 0) {
        an->kind = A_KEYS;
        const json_t *t = json_object_get(o, "times"), *v = json_object_get(o, "values");
        const size_t n = json_array_size(t);
        if (!json_is_array(t) || !json_is_array(v) || n == 0 || json_array_size(v) != n ||
            n > SPRING_ANCHOR_MAX_KEYS)
            return malformed(run, "keys anchor: \"times\" and \"values\" must be arrays of the "
                                  "same length, 1 to %d",
                             SPRING_ANCHOR_MAX_KEYS);
        an->key_count = n;
        for (size_t j = 0; j < n; ++j) {
            if (jx_get_double(json_array_get(t, j), &an->times[j]) != 0)
                return malformed(run, "keys anchor: times[%zu] is not a number", j);
            const json_t *row = json_array_get(v, j);
            if (json_array_size(row) != 3)
                return malformed(run, "keys anchor: values[%zu] is not [3]", j);
            for (size_t k = 0; k < 3; ++k)
                if (jx_get_double(json_array_get(row, k), &an->values[j][k]) != 0)
                    return malformed(run, "keys anchor: values[%zu][%zu] is not a number", j, k);
        }
        return 0;
    }
    return malformed(run, "anchor kind \"%.32s\" is not constant, sine, step, linear or keys",
                     kind);
}

/* Settings members; an absent or null frequencyHz or damping is a JavaScript-only case. */
static int get_spring_settings(const json_t *o, double *f, double *zeta, double *limit,
                               replay_run *run)
{
    if (!json_is_object(o))
        return malformed(run, "spring settings must be an object");
    static const char *const required[2] = {"frequencyHz", "damping"};
    for (int i = 0; i < 2; ++i) {
        const json_t *v = json_object_get(o, required[i]);
        if (!v || json_is_null(v))
            return malformed(run,
                             "\"%s\" is absent or null: a JavaScript-only case (C has no "
                             "undefined to pass)",
                             required[i]);
    }
    if (get_number(o, "frequencyHz", f, run) != 0 || get_number(o, "damping", zeta, run) != 0)
        return -1;
    const json_t *l = json_object_get(o, "maxOffsetM");
    if (!l) {
        *limit = TENDON_SPRING_NO_LIMIT;
        return 0;
    }
    if (json_is_null(l))
        return malformed(run, "\"maxOffsetM\" is null: a JavaScript-only case");
    return get_number(o, "maxOffsetM", limit, run);
}

static int get_settings(const json_t *c, tendon_spring_settings *s, replay_run *run)
{
    const json_t *o = member(c, "settings", run);
    return o ? get_spring_settings(o, &s->frequency_hz, &s->damping, &s->max_offset_m, run) : -1;
}

/* links[n] into a malloc'd array (*links, freed by the caller; NULL for an empty chain). */
static int get_links(const json_t *c, tendon_spring_link **links, size_t *n, replay_run *run)
{
    *links = NULL;
    const json_t *arr = member(c, "links", run);
    if (!arr)
        return -1;
    if (!json_is_array(arr))
        return malformed(run, "\"links\" must be an array");
    *n = json_array_size(arr);
    if (*n == 0)
        return 0;
    *links = calloc(*n, sizeof **links);
    if (!*links)
        return malformed(run, "cannot allocate %zu links", *n);
    for (size_t i = 0; i < *n; ++i) {
        const json_t *o = json_array_get(arr, i);
        tendon_spring_link *l = &(*links)[i];
        if (get_spring_settings(o, &l->frequency_hz, &l->damping, &l->max_offset_m, run) != 0 ||
            get_vec3(o, "restOffsetM", l->rest_offset_m, run) != 0) {
            char inner[sizeof run->error];
            memcpy(inner, run->error, sizeof inner);
            return malformed(run, "links[%zu]: %.400s", i, inner);
        }
    }
    return 0;
}

/* anchorCalls {count, first, second, last} ({count} alone when nothing was called). */
static json_t *anchor_calls(const spring_anchor *an)
{
    if (an->calls == 0)
        return json_pack("{s:o}", "count", jx_number(0.0));
    return json_pack("{s:o, s:o, s:o, s:o}", "count", jx_number((double)an->calls), "first",
                     jx_number(an->first), "second", jx_number(an->calls > 1 ? an->second : an->first),
                     "last", jx_number(an->last));
}

/* sampleSpring {settings, anchor, time} → {out[3], out64[3], settleSec, anchorCalls} */
static json_t *op_sample_spring(const json_t *c, replay_run *run)
{
    tendon_spring_settings s;
    double time;
    spring_anchor *an = malloc(sizeof *an);
    json_t *actual = NULL;
    if (!an) {
        malformed(run, "out of memory");
        return NULL;
    }
    if (get_settings(c, &s, run) == 0 && get_anchor(c, an, run) == 0 &&
        get_number(c, "time", &time, run) == 0) {
        float out[3];
        double out64[3], settle;
        tendon_status st = tendon_spring_sample_on(run->k, &s, spring_anchor_cb, an, time, out);
        if (st != TENDON_OK) {
            actual = refusal(run, st);
        } else {
            json_t *calls = anchor_calls(an);
            an->calls = 0;
            st = tendon_spring_sample_f64_on(run->k, &s, spring_anchor_cb, an, time, out64);
            tendon_spring_settle_sec(&s, &settle);
            if (st != TENDON_OK) {
                json_decref(calls);
                actual = refusal(run, st);
            } else {
                json_t *o64 = json_array();
                for (int k = 0; k < 3; ++k)
                    json_array_append_new(o64, jx_number(out64[k]));
                actual = json_pack("{s:o, s:o, s:o, s:o}", "out", jx_float_array(out, 3), "out64",
                                   o64, "settleSec", jx_number(settle), "anchorCalls", calls);
            }
        }
    }
    free(an);
    return actual;
}

/* sampleSpringChain {links, anchor, time, outLength?} → {out[outLength], settleSec, anchorCalls} */
static json_t *op_sample_spring_chain(const json_t *c, replay_run *run)
{
    tendon_spring_link *links = NULL;
    size_t n = 0;
    double time, length = 0.0;
    spring_anchor *an = malloc(sizeof *an);
    float *out = NULL;
    json_t *actual = NULL;
    if (!an) {
        malformed(run, "out of memory");
        return NULL;
    }
    const int given = json_object_get(c, "outLength") != NULL;
    if (get_links(c, &links, &n, run) == 0 && get_anchor(c, an, run) == 0 &&
        get_number(c, "time", &time, run) == 0 &&
        (!given || get_number(c, "outLength", &length, run) == 0)) {
        /* absent: every link's position; given, it is checked as it is (a negative or NaN
           length was taken for an absent one) */
        const double want = given ? length : 3.0 * (double)n;
        if (!(want >= 0.0 && want <= SPRING_MAX_OUT && want == (double)(size_t)want)) {
            malformed(run, "\"outLength\" must be an integer from 0 to %d", SPRING_MAX_OUT);
        } else if (!(out = calloc((size_t)want + 1, sizeof *out))) {
            malformed(run, "out of memory");
        } else {
            const size_t count = (size_t)want;
            size_t bytes = 0;
            void *ws = NULL;
            tendon_status st = tendon_spring_chain_workspace_size(n, 1, &bytes);
            if (st == TENDON_OK && n > 0 && !(ws = malloc(bytes))) {
                malformed(run, "out of memory");
            } else if (st != TENDON_OK) {
                actual = refusal(run, st);
            } else {
                st = tendon_spring_chain_sample_on(run->k, links, n, spring_anchor_cb, an, time,
                                                   ws, bytes, out, count);
                if (st != TENDON_OK) {
                    actual = refusal(run, st);
                } else {
                    double settle = 0.0;
                    tendon_spring_chain_settle_sec(links, n, &settle);
                    actual = json_pack("{s:o, s:o, s:o}", "out", jx_float_array(out, count),
                                       "settleSec", jx_number(settle), "anchorCalls",
                                       anchor_calls(an));
                }
            }
            free(ws);
        }
    }
    free(out);
    free(links);
    free(an);
    return actual;
}

/* springSettleSec {settings} → {value} */
static json_t *op_spring_settle_sec(const json_t *c, replay_run *run)
{
    tendon_spring_settings s;
    double value;
    if (get_settings(c, &s, run) != 0)
        return NULL;
    const tendon_status st = tendon_spring_settle_sec(&s, &value);
    return st != TENDON_OK ? refusal(run, st) : json_pack("{s:o}", "value", jx_number(value));
}

/* springChainSettleSec {links} → {value} */
static json_t *op_spring_chain_settle_sec(const json_t *c, replay_run *run)
{
    tendon_spring_link *links = NULL;
    size_t n = 0;
    double value;
    json_t *actual = NULL;
    if (get_links(c, &links, &n, run) == 0) {
        const tendon_status st = tendon_spring_chain_settle_sec(links, n, &value);
        actual = st != TENDON_OK ? refusal(run, st) : json_pack("{s:o}", "value", jx_number(value));
    }
    free(links);
    return actual;
}

/* ---- the state machine (tendon/graph.h) -------------------------------------------------- */

/*
 * stateMachine {jointCount, bind?, states, transitions, script} → {trace} or a refusal.
 * Stand-in trees (tests/data/CASES-README.md): {kind: "pose", pose, rate?, writes?} is a blend
 * tree whose root is one pose source writing pose.translation + rate·time (double, rounded once
 * to float32) — or the pose as is — into the channels in `writes` (default all three). Predicates:
 * "always", "never", {parameter, op, value}; a parameter never set compares false except under
 * "!=". One out pose, created at rest, persists across the script.
 */
enum { SM_T = 1, SM_R = 2, SM_S = 4 };

typedef struct sm_standin {
    tendon_pose pose;
    double *rate; /* [3n] or NULL */
    int writes;
} sm_standin;

static void sm_standin_sample(void *user, double time, tendon_pose *out)
{
    const sm_standin *st = user;
    const size_t n = st->pose.joint_count;
    if (st->writes & SM_T)
        for (size_t i = 0; i < 3 * n; ++i)
            out->translation[i] = st->rate ? (float)((double)st->pose.translation[i] +
                                                     st->rate[i] * time)
                                           : st->pose.translation[i];
    if (st->writes & SM_R)
        memcpy(out->rotation, st->pose.rotation, 4 * n * sizeof(float));
    if (st->writes & SM_S)
        memcpy(out->scale, st->pose.scale, 3 * n * sizeof(float));
}

typedef struct sm_predicate {
    enum { SMP_ALWAYS, SMP_NEVER, SMP_CMP } kind;
    const char *parameter;
    enum { OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE } op;
    double value;
} sm_predicate;

static int sm_predicate_eval(void *user, const tendon_parameters *params)
{
    const sm_predicate *p = user;
    if (p->kind != SMP_CMP)
        return p->kind == SMP_ALWAYS;
    double v;
    if (!tendon_parameters_get(params, p->parameter, &v))
        return p->op == OP_NE;
    switch (p->op) {
    case OP_LT: return v < p->value;
    case OP_LE: return v <= p->value;
    case OP_GT: return v > p->value;
    case OP_GE: return v >= p->value;
    case OP_EQ: return v == p->value;
    case OP_NE: return v != p->value;
    }
    return 0;
}

typedef struct sm_parts {
    size_t state_count, transition_count;
    sm_standin *standins;
    tendon_blend_tree **trees;
    tendon_state_desc *states;
    sm_predicate *preds;
    tendon_transition_desc *transitions;
    tendon_pose bind, out;
} sm_parts;

static void sm_parts_free(sm_parts *k)
{
    for (size_t i = 0; k->standins && i < k->state_count; ++i) {
        tendon_blend_tree_destroy(k->trees[i]);
        tendon_pose_destroy(&k->standins[i].pose);
        free(k->standins[i].rate);
    }
    tendon_pose_destroy(&k->bind);
    tendon_pose_destroy(&k->out);
    free(k->standins);
    free(k->trees);
    free(k->states);
    free(k->preds);
    free(k->transitions);
}

static int sm_get_string(const json_t *o, const char *name, const char **out, const char *where,
                         replay_run *run)
{
    const json_t *v = json_object_get(o, name);
    if (!json_is_string(v))
        return malformed(run, "%s: \"%s\" must be a string", where, name);
    *out = json_string_value(v);
    return 0;
}

static int sm_get_tree(const json_t *tree, size_t n, size_t index, sm_standin *st,
                       replay_run *run)
{
    char where[64];
    snprintf(where, sizeof where, "states[%zu].tree", index);
    const json_t *kind = json_object_get(tree, "kind");
    if (!json_is_object(tree) || !json_is_string(kind) ||
        strcmp(json_string_value(kind), "pose") != 0)
        return malformed(run, "%s must be a stand-in {kind: \"pose\", pose, rate?, writes?}",
                         where);
    if (get_pose(tree, "pose", &st->pose, run) != 0)
        return -1;
    if (st->pose.joint_count != n)
        return malformed(run, "%s.pose has %zu joints; jointCount is %zu", where,
                         st->pose.joint_count, n);
    const json_t *rate = json_object_get(tree, "rate");
    if (rate && !json_is_null(rate)) {
        if (!json_is_array(rate) || json_array_size(rate) != 3 * n)
            return malformed(run, "%s.rate must be an array of 3·jointCount numbers", where);
        st->rate = malloc((3 * n + 1) * sizeof(double));
        if (!st->rate)
            return malformed(run, "out of memory");
        for (size_t i = 0; i < 3 * n; ++i)
            if (jx_get_double(json_array_get(rate, i), &st->rate[i]) != 0)
                return malformed(run, "%s.rate[%zu] is not a number", where, i);
    }
    const json_t *writes = json_object_get(tree, "writes");
    st->writes = SM_T | SM_R | SM_S;
    if (writes && !json_is_null(writes)) {
        if (!json_is_array(writes))
            return malformed(run, "%s.writes must be an array of channel names", where);
        st->writes = 0;
        for (size_t i = 0; i < json_array_size(writes); ++i) {
            const char *w = json_string_value(json_array_get(writes, i));
            if (w && strcmp(w, "translation") == 0)
                st->writes |= SM_T;
            else if (w && strcmp(w, "rotation") == 0)
                st->writes |= SM_R;
            else if (w && strcmp(w, "scale") == 0)
                st->writes |= SM_S;
            else
                return malformed(run, "%s.writes[%zu] is not \"translation\", \"rotation\" or "
                                      "\"scale\"", where, i);
        }
    }
    return 0;
}

static int sm_get_predicate(const json_t *when, size_t index, sm_predicate *p, replay_run *run)
{
    static const char *const OPS_TEXT[6] = {"<", "<=", ">", ">=", "==", "!="};
    if (json_is_string(when)) {
        if (strcmp(json_string_value(when), "always") == 0) {
            p->kind = SMP_ALWAYS;
            return 0;
        }
        if (strcmp(json_string_value(when), "never") == 0) {
            p->kind = SMP_NEVER;
            return 0;
        }
    } else if (json_is_object(when)) {
        const json_t *op = json_object_get(when, "op");
        p->kind = SMP_CMP;
        p->parameter = json_string_value(json_object_get(when, "parameter"));
        if (!p->parameter || !json_is_string(op) ||
            jx_get_double(json_object_get(when, "value"), &p->value) != 0)
            return malformed(run, "transitions[%zu].when needs parameter (a string), op and "
                                  "value (a number)", index);
        for (int k = 0; k < 6; ++k)
            if (strcmp(json_string_value(op), OPS_TEXT[k]) == 0) {
                p->op = (int)k;
                return 0;
            }
        return malformed(run, "transitions[%zu].when.op \"%s\" is not one of < <= > >= == !=",
                         index, json_string_value(op));
    }
    return malformed(run, "transitions[%zu].when must be \"always\", \"never\" or {parameter, "
                          "op, value}", index);
}

static int sm_build_parts(const json_t *c, size_t n, sm_parts *k, replay_run *run)
{
    const json_t *states = json_object_get(c, "states");
    const json_t *trans = json_object_get(c, "transitions");
    if (!json_is_array(states) || !json_is_array(trans))
        return malformed(run, "\"states\" and \"transitions\" must be arrays");
    k->state_count = json_array_size(states);
    k->transition_count = json_array_size(trans);
    k->standins = calloc(k->state_count + 1, sizeof *k->standins);
    k->trees = calloc(k->state_count + 1, sizeof *k->trees);
    k->states = calloc(k->state_count + 1, sizeof *k->states);
    k->preds = calloc(k->transition_count + 1, sizeof *k->preds);
    k->transitions = calloc(k->transition_count + 1, sizeof *k->transitions);
    if (!k->standins || !k->trees || !k->states || !k->preds || !k->transitions)
        return malformed(run, "out of memory");
    for (size_t i = 0; i < k->state_count; ++i) {
        const json_t *s = json_array_get(states, i);
        char where[48];
        snprintf(where, sizeof where, "states[%zu]", i);
        if (!json_is_object(s) || sm_get_string(s, "name", &k->states[i].name, where, run) != 0)
            return malformed(run, "%s must be {name, tree}", where);
        if (sm_get_tree(json_object_get(s, "tree"), n, i, &k->standins[i], run) != 0)
            return -1;
        tendon_blend_node node = {.kind = TENDON_BLEND_SOURCE, .sample = sm_standin_sample,
                                  .user = &k->standins[i]};
        tendon_blend_tree_desc td = {.nodes = &node, .node_count = 1, .joint_count = n};
        if (tendon_blend_tree_create(&td, &k->trees[i]) != TENDON_OK)
            return malformed(run, "%s: the stand-in tree: %s", where, tendon_error_message());
        k->states[i].tree = k->trees[i];
    }
    for (size_t i = 0; i < k->transition_count; ++i) {
        const json_t *t = json_array_get(trans, i);
        char where[48];
        snprintf(where, sizeof where, "transitions[%zu]", i);
        tendon_transition_desc *d = &k->transitions[i];
        if (!json_is_object(t) || sm_get_string(t, "from", &d->from, where, run) != 0 ||
            sm_get_string(t, "to", &d->to, where, run) != 0 ||
            jx_get_double(json_object_get(t, "durationSec"), &d->duration_sec) != 0)
            return malformed(run, "%s must be {from, to, durationSec, when}", where);
        if (sm_get_predicate(json_object_get(t, "when"), i, &k->preds[i], run) != 0)
            return -1;
        d->when = sm_predicate_eval;
        d->user = &k->preds[i];
    }
    return 0;
}

static json_t *sm_info_json(const tendon_state_machine *m, const sm_parts *k, int internal)
{
    tendon_state_machine_info info;
    tendon_state_machine_get_info(m, &info);
    json_t *e = json_pack("{s:s, s:b}", "current", info.current, "transitioning",
                          info.transitioning);
    if (internal) {
        json_t *elapsed = json_object();
        for (size_t i = 0; i < k->state_count; ++i) {
            double sec = 0.0;
            tendon_state_machine_state_time(m, k->states[i].name, &sec);
            json_object_set_new(elapsed, k->states[i].name, jx_number(sec));
        }
        json_object_set_new(e, "internal",
                            json_pack("{s:o, s:o, s:o, s:o}", "leaving",
                                      info.leaving ? json_string(info.leaving) : json_null(),
                                      "fadeElapsed", jx_number(info.fade_elapsed_sec),
                                      "fadeDuration", jx_number(info.fade_duration_sec),
                                      "elapsed", elapsed));
    }
    return e;
}

static json_t *op_state_machine(const json_t *c, replay_run *run)
{
    sm_parts k = {0};
    json_t *actual = NULL, *trace = NULL;
    tendon_state_machine *m = NULL;
    double count;
    if (get_number(c, "jointCount", &count, run) != 0)
        goto done;
    if (!(count >= 0 && count <= 1e6) || count != (double)(size_t)count) {
        malformed(run, "\"jointCount\" must be an integer from 0 to 1000000");
        goto done;
    }
    const size_t n = (size_t)count;
    const json_t *bind = json_object_get(c, "bind");
    const json_t *script = json_object_get(c, "script");
    if (!json_is_array(script)) {
        malformed(run, "\"script\" must be an array of steps");
        goto done;
    }
    if (bind && !json_is_null(bind)) {
        if (get_pose(c, "bind", &k.bind, run) != 0)
            goto done;
        if (k.bind.joint_count != n) {
            malformed(run, "\"bind\" has %zu joints; jointCount is %zu", k.bind.joint_count, n);
            goto done;
        }
    }
    if (sm_build_parts(c, n, &k, run) != 0 || new_pose(n, &k.out, run) != 0)
        goto done;
    tendon_state_machine_desc d = {.states = k.states, .state_count = k.state_count,
                                   .transitions = k.transitions,
                                   .transition_count = k.transition_count, .joint_count = n,
                                   .bind = k.bind.rotation ? &k.bind : NULL,
                                   .parameter_capacity = 256};
    tendon_status s = tendon_state_machine_create(&d, &m);
    if (s != TENDON_OK) {
        actual = refusal(run, s);
        goto done;
    }
    trace = json_array();
    for (size_t i = 0; i < json_array_size(script); ++i) {
        const json_t *step = json_array_get(script, i);
        const char *what = json_string_value(json_object_get(step, "do"));
        double v;
        if (what && strcmp(what, "set") == 0) {
            const char *name = json_string_value(json_object_get(step, "parameter"));
            if (!name || jx_get_double(json_object_get(step, "value"), &v) != 0) {
                malformed(run, "script[%zu]: set needs parameter (a string) and value", i);
                goto done;
            }
            s = tendon_state_machine_set(m, name, v);
            if (s == TENDON_OK)
                json_array_append_new(trace, json_object());
        } else if (what && strcmp(what, "advance") == 0) {
            if (jx_get_double(json_object_get(step, "dt"), &v) != 0) {
                malformed(run, "script[%zu]: advance needs dt (a number)", i);
                goto done;
            }
            s = tendon_state_machine_advance(m, v);
            if (s == TENDON_OK)
                json_array_append_new(trace, sm_info_json(m, &k, 1));
        } else if (what && strcmp(what, "evaluate") == 0) {
            s = tendon_state_machine_evaluate(m, &k.out);
            if (s == TENDON_OK) {
                json_t *e = sm_info_json(m, &k, 0);
                json_object_set_new(e, "out", pose_json(&k.out));
                json_array_append_new(trace, e);
            }
        } else {
            malformed(run, "script[%zu]: \"do\" must be \"set\", \"advance\" or \"evaluate\"", i);
            goto done;
        }
        if (s != TENDON_OK) {
            actual = refusal(run, s);
            goto done;
        }
    }
    actual = json_pack("{s:O}", "trace", trace);
done:
    json_decref(trace);
    tendon_state_machine_destroy(m);
    sm_parts_free(&k);
    return actual;
}

/* ---- the driver -------------------------------------------------------------------------- */

static const struct replay_op *find_op(const char *name)
{
    for (size_t i = 0; i < OP_COUNT; ++i)
        if (strcmp(OPS[i].name, name) == 0)
            return &OPS[i];
    return NULL;
}

static json_t *error_actual(const char *message) { return json_pack("{s:s}", "error", message); }

/* Whether `op` is in the comma-separated list (NULL: every op). */
static int op_selected(const char *list, const char *op)
{
    if (!list)
        return 1;
    const size_t len = strlen(op);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        const size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, op, n) == 0)
            return 1;
        if (!end)
            break;
        p = end + 1;
    }
    return 0;
}

static int check_only_list(const char *list)
{
    if (!*list) /* no name at all: it would select nothing, silently */
        return cli_usage_error("replay", USAGE_REPLAY, "--only: an empty list (give op names, "
                                                       "comma-separated)");
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        const size_t n = end ? (size_t)(end - p) : strlen(p);
        int found = 0;
        for (size_t i = 0; i < OP_COUNT; ++i)
            if (strlen(OPS[i].name) == n && strncmp(OPS[i].name, p, n) == 0)
                found = 1;
        if (!found)
            return cli_usage_error("replay", USAGE_REPLAY, "--only: unknown op \"%.*s\"", (int)n, p);
        if (!end)
            break;
        p = end + 1;
    }
    return 0;
}

enum mode { MODE_ACTIVE, MODE_ONE, MODE_ALL };

int cmd_replay(int argc, char **argv)
{
    const char *isa_arg = NULL, *only = NULL;
    for (int i = 1; i < argc; ++i) {
        const char *value;
        int m;
        if (cli_is_help(argv[i])) {
            fputs(USAGE_REPLAY, stdout);
            char doc[PATH_MAX + 64];
            if (cli_data_file("CASES-README.md", doc, sizeof doc) == 0)
                printf("\nThe case format: %s\n", doc);
            else {
                printf("\nThe case format: CASES-README.md, not found: ");
                cli_data_missing(stdout, "CASES-README.md");
                putchar('\n');
            }
            return CLI_OK;
        }
        if ((m = cli_opt_value(argc, argv, &i, "--isa", &value)) != 0) {
            if (m < 0)
                return cli_usage_error("replay", USAGE_REPLAY, "--isa needs a value");
            isa_arg = value;
        } else if ((m = cli_opt_value(argc, argv, &i, "--only", &value)) != 0) {
            if (m < 0)
                return cli_usage_error("replay", USAGE_REPLAY, "--only needs a value");
            if (check_only_list(value) != 0)
                return CLI_USAGE;
            only = value;
        } else {
            return cli_usage_error("replay", USAGE_REPLAY, "unknown argument \"%s\"", argv[i]);
        }
    }

    enum mode mode = MODE_ACTIVE;
    const tendon_kernels *one = NULL;
    if (isa_arg && strcmp(isa_arg, "all") == 0) {
        mode = MODE_ALL;
    } else if (isa_arg) {
        tendon_isa isa;
        if (tendon_isa_from_name(isa_arg, &isa) != TENDON_OK)
            return cli_usage_error("replay", USAGE_REPLAY, "--isa: %s, or all",
                                   tendon_error_message());
        one = tendon_kernels_for(isa);
        if (!one) {
            cli_error("replay", "ISA %s cannot run here (%s)", isa_arg,
                      tendon_isa_compiled(isa) == TENDON_ISA_ABSENT
                          ? "not compiled into this build"
                          : "not supported by this CPU");
            return CLI_USAGE;
        }
        mode = MODE_ONE;
    }
    if (mode == MODE_ACTIVE) {
        tendon_isa active;
        if (tendon_isa_active(&active) != TENDON_OK) {
            cli_error("replay", "%s", tendon_error_message());
            return CLI_USAGE;
        }
    } else {
        /* --isa names the tables: a TENDON_ISA that could not run is not used, and said so */
        cli_isa_env_warn("replay", "--isa names the kernel tables to run");
        /* The public API validates each case on scalar before any ISA's kernel runs it. */
        tendon_isa_force(TENDON_ISA_SCALAR);
    }

    char why[512];
    json_t *cases = jx_load(stdin, "stdin", why, sizeof why);
    if (!cases) {
        cli_error("replay", "%s", why);
        return CLI_USAGE;
    }
    if (!json_is_array(cases)) {
        cli_error("replay", "stdin must hold a JSON array of cases");
        json_decref(cases);
        return CLI_USAGE;
    }

    json_t *results = json_array();
    /* What became of each case written: compared across ISAs (--isa all, an op with a kernel),
     * run once through the public API (every other accepted case), refused by the library, or
     * malformed. mismatches counts the ISA differences among the compared ones. */
    size_t bad = 0, mismatches = 0, replayed = 0, compared = 0, once = 0, refused = 0;
    for (size_t i = 0; i < json_array_size(cases); ++i) {
        json_t *c = json_array_get(cases, i);
        char name[96];
        if (!json_is_object(c)) {
            /* Not a case of any op: --only leaves it out like every case it does not select. */
            if (only)
                continue;
            snprintf(name, sizeof name, "#%zu", i);
            cli_error("replay", "case %s: not an object", name);
            ++bad;
            ++replayed;
            json_array_append_new(results, json_pack("{s:O, s:o}", "case", c, "actual",
                                                     error_actual("the case is not an object")));
            continue;
        }
        const json_t *id = json_object_get(c, "id");
        if (json_is_string(id))
            snprintf(name, sizeof name, "\"%.80s\"", json_string_value(id));
        else
            snprintf(name, sizeof name, "#%zu", i);
        const json_t *op_v = json_object_get(c, "op");
        const char *op_name = json_is_string(op_v) ? json_string_value(op_v) : NULL;
        if (only && (!op_name || !op_selected(only, op_name)))
            continue;
        ++replayed;
        json_array_append(results, c);

        char msg[512], where[300];
        const struct replay_op *op = op_name ? find_op(op_name) : NULL;
        if (jx_find_overflow(c, where, sizeof where)) {
            /* jansson cannot hold it, nor can a double: the case cannot be replayed as written. */
            snprintf(msg, sizeof msg, "%s: too large for a double (a number must be finite; "
                     "write \"Infinity\" for an infinity)", where);
        } else if (!op) {
            if (op_name)
                snprintf(msg, sizeof msg, "unknown op \"%.64s\"; this tendon replays blendPoses, "
                         "addPose, setJoint, sampleSpring, sampleSpringChain, springSettleSec, "
                         "springChainSettleSec, stateMachine", op_name);
            else
                snprintf(msg, sizeof msg, "the case has no \"op\" string");
        } else {
            msg[0] = '\0';
        }
        if (msg[0]) {
            cli_error("replay", "case %s%s%s%s: %s", name, op ? " (" : "", op ? op->name : "",
                      op ? ")" : "", msg);
            ++bad;
            json_object_set_new(c, "actual", error_actual(msg));
            continue;
        }

        replay_run run = {.k = NULL};
        json_t *actual = op->run(c, &run);
        if (actual && !run.refused && op->has_kernel && mode != MODE_ACTIVE) {
            json_decref(actual);
            run.k = mode == MODE_ONE ? one : tendon_kernels_for(TENDON_ISA_SCALAR);
            actual = op->run(c, &run);
            if (actual && mode == MODE_ALL)
                ++compared;
            for (int isa = 1; actual && mode == MODE_ALL && isa < TENDON_ISA_COUNT; ++isa) {
                replay_run other = {.k = tendon_kernels_for((tendon_isa)isa)};
                if (!other.k)
                    continue;
                json_t *got = op->run(c, &other);
                char what[400];
                if (!got) {
                    cli_error("replay", "case %s (%s): %s: %s", name, op->name,
                              tendon_isa_name((tendon_isa)isa), other.error);
                    ++mismatches;
                } else if (jx_diff(actual, got, what, sizeof what) != 0) {
                    cli_error("replay", "case %s (%s): %s differs from scalar %s", name, op->name,
                              tendon_isa_name((tendon_isa)isa), what);
                    ++mismatches;
                }
                json_decref(got);
            }
        } else if (actual && !run.refused) {
            ++once;
        }
        if (!actual) {
            cli_error("replay", "case %s (%s): %s", name, op->name, run.error);
            ++bad;
            actual = error_actual(run.error);
        } else if (run.refused) {
            ++refused;
        }
        json_object_set_new(c, "actual", actual);
    }

    if (jx_write_lines(stdout, results) != 0)
        cli_error("replay", "cannot write the results");
    if (mode == MODE_ALL) {
        char isas[128] = "";
        for (int isa = 0; isa < TENDON_ISA_COUNT; ++isa) {
            if (!tendon_kernels_for((tendon_isa)isa))
                continue;
            size_t used = strlen(isas);
            snprintf(isas + used, sizeof isas - used, "%s%s%s", used ? ", " : "",
                     tendon_isa_name((tendon_isa)isa),
                     tendon_isa_compiled((tendon_isa)isa) == TENDON_ISA_EMULATED ? " (emulated)"
                                                                                 : "");
        }
        /* e.g. "14 cases: 10 compared on scalar, sse2, …: every ISA bitwise equal to scalar;
         * 1 run once through the public API (no per-ISA kernel); 2 refused by the library;
         * 1 malformed" — only the compared ones are vouched for. */
        fprintf(stderr, "tendon replay: %zu case%s: ", replayed, replayed == 1 ? "" : "s");
        if (compared)
            fprintf(stderr, "%zu compared on %s: %s", compared, isas,
                    mismatches ? "ISAs DIFFER (see above)" : "every ISA bitwise equal to scalar");
        else
            fprintf(stderr, "none compared across ISAs (%s)", isas);
        if (once)
            fprintf(stderr, "; %zu run once through the public API (no per-ISA kernel)", once);
        if (refused)
            fprintf(stderr, "; %zu refused by the library", refused);
        if (bad)
            fprintf(stderr, "; %zu malformed", bad);
        fputc('\n', stderr);
    }
    cli_fpenv_line(stderr, "tendon replay: "); /* the environment it ran in (stdout is JSON) */
    json_decref(results);
    json_decref(cases);
    if (bad)
        return CLI_USAGE;
    return mismatches ? CLI_FAIL : CLI_OK;
}
