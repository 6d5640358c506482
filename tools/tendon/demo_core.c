/*
 * `tendon demo`: the built-in character, the frame pipeline on one kernel table, the JSON
 * report and the SVG chart (demo.h, docs/demo.md).
 */
#define _POSIX_C_SOURCE 200809L
#include "demo.h"

#include <errno.h>
#include <math.h>
#include <nettle/sha2.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json.h"

#ifdef TENDON_CLI_HAVE_GLTF
#include <tendon/gltf.h>
#endif

/* The clip sampler on a given table (src/clip.c; internal, linked from the static library, as
   tendon digest uses it): unchecked, the caller validated the pose and the time. */
void tendon_clip_sample_table(const tendon_kernels *kt, const tendon_clip *clip, double time_sec,
                              tendon_pose *pose, float *packed);
void tendon_clip_sample_table_cursor(const tendon_kernels *kt, const tendon_clip *clip,
                                     double time_sec, uint32_t *cursor, tendon_pose *pose);
void tendon_clip_sample_table_cursor_f32(const tendon_kernels *kt, const tendon_clip *clip,
                                         double time_sec, uint32_t *cursor, tendon_pose *pose);

const char *const DEMO_STAGE_NAME[DEMO_STAGE_COUNT] = {"sample",  "layer", "anchors", "springs",
                                                       "palette", "morph", "skin"};

static void say(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
}

static void note(demo_scene *s, const char *fmt, ...) __attribute__((format(printf, 2, 3), unused));
static void note(demo_scene *s, const char *fmt, ...)
{
    size_t used = strlen(s->notes);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->notes + used, sizeof s->notes - used, fmt, ap);
    va_end(ap);
    used = strlen(s->notes);
    if (used + 1 < sizeof s->notes) {
        s->notes[used] = '\n';
        s->notes[used + 1] = '\0';
    }
}

/* ---- ownership ------------------------------------------------------------------------------ */

typedef struct owned {
    tendon_skeleton *skeleton;
    tendon_clip *clips[3];
    tendon_skin_binding *binding;
#ifdef TENDON_CLI_HAVE_GLTF
    tendon_gltf *gltf;
#endif
    tendon_pose rest;
    void *blocks[32];
    size_t block_count;
} owned;

static void *take(owned *o, size_t bytes)
{
    if (o->block_count == sizeof o->blocks / sizeof o->blocks[0])
        return NULL;
    void *p = calloc(1, bytes ? bytes : 1);
    if (p)
        o->blocks[o->block_count++] = p;
    return p;
}

void demo_scene_destroy(demo_scene *scene)
{
    if (!scene || !scene->owned)
        return;
    tendon_spring_rig_destroy(scene->rig);
    owned *o = scene->owned;
    tendon_skeleton_destroy(o->skeleton);
    for (int i = 0; i < 3; ++i)
        tendon_clip_destroy(o->clips[i]);
    tendon_skin_binding_destroy(o->binding);
#ifdef TENDON_CLI_HAVE_GLTF
    tendon_gltf_destroy(o->gltf);
#endif
    tendon_pose_destroy(&o->rest);
    for (size_t i = 0; i < o->block_count; ++i)
        free(o->blocks[i]);
    free(o);
    memset(scene, 0, sizeof *scene);
}

/* ---- arithmetic without libm: the same character on every machine --------------------------- */

static const double PI = 3.14159265358979323846;

/* sin by reduction to [−π/2, π/2] and its Taylor series to x^19 (error < 1e-15 there): only
   + − × and floor, each correctly rounded, so every IEEE machine gets the same bits. */
static double dsin(double x)
{
    double k = floor(x / (2.0 * PI) + 0.5);
    double r = x - k * (2.0 * PI);
    if (r > PI / 2)
        r = PI - r;
    else if (r < -PI / 2)
        r = -PI - r;
    const double r2 = r * r;
    double term = r, sum = r;
    for (int n = 1; n < 10; ++n) {
        term = -term * r2 / (double)((2 * n) * (2 * n + 1));
        sum += term;
    }
    return sum;
}
static double dcos(double x) { return dsin(x + PI / 2); }

/* The layer weights' wave, evaluated at every substep time of every spring sample, so cheap
   (an engine's weight curves would be): a sine-like periodic curve of period 2π — the phase's
   triangle wave t ∈ [−1, 1], smoothed to t·(3 − t²)/2 (C¹, within 0.03 of sin) — from the
   nearest whole turn by the 2^52 rounding trick. + − × only, so every machine gets the same
   bits. */
static double wave(double x)
{
    static const double INV_2PI = 1.0 / (2.0 * PI), ROUND = 0x1.8p52;
    const double turns = x * INV_2PI - 0.25; /* sin(x) = cos(x − π/2): the triangle's phase */
    const double p = turns - ((turns + ROUND) - ROUND); /* in [−0.5, 0.5] */
    const double t = 1.0 - 4.0 * (p < 0.0 ? -p : p);   /* the triangle: 1 at p = 0, −1 at ±½ */
    return t * (1.5 - 0.5 * (t * t));
}

/* x wrapped into [0, d) (d > 0). */
static double wrap(double x, double d)
{
    if (!(d > 0))
        return 0.0;
    double w = x - floor(x / d) * d;
    return w >= d ? 0.0 : w;
}

/* quaternion (x y z w) of `angle` radians about a unit axis */
static void axis_angle(const double axis[3], double angle, double q[4])
{
    const double s = dsin(angle * 0.5);
    q[0] = axis[0] * s, q[1] = axis[1] * s, q[2] = axis[2] * s, q[3] = dcos(angle * 0.5);
}

static void qmul(const double a[4], const double b[4], double out[4])
{
    double r[4];
    r[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    r[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    r[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    r[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    memcpy(out, r, sizeof r);
}

/* ---- the built-in character ---------------------------------------------------------------- */

enum { BODY_JOINTS = 65, HAIR_CHAINS = 2, HAIR_LINKS = 6, COAT_CHAINS = 12, COAT_LINKS = 5 };

typedef struct jdef {
    char name[32];
    int parent;
    double t[3];
    double radius;   /* of the limb segment from the parent to this joint (0: none) */
    double bias[4];  /* the walk's constant rotation (quaternion) */
    double axis[3];  /* the walk's swing: axis, amplitude (radians), phase */
    double amp, phase;
    int spring; /* 0: a body joint the clips animate; 1: hair; 2: coat (driven by springs) */
} jdef;

typedef struct builder {
    jdef j[BODY_JOINTS + HAIR_CHAINS * (HAIR_LINKS + 1) + COAT_CHAINS * (COAT_LINKS + 1)];
    int n;
    /* hair chain c: its root (the anchor joint J0) at hair_first + c·(HAIR_LINKS + 1), link i
       right after it at + 1 + i */
    int hair_first;
} builder;

/* Where the hair chains hang from, in the head's frame: each chain's root joint. */
static const float HAIR_ANCHOR[HAIR_CHAINS][3] = {{0.06f, 0.1f, -0.08f}, {-0.06f, 0.1f, -0.08f}};

static int find(const builder *b, const char *name)
{
    for (int j = 0; j < b->n; ++j)
        if (strcmp(b->j[j].name, name) == 0)
            return j;
    return -1;
}

static int add(builder *b, const char *name, int parent, double x, double y, double z, double r)
{
    jdef *d = &b->j[b->n];
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", name);
    d->parent = parent;
    d->t[0] = x, d->t[1] = y, d->t[2] = z;
    d->radius = r;
    d->bias[3] = 1.0;
    d->axis[0] = 1.0;
    return b->n++;
}

static void swing(builder *b, int j, double ax, double ay, double az, double amp, double phase)
{
    b->j[j].axis[0] = ax, b->j[j].axis[1] = ay, b->j[j].axis[2] = az;
    b->j[j].amp = amp, b->j[j].phase = phase;
}

static void bias(builder *b, int j, double ax, double ay, double az, double angle)
{
    const double axis[3] = {ax, ay, az};
    axis_angle(axis, angle, b->j[j].bias);
}

static void build_humanoid(builder *b)
{
    b->n = 0;
    const int root = add(b, "root", -1, 0, 0, 0, 0);
    const int hips = add(b, "hips", root, 0, 1.0, 0, 0);
    swing(b, hips, 0, 1, 0, 0.08, 0);
    int s = add(b, "spine", hips, 0, 0.1, 0, 0.13);
    swing(b, s, 0, 1, 0, 0.05, PI);
    s = add(b, "spine1", s, 0, 0.12, 0, 0.13);
    swing(b, s, 0, 1, 0, 0.04, PI);
    s = add(b, "spine2", s, 0, 0.12, 0, 0.14);
    swing(b, s, 1, 0, 0, 0.02, 0.5);
    const int chest = add(b, "chest", s, 0, 0.12, 0, 0.15);
    swing(b, chest, 0, 1, 0, 0.03, PI);
    const int neck = add(b, "neck", chest, 0, 0.14, 0, 0.05);
    swing(b, neck, 0, 1, 0, 0.04, 0);
    const int head = add(b, "head", neck, 0, 0.1, 0, 0.05);
    swing(b, head, 1, 0, 0, 0.03, 1.0);
    add(b, "head_top", head, 0, 0.22, 0, 0.1);
    /* the hair, right after the head's own subtree (DFS pre-order): two chains under the head,
       each a root joint on the scalp (the chain's anchor joint) and six links below it */
    b->hair_first = b->n;
    for (int c = 0; c < HAIR_CHAINS; ++c) {
        const float *al = HAIR_ANCHOR[c];
        char name[32]; /* room for any int in "hair%d_%d" */
        snprintf(name, sizeof name, "hair%d_root", c);
        int p = add(b, name, head, al[0], al[1], al[2], 0);
        b->j[p].spring = 1;
        for (int i = 0; i < HAIR_LINKS; ++i) {
            snprintf(name, sizeof name, "hair%d_%d", c, i);
            p = add(b, name, p, 0, -0.06, 0, 0.012);
            b->j[p].spring = 1;
        }
    }
    for (int side = 0; side < 2; ++side) {
        const double sx = side == 0 ? 1.0 : -1.0;
        const char *sn = side == 0 ? "l" : "r";
        char name[24];
        snprintf(name, sizeof name, "shoulder_%s", sn);
        const int sh = add(b, name, chest, sx * 0.07, 0.1, 0, 0.06);
        swing(b, sh, 0, 0, 1, 0.03, side * PI);
        snprintf(name, sizeof name, "upperarm_%s", sn);
        const int ua = add(b, name, sh, sx * 0.13, 0, 0, 0.06);
        bias(b, ua, 0, 0, 1, -sx * 1.25);
        swing(b, ua, 1, 0, 0, 0.45, side == 0 ? PI : 0);
        snprintf(name, sizeof name, "forearm_%s", sn);
        const int fa = add(b, name, ua, sx * 0.28, 0, 0, 0.05);
        bias(b, fa, 0, 1, 0, sx * 0.3);
        swing(b, fa, 0, 1, 0, 0.2 * sx, side == 0 ? PI : 0);
        snprintf(name, sizeof name, "hand_%s", sn);
        const int hand = add(b, name, fa, sx * 0.26, 0, 0, 0.04);
        swing(b, hand, 1, 0, 0, 0.1, 0.3);
        static const char *const FINGER[5] = {"thumb", "index", "middle", "ring", "pinky"};
        for (int f = 0; f < 5; ++f) {
            int p = hand;
            for (int seg = 0; seg < 4; ++seg) {
                snprintf(name, sizeof name, "%s%d_%s", FINGER[f], seg, sn);
                double x = sx * 0.03, y = 0, z = 0;
                if (seg == 0) {
                    x = f == 0 ? sx * 0.02 : sx * 0.05;
                    y = f == 0 ? -0.02 : 0;
                    z = f == 0 ? 0.03 : 0.022 - 0.012 * f;
                }
                p = add(b, name, p, x, y, z, seg == 0 ? 0.015 : 0.009);
                if (seg > 0) {
                    bias(b, p, 0, 0, 1, -sx * 0.25);
                    swing(b, p, 0, 0, 1, 0.12 * sx, 0.4 * f);
                }
            }
        }
    }
    for (int side = 0; side < 2; ++side) {
        const double sx = side == 0 ? 1.0 : -1.0;
        const char *sn = side == 0 ? "l" : "r";
        const double ph = side == 0 ? 0 : PI;
        char name[24];
        snprintf(name, sizeof name, "thigh_%s", sn);
        const int th = add(b, name, hips, sx * 0.09, -0.06, 0, 0.09);
        swing(b, th, 1, 0, 0, 0.45, ph);
        snprintf(name, sizeof name, "calf_%s", sn);
        const int ca = add(b, name, th, 0, -0.44, 0, 0.07);
        bias(b, ca, 1, 0, 0, 0.3);
        swing(b, ca, 1, 0, 0, 0.3, ph + PI / 2);
        snprintf(name, sizeof name, "foot_%s", sn);
        const int fo = add(b, name, ca, 0, -0.42, 0, 0.05);
        swing(b, fo, 1, 0, 0, 0.2, ph + PI);
        snprintf(name, sizeof name, "toe_%s", sn);
        add(b, name, fo, 0, -0.04, 0.13, 0.04);
    }
}

/* A mesh under construction. */
typedef struct mesh {
    size_t count, capacity;
    float *pos, *nrm, *w;
    uint16_t *jnt;
} mesh;

static void emit(mesh *m, const double p[3], const double n[3], const int j[4], const double w[4])
{
    if (m->count == m->capacity)
        return;
    const size_t v = m->count++;
    for (int c = 0; c < 3; ++c) {
        m->pos[3 * v + c] = (float)p[c];
        m->nrm[3 * v + c] = (float)n[c];
    }
    for (int i = 0; i < 4; ++i) {
        m->jnt[4 * v + i] = (uint16_t)j[i];
        m->w[4 * v + i] = (float)w[i];
    }
}

static void normalize3(double v[3])
{
    const double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0)
        v[0] /= l, v[1] /= l, v[2] /= l;
}

/* A tube from a to b around bone `owner`, blending into `prev` near a and into `next` near b. */
static void tube(mesh *m, const float *a, const float *b, double radius, int rings, int sides,
                 int prev, int prev2, int owner, int next)
{
    double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    normalize3(d);
    const double up[3] = {fabs(d[1]) < 0.9 ? 0 : 1, fabs(d[1]) < 0.9 ? 1 : 0, 0};
    double e1[3] = {d[1] * up[2] - d[2] * up[1], d[2] * up[0] - d[0] * up[2],
                    d[0] * up[1] - d[1] * up[0]};
    normalize3(e1);
    const double e2[3] = {d[1] * e1[2] - d[2] * e1[1], d[2] * e1[0] - d[0] * e1[2],
                          d[0] * e1[1] - d[1] * e1[0]};
    for (int r = 0; r < rings; ++r) {
        const double u = rings > 1 ? (double)r / (rings - 1) : 0.5;
        const double rad = radius * (0.8 + 0.2 * dsin(PI * u));
        double w[4] = {u < 0.25 ? (0.25 - u) * 2 : 0, u < 0.15 ? (0.15 - u) : 0, 1.0,
                       u > 0.75 ? (u - 0.75) * 2 : 0};
        const double sum = ((w[0] + w[1]) + w[2]) + w[3];
        for (int i = 0; i < 4; ++i)
            w[i] /= sum;
        const int j[4] = {prev, prev2, owner, next};
        for (int s = 0; s < sides; ++s) {
            const double th = 2 * PI * s / sides, c = dcos(th), sn = dsin(th);
            double n[3], p[3];
            for (int k = 0; k < 3; ++k) {
                n[k] = c * e1[k] + sn * e2[k];
                p[k] = a[k] + u * (b[k] - a[k]) + rad * n[k];
            }
            emit(m, p, n, j, w);
        }
    }
}

static const float *rest_world(const float *model, int j) { return model + 16 * (size_t)j + 12; }

int demo_scene_builtin(size_t vertex_target, demo_scene *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    if (vertex_target < 1000)
        vertex_target = 1000;
    owned *o = calloc(1, sizeof *o);
    builder *b = calloc(1, sizeof *b);
    if (!o || !b) {
        free(o), free(b);
        say(why, why_size, "out of memory");
        return -1;
    }
    out->owned = o;
    snprintf(out->name, sizeof out->name, "built-in humanoid");
    build_humanoid(b);
    const int head = find(b, "head"), hips = find(b, "hips"), head_top = find(b, "head_top");
    /* the spring rig's chains: 2 hair chains from their roots on the head, a coat of 12 chains
       from their roots on the hips (each chain: its root, the anchor joint, then its links) */
    out->chain_count = HAIR_CHAINS + COAT_CHAINS;
    for (int c = 0; c < HAIR_CHAINS; ++c) {
        demo_chain *ch = &out->chains[c];
        snprintf(ch->name, sizeof ch->name, "hair%d", c);
        ch->joint_count = HAIR_LINKS + 1;
        for (int k = 0; k <= HAIR_LINKS; ++k)
            ch->joints[k] = (uint32_t)(b->hair_first + c * (HAIR_LINKS + 1) + k);
        ch->settings = (tendon_spring_settings){2.2, 0.45, 0.12};
    }
    /* the coat after everything (the hips' subtree is the whole body): 12 chains under the hips */
    const int coat_first = b->n;
    for (int c = 0; c < COAT_CHAINS; ++c) {
        const double th = 2 * PI * c / COAT_CHAINS;
        const float al[3] = {(float)(0.19 * dcos(th)), -0.02f, (float)(0.19 * dsin(th))};
        char name[32]; /* room for any int in "coat%02d_%d" */
        snprintf(name, sizeof name, "coat%02d_root", c);
        int p = add(b, name, hips, al[0], al[1], al[2], 0);
        b->j[p].spring = 2;
        demo_chain *ch = &out->chains[HAIR_CHAINS + c];
        snprintf(ch->name, sizeof ch->name, "coat%02d", c);
        ch->joint_count = COAT_LINKS + 1;
        ch->joints[0] = (uint32_t)p;
        ch->settings = (tendon_spring_settings){1.6, 0.6, 0.1};
        for (int i = 0; i < COAT_LINKS; ++i) {
            snprintf(name, sizeof name, "coat%02d_%d", c, i);
            p = add(b, name, p, 0, -0.1, 0, 0);
            b->j[p].spring = 2;
            ch->joints[1 + i] = (uint32_t)p;
        }
    }
    const size_t n = (size_t)b->n;
    out->joint_count = n;
    for (size_t j = 0; j < n; ++j)
        out->body_joint_count += b->j[j].spring == 0;

    /* skeleton and rest pose */
    int32_t *parents = take(o, n * sizeof *parents);
    const char **names = take(o, n * sizeof *names);
    char *name_store = take(o, n * 24);
    if (!parents || !names || !name_store || tendon_pose_create(n, &o->rest) != TENDON_OK)
        goto nomem;
    for (size_t j = 0; j < n; ++j) {
        parents[j] = b->j[j].parent;
        memcpy(name_store + 24 * j, b->j[j].name, 24);
        names[j] = name_store + 24 * j;
        for (int c = 0; c < 3; ++c)
            o->rest.translation[3 * j + c] = (float)b->j[j].t[c];
    }
    out->rest = o->rest;
    tendon_skeleton_desc sd = {n, parents, names, &o->rest};
    if (tendon_skeleton_create(&sd, &o->skeleton) != TENDON_OK)
        goto lib;
    out->skeleton = o->skeleton;

    /* rest model matrices (scalar table: set-up), and the binding (inverse bind from rest) */
    const tendon_kernels *ks = tendon_kernels_for(TENDON_ISA_SCALAR);
    float *model = take(o, 16 * n * sizeof *model);
    uint32_t *joint_of = take(o, n * sizeof *joint_of);
    if (!model || !joint_of)
        goto nomem;
    ks->local_matrices(o->rest.translation, o->rest.rotation, o->rest.scale, n, model);
    ks->model_matrices(model, parents, NULL, 0, n, model);
    for (size_t j = 0; j < n; ++j)
        joint_of[j] = (uint32_t)j;
    if (tendon_skin_binding_create(o->skeleton, joint_of, NULL, n, &o->binding) != TENDON_OK)
        goto lib;
    demo_mesh *me = &out->meshes[0];
    out->mesh_count = 1;
    me->joint_of = joint_of;
    me->inverse_bind = tendon_skin_binding_inverse_bind(o->binding);
    me->palette_count = n;

    /* the mesh: tubes around the limbs, a dense head, hair strands, a coat surface */
    mesh m = {0, vertex_target + vertex_target / 4 + 4096, NULL, NULL, NULL, NULL};
    m.pos = take(o, 3 * m.capacity * sizeof(float));
    m.nrm = take(o, 3 * m.capacity * sizeof(float));
    m.w = take(o, 4 * m.capacity * sizeof(float));
    m.jnt = take(o, 4 * m.capacity * sizeof(uint16_t));
    if (!m.pos || !m.nrm || !m.w || !m.jnt)
        goto nomem;
    const double v_body = 0.70 * (double)vertex_target, v_head = 0.10 * (double)vertex_target;
    const double v_hair = 0.05 * (double)vertex_target, v_coat = 0.15 * (double)vertex_target;
    double body_area = 0; /* Σ sides·length */
    for (int j = 2; j < b->n; ++j) {
        if (b->j[j].spring || b->j[j].radius <= 0 || j == head_top)
            continue;
        const float *a = rest_world(model, b->j[j].parent), *e = rest_world(model, j);
        const double len = sqrt((double)((e[0] - a[0]) * (e[0] - a[0]) + (e[1] - a[1]) * (e[1] - a[1]) +
                                         (e[2] - a[2]) * (e[2] - a[2])));
        body_area += (b->j[j].radius < 0.02 ? 6 : 12) * len;
    }
    const double spacing = body_area / v_body;
    for (int j = 2; j < b->n; ++j) {
        if (b->j[j].spring || b->j[j].radius <= 0)
            continue;
        const int owner = b->j[j].parent, prev = b->j[owner].parent > 0 ? b->j[owner].parent : owner;
        const int prev2 = b->j[prev].parent > 0 ? b->j[prev].parent : prev;
        const float *a = rest_world(model, owner), *e = rest_world(model, j);
        if (j == head_top) { /* the head: dense, the morph targets' vertices */
            me->morph_first = m.count;
            const int rings = (int)(v_head / 32) > 4 ? (int)(v_head / 32) : 4;
            tube(&m, a, e, b->j[j].radius, rings, 32, prev, prev2, owner, j);
            me->morph_count = m.count - me->morph_first;
            continue;
        }
        const double len = sqrt((double)((e[0] - a[0]) * (e[0] - a[0]) + (e[1] - a[1]) * (e[1] - a[1]) +
                                         (e[2] - a[2]) * (e[2] - a[2])));
        const int rings = 2 + (int)(len / spacing);
        tube(&m, a, e, b->j[j].radius, rings, b->j[j].radius < 0.02 ? 6 : 12, prev, prev2, owner, j);
    }
    const int hair_rings = 2 + (int)(v_hair / (HAIR_CHAINS * HAIR_LINKS * 6));
    for (int c = 0; c < HAIR_CHAINS; ++c) {
        for (int i = 0; i < HAIR_LINKS; ++i) {
            const int j = b->hair_first + c * (HAIR_LINKS + 1) + 1 + i, owner = b->j[j].parent;
            const int prev = b->j[owner].parent, next = i + 1 < HAIR_LINKS ? j + 1 : j;
            tube(&m, rest_world(model, owner), rest_world(model, j), 0.012, hair_rings, 6, prev,
                 prev, owner, next);
        }
    }
    int grid = 2;
    while ((double)((grid + 1) * (grid + 1)) * COAT_CHAINS * (COAT_LINKS - 1) <= v_coat)
        ++grid;
    for (int c = 0; c < COAT_CHAINS; ++c) {
        const int c1 = (c + 1) % COAT_CHAINS;
        for (int l = 0; l + 1 < COAT_LINKS; ++l) {
            const int j00 = coat_first + c * (COAT_LINKS + 1) + 1 + l, j01 = j00 + 1;
            const int j10 = coat_first + c1 * (COAT_LINKS + 1) + 1 + l, j11 = j10 + 1;
            for (int gv = 0; gv < grid; ++gv) {
                for (int gu = 0; gu < grid; ++gu) {
                    const double a = (double)gu / grid, bb = (double)gv / grid;
                    const double w[4] = {(1 - a) * (1 - bb), a * (1 - bb), (1 - a) * bb, a * bb};
                    const int jj[4] = {j00, j10, j01, j11};
                    double p[3] = {0, 0, 0};
                    for (int i = 0; i < 4; ++i)
                        for (int k = 0; k < 3; ++k)
                            p[k] += w[i] * rest_world(model, jj[i])[k];
                    const double th = 2 * PI * (c + a) / COAT_CHAINS;
                    const double nn[3] = {dcos(th), 0, dsin(th)};
                    emit(&m, p, nn, jj, w);
                }
            }
        }
    }
    if (tendon_skin_weights_normalize(m.w, 0, 4, m.count) != TENDON_OK)
        goto lib;
    me->vertex_count = m.count;
    me->positions = m.pos, me->normals = m.nrm, me->joints = m.jnt, me->weights = m.w;

    /* face morph targets: jaw open, smile, blink, brow raise */
    me->target_count = 4;
    float **targets = take(o, 4 * sizeof *targets);
    if (!targets)
        goto nomem;
    const float *hc = rest_world(model, head);
    for (int t = 0; t < 4; ++t) {
        if (!(targets[t] = take(o, 3 * me->morph_count * sizeof(float))))
            goto nomem;
        for (size_t v = 0; v < me->morph_count; ++v) {
            const float *p = m.pos + 3 * (me->morph_first + v);
            const double rx = p[0] - hc[0], ry = p[1] - hc[1], rz = p[2] - hc[2];
            const double front = rz > 0 ? rz / 0.1 : 0;
            float *d = targets[t] + 3 * v;
            if (t == 0 && ry < 0.08)
                d[1] = (float)(-0.03 * front * (0.08 - ry) / 0.08);
            else if (t == 1 && ry > 0.05 && ry < 0.1)
                d[0] = (float)(0.01 * front * (rx > 0 ? 1 : -1)), d[1] = (float)(0.006 * front);
            else if (t == 2 && ry > 0.12 && ry < 0.15)
                d[1] = (float)(-0.006 * front);
            else if (t == 3 && ry > 0.15)
                d[1] = (float)(0.01 * front);
        }
    }
    me->targets = (const float *const *)targets;

    /* clips: walk (1 s loop), additive aim (2 s), face weights (2 s); LINEAR keys */
    {
        enum { WK = 33, AK = 41, FK = 25 };
        float *wt = take(o, WK * sizeof(float)), *at = take(o, AK * sizeof(float));
        float *ft = take(o, FK * sizeof(float));
        float *wv = take(o, (size_t)BODY_JOINTS * WK * 4 * sizeof(float) + WK * 3 * sizeof(float));
        float *av = take(o, 7 * AK * 4 * sizeof(float)), *fv = take(o, FK * 4 * sizeof(float));
        tendon_track_desc *tr = take(o, (BODY_JOINTS + 8) * sizeof *tr);
        if (!wt || !at || !ft || !wv || !av || !fv || !tr)
            goto nomem;
        for (int k = 0; k < WK; ++k)
            wt[k] = (float)(k / 32.0);
        for (int k = 0; k < AK; ++k)
            at[k] = (float)(k / 20.0);
        for (int k = 0; k < FK; ++k)
            ft[k] = (float)(k / 12.0);
        size_t nt = 0;
        float *v = wv;
        for (int j = 1; j < b->n; ++j) {
            if (b->j[j].spring || (b->j[j].amp == 0 && b->j[j].bias[3] == 1.0))
                continue;
            for (int k = 0; k < WK; ++k) {
                double q[4], sw[4];
                axis_angle(b->j[j].axis, b->j[j].amp * dsin(2 * PI * k / 32.0 + b->j[j].phase), sw);
                qmul(sw, b->j[j].bias, q);
                for (int c = 0; c < 4; ++c)
                    v[4 * k + c] = (float)q[c];
            }
            tr[nt++] = (tendon_track_desc){(uint32_t)j, TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR,
                                           4, WK, wt, v};
            v += 4 * WK;
        }
        for (int k = 0; k < WK; ++k) { /* the hips bob twice a cycle */
            v[3 * k] = 0, v[3 * k + 2] = 0;
            v[3 * k + 1] = (float)(1.0 + 0.025 * dsin(4 * PI * k / 32.0));
        }
        tr[nt++] = (tendon_track_desc){(uint32_t)hips, TENDON_PATH_TRANSLATION,
                                       TENDON_INTERP_LINEAR, 3, WK, wt, v};
        tendon_clip_desc cd = {n, nt, tr};
        if (tendon_clip_create(&cd, &o->clips[0]) != TENDON_OK)
            goto lib;
        out->base = o->clips[0], out->base_duration = tendon_clip_duration(o->clips[0]);

        /* aim: a delta (additive) clip over the upper body: yaw and pitch shared down the spine,
           and the right arm raised */
        static const char *const AIM_JOINTS[6] = {"spine1", "spine2", "chest",
                                                  "neck",   "head",   "upperarm_r"};
        static const double SHARE[6] = {0.15, 0.15, 0.2, 0.25, 0.25, 1.0};
        for (int i = 0; i < 6; ++i) {
            for (int k = 0; k < AK; ++k) {
                const double t = k / 20.0;
                double q[4], yq[4], pq[4];
                static const double Y[3] = {0, 1, 0}, X[3] = {1, 0, 0}, Z[3] = {0, 0, 1};
                if (i < 5) {
                    axis_angle(Y, SHARE[i] * 0.9 * dsin(PI * t), yq);
                    axis_angle(X, SHARE[i] * 0.3 * dsin(2 * PI * t + 0.5), pq);
                    qmul(yq, pq, q);
                } else {
                    axis_angle(Z, 0.6 * (0.5 + 0.5 * dsin(PI * t)), q);
                }
                for (int c = 0; c < 4; ++c)
                    av[4 * (i * AK + k) + c] = (float)q[c];
            }
            tr[i] = (tendon_track_desc){(uint32_t)find(b, AIM_JOINTS[i]), TENDON_PATH_ROTATION,
                                        TENDON_INTERP_LINEAR, 4, AK, at, av + 4 * i * AK};
        }
        cd = (tendon_clip_desc){n, 6, tr};
        if (tendon_clip_create(&cd, &o->clips[1]) != TENDON_OK)
            goto lib;
        out->layer = o->clips[1], out->layer_duration = tendon_clip_duration(o->clips[1]);

        for (int k = 0; k < FK; ++k)
            for (int i = 0; i < 4; ++i)
                fv[4 * k + i] = (float)(0.5 + 0.5 * dsin(2 * PI * (k / 12.0) * (i + 1) / 2 + i));
        tr[0] = (tendon_track_desc){0, TENDON_PATH_WEIGHTS, TENDON_INTERP_LINEAR, 4, FK, ft, fv};
        cd = (tendon_clip_desc){n, 1, tr};
        if (tendon_clip_create(&cd, &o->clips[2]) != TENDON_OK)
            goto lib;
        out->face = o->clips[2], me->face_offset = 0;
        out->face_duration = tendon_clip_duration(o->clips[2]);
    }

    /* the bone mask: split at spine1, full authority 3 bones down (additive) */
    if (!(out->mask = take(o, n * sizeof(float))))
        goto nomem;
    snprintf(out->mask_root, sizeof out->mask_root, "spine1");
    if (tendon_bone_mask_by_name(o->skeleton, "spine1", 3.0, out->mask) != TENDON_OK)
        goto lib;
    free(b);
    if (demo_scene_finish(out, why, why_size) != 0) {
        demo_scene_destroy(out);
        return -1;
    }
    return 0;
nomem:
    free(b);
    say(why, why_size, "out of memory building the built-in character");
    demo_scene_destroy(out);
    return -1;
lib:
    free(b);
    say(why, why_size, "building the built-in character: %s", tendon_error_message());
    demo_scene_destroy(out);
    return -1;
}

/* ---- counts --------------------------------------------------------------------------------- */

size_t demo_stage_items(const demo_scene *s, int stage, const char **item)
{
    const char *dummy;
    if (!item)
        item = &dummy;
    size_t links = 0;
    switch (stage) {
    case DEMO_SAMPLE:
    case DEMO_LAYER:
    case DEMO_PALETTE:
        *item = "joint";
        return s->joint_count;
    case DEMO_ANCHORS:
        *item = "joint eval";
        return s->anchor_joint_evaluations;
    case DEMO_SPRINGS:
        *item = "link";
        for (size_t c = 0; c < s->chain_count; ++c)
            links += s->chains[c].joint_count - 1;
        return links;
    case DEMO_MORPH:
        *item = "vertex";
        return s->morph_count;
    case DEMO_SKIN:
        *item = "vertex";
        return s->vertex_count;
    default:
        *item = "";
        return 0;
    }
}

/* Mesh m's skinning job over the given buffers (the palette, the positions to skin, where the
   positions and normals go: normals only where the mesh has them). */
static tendon_skin_job mesh_job(const demo_mesh *m, const float *palette, const float *positions,
                                float *out_positions, float *out_normals)
{
    return (tendon_skin_job){
        .palette = palette, .palette_count = m->palette_count, .vertex_count = m->vertex_count,
        .influence_count = 4, .joint_index_type = TENDON_JOINT_INDEX_U16, .joints = m->joints,
        .joints_stride = 8, .weights = m->weights, .weights_stride = 16, .positions = positions,
        .positions_stride = 12, .out_positions = out_positions, .out_positions_stride = 12,
        .normals = m->normals, .normals_stride = 12,
        .out_normals = m->normals ? out_normals : NULL, .out_normals_stride = 12};
}

int demo_scene_finish(demo_scene *s, char *why, size_t why_size)
{
    s->palette_count = s->vertex_count = s->morph_count = s->target_count = 0;
    for (size_t i = 0; i < s->mesh_count; ++i) {
        const demo_mesh *m = &s->meshes[i];
        s->palette_count += m->palette_count, s->vertex_count += m->vertex_count;
        s->target_count += m->target_count;
        s->morph_count += m->target_count ? m->morph_count : 0;
    }
    /* each mesh prepared once here, so a model the skinning refuses (a non-finite weight, a
       joint index past its palette) is refused at load, before any run, as the other input
       errors are; the runs prepare their own (into their buffers) */
    for (size_t i = 0; i < s->mesh_count; ++i) {
        const demo_mesh *m = &s->meshes[i];
        float *palette = calloc(16 * (m->palette_count + 1), sizeof(float));
        float *out = malloc(6 * (m->vertex_count + 1) * sizeof(float)); /* positions, normals */
        tendon_skin_mesh *mesh = NULL;
        tendon_status st = TENDON_ERR_NOMEM;
        if (palette && out) {
            const tendon_skin_job job =
                mesh_job(m, palette, m->positions, out, out + 3 * (m->vertex_count + 1));
            st = tendon_skin_mesh_create(&job, &mesh);
        }
        tendon_skin_mesh_destroy(mesh);
        free(palette);
        free(out);
        if (st != TENDON_OK) {
            say(why, why_size, "skin mesh %zu: %s", i,
                st == TENDON_ERR_NOMEM ? "out of memory" : tendon_error_message());
            return -1;
        }
    }
    return demo_scene_springs(s, s->tier, why, why_size);
}

/* The idle ↔ walk weight and the aim layer's weight over time (no libm). */
static double speed_at(double t) { return 0.6 + 0.4 * wave(1.3 * t); }
static double aim_weight_at(double t) { return 0.5 + 0.5 * wave(0.9 * t + 1.0); }
static void speed_fn(void *user, const double *t, size_t n, double *out)
{
    (void)user;
    for (size_t i = 0; i < n; ++i)
        out[i] = speed_at(t[i]);
}
static void aim_weight_fn(void *user, const double *t, size_t n, double *out)
{
    (void)user;
    for (size_t i = 0; i < n; ++i)
        out[i] = aim_weight_at(t[i]);
}

int demo_scene_springs(demo_scene *s, tendon_tier tier, char *why, size_t why_size)
{
    tendon_spring_rig_destroy(s->rig);
    s->rig = NULL;
    s->tier = tier;
    s->anchor_evaluations = s->anchor_joint_evaluations = 0;
    if (s->chain_count == 0)
        return 0;
    /* the source: the frame's own pose as a function of time — idle (rest) blended toward the
       locomotion by speed_at, then the masked additive layer weighted by aim_weight_at */
    tendon_spring_rig_chain chains[DEMO_MAX_CHAINS];
    for (size_t c = 0; c < s->chain_count; ++c) {
        const demo_chain *ch = &s->chains[c];
        chains[c] = (tendon_spring_rig_chain){ch->name, NULL, ch->joints, ch->joint_count,
                                              {ch->offset[0], ch->offset[1], ch->offset[2]},
                                              &ch->settings, 1, NULL};
    }
    tendon_spring_rig_desc d;
    memset(&d, 0, sizeof d);
    d.skeleton = s->skeleton;
    d.chains = chains;
    d.chain_count = s->chain_count;
    d.tier = tier;
    d.source.kind = TENDON_RIG_SOURCE_CLIPS;
    d.source.blend = (tendon_rig_clip){s->base, 0.0, 1};
    d.source.blend_weight = (tendon_rig_weight){speed_fn, NULL, 0.0};
    if (s->layer && s->mask) {
        d.source.layer = (tendon_rig_clip){s->layer, s->layer_time_offset, 1};
        d.source.layer_mode = TENDON_RIG_LAYER_ADDITIVE;
        d.source.layer_weight = (tendon_rig_weight){aim_weight_fn, NULL, 0.0};
        d.source.layer_mask = s->mask;
        d.source.layer_reference = s->layer_is_full_pose ? &s->rest : NULL;
    }
    if (tendon_spring_rig_create(&d, &s->rig) != TENDON_OK) {
        say(why, why_size, "springs: %s", tendon_error_message());
        return -1;
    }
    /* the evaluations per frame, from tendon/spring.h's formula: one per substep grid (chains
       with the same lookback and substeps share one) of substeps + 2 times */
    double seen_lookback[DEMO_MAX_CHAINS];
    size_t seen_steps[DEMO_MAX_CHAINS], grids = 0;
    for (size_t c = 0; c < s->chain_count; ++c) {
        const demo_chain *ch = &s->chains[c];
        tendon_spring_link links[DEMO_MAX_LINKS];
        for (size_t i = 0; i + 1 < ch->joint_count; ++i)
            links[i] = (tendon_spring_link){ch->settings.frequency_hz, ch->settings.damping,
                                            ch->settings.max_offset_m, {0, 0, 0}};
        double lookback;
        if (tendon_spring_chain_settle_sec_lookback(links, ch->joint_count - 1, TENDON_SPRING_LOOKBACK_SEED,
                                                    &lookback) != TENDON_OK) {
            say(why, why_size, "springs (%s): %s", ch->name, tendon_error_message());
            return -1;
        }
        const double want = ceil(lookback * ch->settings.frequency_hz * TENDON_SPRING_STEPS_PER_PERIOD);
        const size_t steps = want < 1 ? 1 : (size_t)want;
        size_t g = 0;
        while (g < grids && !(seen_lookback[g] == lookback && seen_steps[g] == steps))
            ++g;
        if (g == grids) {
            seen_lookback[g] = lookback, seen_steps[g] = steps, ++grids;
            s->anchor_evaluations += steps + 2;
            s->anchor_joint_evaluations += (steps + 2) * tendon_spring_rig_grid_joints(s->rig, g);
        }
    }
    return 0;
}

/* ---- the frame -------------------------------------------------------------------------- */

static void hash_floats(struct sha256_ctx *sha, const float *v, size_t n)
{
    uint8_t buf[4096];
    size_t used = 0;
    for (size_t i = 0; i < n; ++i) {
        uint32_t bits;
        memcpy(&bits, &v[i], sizeof bits);
        if ((bits & 0x7fffffffu) > 0x7f800000u)
            bits = 0x7fc00000u; /* sign and payload of a NaN are not promised */
        buf[used++] = (uint8_t)bits;
        buf[used++] = (uint8_t)(bits >> 8);
        buf[used++] = (uint8_t)(bits >> 16);
        buf[used++] = (uint8_t)(bits >> 24);
        if (used == sizeof buf) {
            sha256_update(sha, used, buf);
            used = 0;
        }
    }
    if (used)
        sha256_update(sha, used, buf);
}

static void hash_pose(struct sha256_ctx *sha, const tendon_pose *p)
{
    hash_floats(sha, p->translation, 3 * p->joint_count);
    hash_floats(sha, p->rotation, 4 * p->joint_count);
    hash_floats(sha, p->scale, 3 * p->joint_count);
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Everything one run allocates. */
typedef struct work {
    tendon_pose base, layer, delta, blend, final;
    uint32_t *cursor_base, *cursor_layer;
    float *face;  /* packed values of the face clip */
    float *model; /* [16·joint_count] */
    /* per mesh */
    float *palette[DEMO_MAX_MESHES];
    float *positions[DEMO_MAX_MESHES]; /* the bind positions with the morphed ones */
    float *out_pos[DEMO_MAX_MESHES], *out_nrm[DEMO_MAX_MESHES];
    /* the spring rig: its workspace, the link positions, the anchors (for the hash) */
    void *rig_ws;
    size_t rig_bytes;
    float *links, *anchors;
} work;

/* The pose at time t through table k (the frame's first two stages), into w's poses, on the
   scene's tier. */
static void evaluate_pose(const demo_scene *s, const tendon_kernels *k, work *w, double t)
{
    const int f32 = s->tier == TENDON_TIER_F32;
    (f32 ? tendon_clip_sample_table_cursor_f32 : tendon_clip_sample_table_cursor)(
        k, s->base, wrap(t, s->base_duration), w->cursor_base, &w->base);
    if (s->layer) {
        const double tl = wrap(t + s->layer_time_offset, s->layer_duration);
        (f32 ? tendon_clip_sample_table_cursor_f32 : tendon_clip_sample_table_cursor)(
            k, s->layer, tl, w->cursor_layer, &w->layer);
    }
}

/* Blend and layer the sampled poses, on the scene's tier (the spring rig's source is defined as
   exactly this: demo_scene_springs). */
static void layer_pose(const demo_scene *s, const tendon_kernels *k, work *w, double t)
{
    const int f32 = s->tier == TENDON_TIER_F32;
    const size_t n = s->joint_count;
    (f32 ? k->pose_blend_f32 : k->pose_blend)(&s->rest, &w->base, speed_at(t), NULL, n, &w->blend);
    if (s->layer && s->mask) {
        const tendon_pose *delta = &w->layer;
        if (s->layer_is_full_pose) {
            (f32 ? tendon_pose_delta_f32 : tendon_pose_delta)(&s->rest, &w->layer, &w->delta);
            delta = &w->delta;
        }
        (f32 ? k->pose_add_f32 : k->pose_add)(&w->blend, delta, aim_weight_at(t), s->mask, n,
                                              &w->final);
    } else {
        memcpy(w->final.translation, w->blend.translation, 3 * n * sizeof(float));
        memcpy(w->final.rotation, w->blend.rotation, 4 * n * sizeof(float));
        memcpy(w->final.scale, w->blend.scale, 3 * n * sizeof(float));
    }
}

static int alloc_poses(work *w, size_t n)
{
    return tendon_pose_create(n, &w->base) || tendon_pose_create(n, &w->layer) ||
           tendon_pose_create(n, &w->delta) || tendon_pose_create(n, &w->blend) ||
           tendon_pose_create(n, &w->final);
}

static void free_work(work *w)
{
    tendon_pose_destroy(&w->base), tendon_pose_destroy(&w->layer);
    tendon_pose_destroy(&w->delta), tendon_pose_destroy(&w->blend);
    tendon_pose_destroy(&w->final);
    free(w->cursor_base), free(w->cursor_layer), free(w->face), free(w->model);
    for (size_t i = 0; i < DEMO_MAX_MESHES; ++i)
        free(w->palette[i]), free(w->positions[i]), free(w->out_pos[i]), free(w->out_nrm[i]);
    free(w->rig_ws), free(w->links), free(w->anchors);
    memset(w, 0, sizeof *w);
}

static size_t max_grid_times(const tendon_spring_rig *rig)
{
    size_t m = 0;
    for (size_t g = 0; g < tendon_spring_rig_grid_count(rig); ++g)
        if (tendon_spring_rig_grid_times(rig, g) > m)
            m = tendon_spring_rig_grid_times(rig, g);
    return m;
}

/* Poses start at rest: the channels a clip does not drive keep their rest values. */
static void rest_poses(const demo_scene *s, work *w)
{
    tendon_pose *p[] = {&w->base, &w->layer, &w->delta, &w->blend, &w->final};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; ++i)
        tendon_pose_copy(&s->rest, p[i]);
    if (s->layer && !s->layer_is_full_pose)
        tendon_pose_set_identity(&w->layer); /* a delta clip: undriven channels are "no change" */
}

static int alloc_work(const demo_scene *s, work *w)
{
    const size_t n = s->joint_count;
    memset(w, 0, sizeof *w);
    if (alloc_poses(w, n))
        return -1;
    w->cursor_base = calloc(tendon_clip_timeline_count(s->base) + 1, sizeof(uint32_t));
    w->cursor_layer = calloc(tendon_clip_timeline_count(s->layer) + 1, sizeof(uint32_t));
    w->model = malloc(16 * n * sizeof(float));
    if (!w->cursor_base || !w->cursor_layer || !w->model)
        return -1;
    rest_poses(s, w);
    w->face = calloc(tendon_clip_value_count(s->face) + 1, sizeof(float));
    if (!w->face)
        return -1;
    for (size_t i = 0; i < s->mesh_count; ++i) {
        const demo_mesh *m = &s->meshes[i];
        w->palette[i] = malloc(16 * (m->palette_count + 1) * sizeof(float));
        w->positions[i] = malloc(3 * (m->vertex_count + 1) * sizeof(float));
        w->out_pos[i] = malloc(3 * (m->vertex_count + 1) * sizeof(float));
        w->out_nrm[i] = malloc(3 * (m->vertex_count + 1) * sizeof(float));
        if (!w->palette[i] || !w->positions[i] || !w->out_pos[i] || !w->out_nrm[i])
            return -1;
        memcpy(w->positions[i], m->positions, 3 * m->vertex_count * sizeof(float));
    }
    if (s->rig) {
        if (tendon_spring_rig_workspace_size(s->rig, &w->rig_bytes) != TENDON_OK)
            return -1;
        w->rig_ws = malloc(w->rig_bytes);
        w->links = calloc(3 * tendon_spring_rig_link_count(s->rig) + 1, sizeof(float));
        w->anchors = calloc(3 * max_grid_times(s->rig) + 1, sizeof(float));
        if (!w->rig_ws || !w->links || !w->anchors)
            return -1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int demo_run(const demo_scene *s, const tendon_kernels *k, size_t frames, double fps,
             demo_progress_fn progress, void *user, demo_result *out, char *why, size_t why_size)
{
    return demo_run_ex(s, k, frames, fps, NULL, progress, user, out, why, why_size);
}

int demo_run_ex(const demo_scene *s, const tendon_kernels *k, size_t frames, double fps,
                const demo_run_options *options, demo_progress_fn progress, void *user,
                demo_result *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    out->isa = (int)k->isa;
    out->frames = frames;
    const double start = options ? options->start_sec : 0.0;
    demo_capture *capture = options ? options->capture : NULL;
    size_t captured = 0;
    work w;
    tendon_skin_mesh *meshes[DEMO_MAX_MESHES] = {NULL};
    int rc = -1;
    double *times = malloc(DEMO_STAGE_COUNT * (frames ? frames : 1) * sizeof *times);
    if (!times || alloc_work(s, &w) != 0)
        goto nomem;
    struct sha256_ctx sha[DEMO_STAGE_COUNT];
    for (int i = 0; i < DEMO_STAGE_COUNT; ++i)
        sha256_init(&sha[i]);
    const size_t n = s->joint_count;
    const size_t links = s->rig ? tendon_spring_rig_link_count(s->rig) : 0;
    size_t evaluations = 0; /* pose evaluations per frame: the rig's grids' times */
    for (size_t g = 0; s->rig && g < tendon_spring_rig_grid_count(s->rig); ++g)
        evaluations += tendon_spring_rig_grid_times(s->rig, g);
    tendon_skin_job jobs[DEMO_MAX_MESHES];
    for (size_t i = 0; i < s->mesh_count; ++i)
        jobs[i] = mesh_job(&s->meshes[i], w.palette[i], w.positions[i], w.out_pos[i], w.out_nrm[i]);
    /* the prepared meshes: every index and weight checked once, here (a morphed mesh gets
     * its moved positions per frame through tendon_skin_mesh_set_positions) */
    for (size_t i = 0; i < s->mesh_count; ++i) {
        if (tendon_skin_mesh_create(&jobs[i], &meshes[i]) != TENDON_OK) {
            say(why, why_size, "skin mesh %zu: %s", i, tendon_error_message());
            goto done;
        }
    }
    const size_t face_values = tendon_clip_value_count(s->face);
    for (size_t f = 0; f < frames; ++f) {
        const double t = start + (double)f / fps;
        double t0 = now_ns();
        /* sample */
        evaluate_pose(s, k, &w, t);
        if (s->face)
            tendon_clip_sample_table(k, s->face, wrap(t, s->face_duration), NULL, w.face);
        double t1 = now_ns();
        times[DEMO_SAMPLE * frames + f] = t1 - t0;
        /* layer */
        layer_pose(s, k, &w, t);
        double t2 = now_ns();
        times[DEMO_LAYER * frames + f] = t2 - t1;
        hash_pose(&sha[DEMO_LAYER], &w.final); /* before the springs turn the chains in it */
        t2 = now_ns();
        /* anchors: the rig evaluates its source at every substep time, batched */
        if (s->rig && tendon_spring_rig_evaluate_on(k, s->rig, t, w.rig_ws, w.rig_bytes) !=
                          TENDON_OK) {
            say(why, why_size, "anchors: %s", tendon_error_message());
            goto done;
        }
        double t3 = now_ns();
        times[DEMO_ANCHORS * frames + f] = t3 - t2;
        out->anchor_ns += t3 - t2;
        out->anchor_evaluations += evaluations;
        /* springs: the march, then the chains' rotations into the pose */
        if (s->rig && tendon_spring_rig_march_on(k, s->rig, t, w.rig_ws, w.rig_bytes, w.links,
                                                 3 * links, &w.final) != TENDON_OK) {
            say(why, why_size, "springs: %s", tendon_error_message());
            goto done;
        }
        double t3b = now_ns();
        times[DEMO_SPRINGS * frames + f] = t3b - t3;
        t3 = t3b;
        /* palette */
        k->local_matrices(w.final.translation, w.final.rotation, w.final.scale, n, w.model);
        tendon_model_matrices_on(k, s->skeleton, w.model, NULL, 0, n, w.model);
        for (size_t i = 0; i < s->mesh_count; ++i)
            k->palette(w.model, s->meshes[i].joint_of, s->meshes[i].inverse_bind,
                       s->meshes[i].palette_count, w.palette[i]);
        double t4 = now_ns();
        times[DEMO_PALETTE * frames + f] = t4 - t3;
        /* morph */
        for (size_t i = 0; i < s->mesh_count; ++i) {
            const demo_mesh *m = &s->meshes[i];
            if (!m->target_count)
                continue;
            const float *weights = m->fixed_weights ? m->fixed_weights : w.face + m->face_offset;
            k->morph(m->positions + 3 * m->morph_first, m->targets, weights, m->target_count,
                     3 * m->morph_count, w.positions[i] + 3 * m->morph_first);
        }
        double t5 = now_ns();
        times[DEMO_MORPH * frames + f] = t5 - t4;
        /* skin (a morphed mesh first takes its moved positions) */
        for (size_t i = 0; i < s->mesh_count; ++i) {
            const demo_mesh *m = &s->meshes[i];
            if (m->target_count &&
                tendon_skin_mesh_set_positions(meshes[i], w.positions[i] + 3 * m->morph_first, 0,
                                               m->morph_first, m->morph_count) != TENDON_OK) {
                say(why, why_size, "skin mesh %zu: %s", i, tendon_error_message());
                goto done;
            }
            if (tendon_skin_mesh_apply_range_on(k, meshes[i], w.palette[i], 0, m->vertex_count,
                                                w.out_pos[i], m->normals ? w.out_nrm[i] : NULL,
                                                NULL) != TENDON_OK) {
                say(why, why_size, "skin mesh %zu: %s", i, tendon_error_message());
                goto done;
            }
        }
        double t6 = now_ns();
        times[DEMO_SKIN * frames + f] = t6 - t5;

        hash_pose(&sha[DEMO_SAMPLE], &w.base);
        if (s->layer)
            hash_pose(&sha[DEMO_SAMPLE], &w.layer);
        hash_floats(&sha[DEMO_SAMPLE], w.face, face_values);
        if (s->rig) {
            /* every anchor the march was handed, chain by chain; the links and the rotations
               of every chain joint */
            for (size_t c = 0; c < s->chain_count; ++c) {
                const size_t nt = tendon_spring_rig_chain_times(s->rig, c);
                if (tendon_spring_rig_evaluated_anchors(s->rig, w.rig_ws, w.rig_bytes, c,
                                                        w.anchors, 3 * nt, NULL, 0) != TENDON_OK) {
                    say(why, why_size, "anchors: %s", tendon_error_message());
                    goto done;
                }
                hash_floats(&sha[DEMO_ANCHORS], w.anchors, 3 * nt);
            }
            hash_floats(&sha[DEMO_SPRINGS], w.links, 3 * links);
            for (size_t c = 0; c < s->chain_count; ++c)
                for (size_t j = 0; j < s->chains[c].joint_count; ++j)
                    hash_floats(&sha[DEMO_SPRINGS], w.final.rotation + 4 * s->chains[c].joints[j],
                                4);
        }
        if (capture && captured < capture->count && capture->frame[captured] == f) {
            memcpy(capture->model[captured], w.model, 16 * n * sizeof(float));
            memcpy(capture->links[captured], w.links, 3 * links * sizeof(float));
            ++captured;
        }
        for (size_t i = 0; i < s->mesh_count; ++i) {
            const demo_mesh *m = &s->meshes[i];
            hash_floats(&sha[DEMO_PALETTE], w.palette[i], 16 * m->palette_count);
            if (m->target_count)
                hash_floats(&sha[DEMO_MORPH], w.positions[i] + 3 * m->morph_first,
                            3 * m->morph_count);
            hash_floats(&sha[DEMO_SKIN], w.out_pos[i], 3 * m->vertex_count);
            if (m->normals)
                hash_floats(&sha[DEMO_SKIN], w.out_nrm[i], 3 * m->vertex_count);
        }
        if (progress)
            progress(user, (int)k->isa, f + 1, frames);
    }
    for (int i = 0; i < DEMO_STAGE_COUNT; ++i) {
        sha256_digest(&sha[i], 32, out->hash[i]);
        double *t = times + (size_t)i * frames, sum = 0;
        for (size_t f = 0; f < frames; ++f)
            sum += t[f];
        qsort(t, frames, sizeof *t, cmp_double);
        out->mean_ns_per_frame[i] = sum / (double)frames;
        out->ns_per_frame[i] = frames % 2 ? t[frames / 2] : (t[frames / 2 - 1] + t[frames / 2]) / 2;
    }
    rc = 0;
    goto done;
nomem:
    say(why, why_size, "out of memory");
done:
    for (size_t i = 0; i < DEMO_MAX_MESHES; ++i)
        tendon_skin_mesh_destroy(meshes[i]);
    free(times);
    free_work(&w);
    return rc;
}

/* ---- the report ----------------------------------------------------------------------------- */

void demo_hex(const uint8_t hash[32], char out[65])
{
    for (int i = 0; i < 32; ++i)
        snprintf(out + 2 * i, 3, "%02x", hash[i]);
}

int demo_stage_agrees(const demo_result *r, size_t count, int stage)
{
    for (size_t i = 1; i < count; ++i)
        if (memcmp(r[i].hash[stage], r[0].hash[stage], 32) != 0)
            return 0;
    return 1;
}

static double total_ns(const demo_result *r)
{
    double t = 0;
    for (int i = 0; i < DEMO_STAGE_COUNT; ++i)
        t += r->ns_per_frame[i];
    return t;
}

static const char *build_name(int isa)
{
    switch (tendon_isa_compiled((tendon_isa)isa)) {
    case TENDON_ISA_NATIVE:
        return "native";
    case TENDON_ISA_EMULATED:
        return "emulated";
    default:
        return "absent";
    }
}

json_t *demo_report_json(const demo_scene *s, const demo_result *r, size_t count, double fps,
                         const char *chart_path)
{
    json_t *root = json_object();
    json_object_set_new(root, "tendon", json_string(tendon_version()));
    json_object_set_new(root, "cpu", jx_string(tendon_cpu_name()));
    json_t *ch = json_object();
    json_object_set_new(ch, "name", jx_string(s->name));
    json_object_set_new(ch, "joints", jx_number((double)s->joint_count));
    json_object_set_new(ch, "animated_joints", jx_number((double)s->body_joint_count));
    json_object_set_new(ch, "palette", jx_number((double)s->palette_count));
    json_object_set_new(ch, "vertices", jx_number((double)s->vertex_count));
    json_object_set_new(ch, "meshes", jx_number((double)s->mesh_count));
    json_object_set_new(ch, "spring_links",
                        jx_number((double)demo_stage_items(s, DEMO_SPRINGS, NULL)));
    if (s->chain_count)
        json_object_set_new(ch, "spring_chains", jx_number((double)s->chain_count));
    json_object_set_new(ch, "tier", json_string(s->tier == TENDON_TIER_F32 ? "f32" : "exact"));
    json_object_set_new(ch, "morph_targets", jx_number((double)s->target_count));
    json_object_set_new(ch, "morph_vertices", jx_number((double)s->morph_count));
    json_object_set_new(ch, "clip_tracks",
                        jx_number((double)(tendon_clip_track_count(s->base) +
                                           tendon_clip_track_count(s->layer) +
                                           tendon_clip_track_count(s->face))));
    if (s->mask)
        json_object_set_new(ch, "mask_root", jx_string(s->mask_root));
    json_object_set_new(ch, "notes", jx_string(s->notes));
    json_object_set_new(root, "character", ch);
    json_object_set_new(root, "frames", jx_number((double)(count ? r[0].frames : 0)));
    json_object_set_new(root, "fps", jx_number(fps));
    json_t *stages = json_array();
    for (int st = 0; st < DEMO_STAGE_COUNT; ++st) {
        const char *item;
        const size_t items = demo_stage_items(s, st, &item);
        if (!items)
            continue;
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(DEMO_STAGE_NAME[st]));
        json_object_set_new(o, "item", json_string(item));
        json_object_set_new(o, "items", jx_number((double)items));
        json_object_set_new(o, "agree", json_boolean(demo_stage_agrees(r, count, st)));
        json_array_append_new(stages, o);
    }
    json_object_set_new(root, "stages", stages);
    json_t *isas = json_array();
    int all = 1;
    for (size_t i = 0; i < count; ++i) {
        json_t *o = json_object();
        json_object_set_new(o, "isa", json_string(tendon_isa_name((tendon_isa)r[i].isa)));
        json_object_set_new(o, "build", json_string(build_name(r[i].isa)));
        json_t *per = json_object();
        for (int st = 0; st < DEMO_STAGE_COUNT; ++st) {
            const size_t items = demo_stage_items(s, st, NULL);
            if (!items)
                continue;
            const double ns = r[i].ns_per_frame[st];
            json_t *so = json_object();
            char hex[65];
            demo_hex(r[i].hash[st], hex);
            json_object_set_new(so, "ns_per_frame", jx_number(ns));
            json_object_set_new(so, "ns_per_item", jx_number(ns / (double)items));
            json_object_set_new(so, "mean_ns_per_frame", jx_number(r[i].mean_ns_per_frame[st]));
            json_object_set_new(so, "speedup",
                                jx_number(r[0].ns_per_frame[st] / r[i].ns_per_frame[st]));
            json_object_set_new(so, "sha256", json_string(hex));
            json_object_set_new(per, DEMO_STAGE_NAME[st], so);
        }
        json_object_set_new(o, "stages", per);
        json_object_set_new(o, "total_ns_per_frame", jx_number(total_ns(&r[i])));
        json_object_set_new(o, "total_speedup", jx_number(total_ns(&r[0]) / total_ns(&r[i])));
        if (r[i].anchor_evaluations) {
            json_object_set_new(o, "anchor_ns_per_frame",
                                jx_number(r[i].anchor_ns / (double)r[i].frames));
            json_object_set_new(o, "anchor_evaluations_per_frame",
                                jx_number((double)r[i].anchor_evaluations / (double)r[i].frames));
        }
        json_array_append_new(isas, o);
    }
    for (int st = 0; st < DEMO_STAGE_COUNT; ++st)
        all &= demo_stage_agrees(r, count, st);
    json_object_set_new(root, "isas", isas);
    json_object_set_new(root, "agree", json_boolean(all));
    if (chart_path)
        json_object_set_new(root, "chart", jx_string(chart_path));
    return root;
}

static const char *const STAGE_COLOUR[DEMO_STAGE_COUNT] = {
    "#4e79a7", "#f28e2b", "#edc948", "#59a14f", "#e15759", "#b07aa1", "#76b7b2"};

static void xml_text(FILE *f, const char *s)
{
    for (; *s; ++s) {
        const size_t len = jx_utf8_char(s);
        if (len > 1) { /* a character beyond ASCII, whole */
            fwrite(s, 1, len, f);
            s += len - 1;
        } else if (!len || ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n')) {
            fputs("\xef\xbf\xbd", f); /* U+FFFD: not UTF-8 (a Latin-1 path), or a control
                                          character, which XML 1.0 has no way to write */
        } else if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
    }
}

/* A round tick step (1, 2 or 5 × 10^k) giving 2 to 5 intervals up to max. */
static double tick_step(double max)
{
    if (!(max > 0))
        return 1;
    double step = 1;
    while (step * 10 <= max)
        step *= 10;
    while (step > max)
        step /= 10;
    /* step ≤ max < 10·step */
    const double ratio = max / step;
    return ratio < 2 ? step / 2 : ratio < 5 ? step : step * 2;
}

/* An x axis under bars scaled `width` px per `max` ns: a line, ticks and µs labels at y. */
static void svg_axis(FILE *f, double left, double width, double y, double max_ns, int small)
{
    const double max_us = max_ns / 1e3, step = tick_step(max_us);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\"/>\n", left, y,
            left + width, y);
    for (int k = 0; k * step <= max_us * (1 + 1e-9) && k < 50; ++k) {
        const double v = k * step, x = left + width * v / max_us;
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"middle\">%g%s</text>\n",
                x, y, x, y + 4, x, y + (small ? 13 : 15), small ? 10 : 11, v,
                k == 0 ? "" : " &#181;s");
    }
}

/* "(2.31× scalar)", or for an ISA run through SIMDe emulation, what its time is not. */
static void svg_ratio(FILE *f, const demo_result *base, const demo_result *r, double base_ns,
                      double ns)
{
    if (tendon_isa_compiled((tendon_isa)r->isa) == TENDON_ISA_EMULATED)
        fputs(" (emulated: not a speed-up)", f);
    else if (r != base && ns > 0)
        fprintf(f, " (%.2f&#215; %s)", base_ns / ns, tendon_isa_name((tendon_isa)base->isa));
}

int demo_write_svg(const char *path, const demo_scene *s, const demo_result *r, size_t count)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    const double left = 150, bar_w = 520, row_h = 34, top = 70;
    size_t shown = 0; /* stages that run for this scene */
    for (int st = 0; st < DEMO_STAGE_COUNT; ++st)
        shown += demo_stage_items(s, st, NULL) != 0;
    const double panel_h = 14.0 * (double)count + 48; /* one per stage, below the totals */
    const double axis_h = 24;
    const double panels_top = top + row_h * (double)count + axis_h + 95;
    const double height = panels_top + panel_h * (double)shown + 20;
    double max_total = 0;
    for (size_t i = 0; i < count; ++i)
        if (total_ns(&r[i]) > max_total)
            max_total = total_ns(&r[i]);
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"900\" height=\"%.0f\" "
            "font-family=\"sans-serif\" font-size=\"13\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            height);
    fputs("<text x=\"20\" y=\"26\" font-size=\"16\" font-weight=\"bold\">tendon demo: "
          "&#181;s per frame, by stage and ISA (median over the frames)</text>\n"
          "<text x=\"20\" y=\"46\">",
          f);
    char line[1024];
    snprintf(line, sizeof line, "%s: %zu joints, %zu vertices, %zu spring links. %s", s->name,
             s->joint_count, s->vertex_count, demo_stage_items(s, DEMO_SPRINGS, NULL),
             tendon_cpu_name());
    xml_text(f, line);
    fputs("</text>\n", f);
    for (size_t i = 0; i < count; ++i) {
        const double y = top + row_h * (double)i;
        const int emu = tendon_isa_compiled((tendon_isa)r[i].isa) == TENDON_ISA_EMULATED;
        fprintf(f, "<text x=\"20\" y=\"%.1f\"%s>%s%s</text>\n", y + 20,
                emu ? " fill=\"#777\" font-style=\"italic\"" : "",
                tendon_isa_name((tendon_isa)r[i].isa), emu ? " (emulated)" : "");
        double x = left;
        for (int st = 0; st < DEMO_STAGE_COUNT; ++st) {
            const double w = max_total > 0 ? bar_w * r[i].ns_per_frame[st] / max_total : 0;
            fprintf(f,
                    "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"%s>"
                    "<title>%s %s: %.1f &#181;s per frame</title></rect>\n",
                    x, y + 6, w, row_h - 10, STAGE_COLOUR[st],
                    emu ? " fill-opacity=\"0.45\"" : "", tendon_isa_name((tendon_isa)r[i].isa),
                    DEMO_STAGE_NAME[st], r[i].ns_per_frame[st] / 1e3);
            x += w;
        }
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%.1f &#181;s", x + 8, y + 20,
                total_ns(&r[i]) / 1e3);
        svg_ratio(f, &r[0], &r[i], total_ns(&r[0]), total_ns(&r[i]));
        fputs("</text>\n", f);
    }
    svg_axis(f, left, bar_w, top + row_h * (double)count + 2, max_total, 0);
    const double ly = top + row_h * (double)count + axis_h + 25;
    for (int st = 0; st < DEMO_STAGE_COUNT; ++st) {
        const double lx = 20 + 120 * st;
        fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"14\" height=\"14\" fill=\"%s\"/>"
                   "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n",
                lx, ly, STAGE_COLOUR[st], lx + 20, ly + 12, DEMO_STAGE_NAME[st]);
    }
    int all = 1, any_emu = 0;
    for (int st = 0; st < DEMO_STAGE_COUNT; ++st)
        all &= demo_stage_agrees(r, count, st);
    for (size_t i = 0; i < count; ++i)
        any_emu |= tendon_isa_compiled((tendon_isa)r[i].isa) == TENDON_ISA_EMULATED;
    fprintf(f, "<text x=\"20\" y=\"%.0f\">%s</text>\n", ly + 40,
            all ? "every stage's output hash is the same on every ISA"
                : "ISAs DISAGREE: see the report");
    if (any_emu)
        fprintf(f, "<text x=\"20\" y=\"%.0f\" fill=\"#777\">emulated ISAs (SIMDe, pale): their "
                   "bits are checked; their time says nothing about the ISA</text>\n",
                ly + 58);
    /* one panel per stage, each on its own scale, so the small stages can be read too */
    double py = panels_top;
    for (int st = 0; st < DEMO_STAGE_COUNT; ++st) {
        const char *item;
        const size_t items = demo_stage_items(s, st, &item);
        if (!items)
            continue;
        double max = 0;
        for (size_t i = 0; i < count; ++i)
            max = r[i].ns_per_frame[st] > max ? r[i].ns_per_frame[st] : max;
        fprintf(f, "<text x=\"20\" y=\"%.1f\" font-weight=\"bold\">%s (%zu %s)</text>\n",
                py + 14, DEMO_STAGE_NAME[st], items, item);
        for (size_t i = 0; i < count; ++i) {
            const double y = py + 20 + 14.0 * (double)i;
            const double w = max > 0 ? bar_w * r[i].ns_per_frame[st] / max : 0;
            const int emu = tendon_isa_compiled((tendon_isa)r[i].isa) == TENDON_ISA_EMULATED;
            fprintf(f,
                    "<text x=\"40\" y=\"%.1f\" font-size=\"11\"%s>%s%s</text>"
                    "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.2f\" height=\"11\" fill=\"%s\"%s/>"
                    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%.2f &#181;s",
                    y + 10, emu ? " fill=\"#777\" font-style=\"italic\"" : "",
                    tendon_isa_name((tendon_isa)r[i].isa), emu ? " (emulated)" : "", left, y, w,
                    STAGE_COLOUR[st], emu ? " fill-opacity=\"0.45\"" : "", left + w + 6, y + 10,
                    r[i].ns_per_frame[st] / 1e3);
            svg_ratio(f, &r[0], &r[i], r[0].ns_per_frame[st], r[i].ns_per_frame[st]);
            fputs("</text>\n", f);
        }
        if (max > 0)
            svg_axis(f, left, bar_w, py + 20 + 14.0 * (double)count + 1, max, 1);
        py += panel_h;
    }
    fputs("</svg>\n", f);
    if (fclose(f) != 0)
        return -1;
    return 0;
}

/* ---- a glTF model --------------------------------------------------------------------------- */
#ifdef TENDON_CLI_HAVE_GLTF
#include <strings.h>

/* Whether joint j's node name contains `word` (any case). */
static int named(const tendon_gltf *g, size_t j, const char *word)
{
    const char *name = tendon_gltf_node_name(g, (size_t)tendon_gltf_joint_node(g, j));
    const size_t wl = strlen(word);
    for (const char *p = name; p && *p; ++p)
        if (strncasecmp(p, word, wl) == 0)
            return 1;
    return 0;
}

/* Where to split the upper-body mask: the first joint named like a spine, torso or chest whose
   subtree holds no joint named like a leg (so the split leaves the legs out), −1 when there is
   none, −2 when out of memory. The skeleton's joints are
   in depth-first pre-order (0 ≤ parents[j] < j), so one pass from the last joint up marks every
   joint with a leg in its subtree: linear in the joints and their names' lengths (the first
   form searched each candidate's later joints and their ancestors, quadratic: 31 s for a
   3000-joint chain of spines). */
static long find_split(const tendon_gltf *g, const int32_t *parents, size_t n)
{
    static const char *const UPPER[] = {"spine", "torso", "chest"};
    static const char *const LOWER[] = {"leg", "thigh", "calf", "foot", "knee"};
    unsigned char *legs = calloc(n ? n : 1, 1); /* legs[j]: a leg-named joint in j's subtree */
    if (!legs)
        return -2;
    for (size_t k = n; k-- > 0;) {
        for (size_t l = 0; l < sizeof LOWER / sizeof LOWER[0] && !legs[k]; ++l)
            legs[k] = (unsigned char)named(g, k, LOWER[l]);
        if (legs[k] && parents[k] >= 0)
            legs[parents[k]] = 1;
    }
    long split = -1;
    for (size_t w = 0; w < sizeof UPPER / sizeof UPPER[0] && split < 0; ++w)
        for (size_t j = 0; j < n && split < 0; ++j)
            if (!legs[j] && named(g, j, UPPER[w]))
                split = (long)j;
    free(legs);
    return split;
}

int demo_scene_gltf(const char *path, const char *animation, demo_scene *out, char *why,
                    size_t why_size)
{
    memset(out, 0, sizeof *out);
    owned *o = calloc(1, sizeof *o);
    if (!o) {
        say(why, why_size, "out of memory");
        return -1;
    }
    out->owned = o;
    if (tendon_gltf_load(path, &o->gltf) != TENDON_OK) {
        say(why, why_size, "%s", tendon_error_message());
        demo_scene_destroy(out);
        return 2;
    }
    const tendon_gltf *g = o->gltf;
    snprintf(out->name, sizeof out->name, "%s", path);
    const char *gn = tendon_gltf_notes(g);
    if (gn && *gn)
        note(out, "importer: %.*s", (int)strcspn(gn, "\n"), gn);
    out->skeleton = tendon_gltf_skeleton(g);
    const size_t n = tendon_gltf_node_count(g);
    out->joint_count = out->body_joint_count = n;
    if (tendon_pose_create(n, &o->rest) != TENDON_OK ||
        tendon_skeleton_rest_pose(out->skeleton, &o->rest) != TENDON_OK)
        goto lib;
    out->rest = o->rest;

    /* the animation */
    const size_t anims = tendon_gltf_animation_count(g);
    if (anims == 0) {
        say(why, why_size, "%s has no animation: the demo plays one", path);
        demo_scene_destroy(out);
        return 2;
    }
    size_t a = 0;
    if (animation) {
        /* an index is decimal digits only: strtoul also took " 1", "+1" and
           "-18446744073709551615" (negated modulo 2^64: 1) for animation 1 */
        char *end;
        errno = 0;
        const unsigned long idx = strtoul(animation, &end, 10);
        if (*animation && strspn(animation, "0123456789") == strlen(animation) && !errno &&
            idx < anims) {
            a = idx;
        } else if (tendon_gltf_find_animation(g, animation, &a) != TENDON_OK) {
            say(why, why_size, "%s (the file has %zu animations)", tendon_error_message(), anims);
            demo_scene_destroy(out);
            return 2;
        }
    }
    out->base = tendon_gltf_animation(g, a);
    out->base_duration = tendon_clip_duration(out->base);
    const char *an = tendon_gltf_animation_name(g, a);
    snprintf(out->name, sizeof out->name, "%s, animation %zu%s%s%s", path, a, an ? " \"" : "",
             an ? an : "", an ? "\"" : "");

    /* every skinned primitive, each with its node's skin */
    size_t skinned = 0, no_normals = 0, morphed = 0, default_weights = 0;
    float lo = 0, hi = 0;
    for (size_t node = 0; node < n; ++node) {
        const int32_t mesh = tendon_gltf_node_mesh(g, node), skin = tendon_gltf_node_skin(g, node);
        if (mesh < 0 || skin < 0)
            continue;
        const tendon_skin_binding *binding = tendon_gltf_skin(g, (size_t)skin);
        for (size_t p = 0; p < tendon_gltf_primitive_count(g, (size_t)mesh); ++p) {
            tendon_gltf_primitive pr;
            if (tendon_gltf_get_primitive(g, (size_t)mesh, p, &pr) != TENDON_OK || !pr.joints ||
                !pr.weights || pr.vertex_count == 0)
                continue;
            if (++skinned > DEMO_MAX_MESHES)
                continue;
            demo_mesh *m = &out->meshes[out->mesh_count++];
            m->palette_count = tendon_skin_binding_palette_count(binding);
            m->joint_of = tendon_skin_binding_joints(binding);
            m->inverse_bind = tendon_skin_binding_inverse_bind(binding);
            m->vertex_count = pr.vertex_count;
            m->positions = pr.positions, m->normals = pr.normals;
            m->joints = pr.joints, m->weights = pr.weights;
            no_normals += pr.normals == NULL;
            for (size_t v = 0; v < 4 * pr.vertex_count; ++v) {
                if (pr.joints[v] >= m->palette_count) {
                    say(why, why_size,
                        "%s: mesh %d primitive %zu: vertex %zu has joint index %u, its skin has "
                        "%zu joints",
                        path, mesh, p, v / 4, pr.joints[v], m->palette_count);
                    demo_scene_destroy(out);
                    return 2;
                }
            }
            for (size_t v = 0; v < pr.vertex_count; ++v) {
                const float y = pr.positions[3 * v + 1];
                if (out->mesh_count == 1 && v == 0)
                    lo = hi = y;
                lo = y < lo ? y : lo, hi = y > hi ? y : hi;
            }
            /* morph targets, weighted by the animation's WEIGHTS track for this node */
            int all_targets = pr.target_count > 0;
            for (size_t t = 0; t < pr.target_count; ++t)
                all_targets &= pr.target_positions[t] != NULL;
            if (!all_targets)
                continue;
            ++morphed;
            m->target_count = pr.target_count;
            m->targets = pr.target_positions;
            m->morph_first = 0, m->morph_count = pr.vertex_count;
            m->fixed_weights = pr.default_weights;
            const size_t tracks = tendon_clip_track_count(out->base);
            for (size_t t = 0; t < tracks; ++t) {
                tendon_gltf_channel ch;
                if (tendon_gltf_animation_channel(g, a, t, &ch) == TENDON_OK &&
                    ch.path == TENDON_PATH_WEIGHTS && ch.node == node &&
                    tendon_clip_track_width(out->base, t) >= pr.target_count) {
                    out->face = out->base;
                    out->face_duration = out->base_duration;
                    m->fixed_weights = NULL;
                    m->face_offset = tendon_clip_track_offset(out->base, t);
                }
            }
            default_weights += m->fixed_weights != NULL;
        }
    }
    if (out->mesh_count == 0) {
        say(why, why_size, "%s has no skinned mesh primitive (JOINTS_0 and WEIGHTS_0)", path);
        demo_scene_destroy(out);
        return 2;
    }
    if (skinned > DEMO_MAX_MESHES)
        note(out, "%zu skinned primitives: the first %d are skinned, the others are not", skinned,
             DEMO_MAX_MESHES);
    else if (skinned > 1)
        note(out, "%zu skinned primitives, each with its own palette", skinned);
    if (no_normals == out->mesh_count)
        note(out, "no normals in the mesh%s: positions only are skinned",
             out->mesh_count > 1 ? "es" : "");
    else if (no_normals)
        note(out, "%zu of the %zu primitives have no normals: their positions only are skinned",
             no_normals, out->mesh_count);
    if (!morphed)
        note(out, "morph: skipped (no skinned primitive has POSITION morph targets)");
    if (default_weights)
        note(out, "morph: %zu primitives have no weights in the animation: their default weights "
                  "are used", default_weights);
    const double size = hi - lo > 0 ? (double)(hi - lo) : 1.0;

    /* the masked additive layer: split at the first joint named like a spine */
    const long spine = find_split(g, tendon_skeleton_parents(out->skeleton), n);
    if (spine == -2)
        goto nomem;
    tendon_pose probe = {0};
    int delta_ok = tendon_pose_create(n, &probe) == TENDON_OK &&
                   tendon_pose_delta(&o->rest, &o->rest, &probe) == TENDON_OK;
    tendon_pose_destroy(&probe);
    if (spine < 0) {
        note(out, "masked layer: skipped (no joint named like a spine, torso or chest above the "
                  "arms and not the legs, to split the mask at)");
    } else if (!delta_ok) {
        note(out, "masked layer: skipped (the rest pose has a zero scale or rotation: no delta)");
    } else {
        if (!(out->mask = take(o, n * sizeof(float))))
            goto nomem;
        if (tendon_bone_mask_by_index(out->skeleton, (size_t)spine, 3.0, out->mask) != TENDON_OK)
            goto lib;
        const char *sn = tendon_gltf_node_name(g, (size_t)tendon_gltf_joint_node(g, (size_t)spine));
        snprintf(out->mask_root, sizeof out->mask_root, "%s", sn ? sn : "?");
        out->layer_is_full_pose = 1;
        if (anims > 1) {
            const size_t b = (a + 1) % anims;
            out->layer = tendon_gltf_animation(g, b);
            note(out, "masked layer: animation %zu as an additive delta from the rest pose, over "
                      "the joints below \"%s\"", b, out->mask_root);
        } else {
            out->layer = out->base;
            out->layer_time_offset = out->base_duration / 2;
            note(out, "masked layer: the one animation half a loop later, as an additive delta "
                      "from the rest pose, over the joints below \"%s\"", out->mask_root);
        }
        out->layer_duration = tendon_clip_duration(out->layer);
    }

    /* springs: none unless asked for (demo_scene_hang: --springs JOINT,…) */
    out->size_m = size;
    note(out, "springs: none (--springs JOINT[,JOINT...] hangs chains from named joints)");
    if (demo_scene_finish(out, why, why_size) != 0) {
        demo_scene_destroy(out);
        return 2;
    }
    return 0;
nomem:
    say(why, why_size, "out of memory");
    demo_scene_destroy(out);
    return -1;
lib:
    say(why, why_size, "%s: %s", path, tendon_error_message());
    demo_scene_destroy(out);
    return 2;
}
#endif

/* ---- chains hung from named joints ---------------------------------------------------------- */

int demo_scene_hang(demo_scene *s, const char *list, char *why, size_t why_size)
{
    const int32_t *parents = tendon_skeleton_parents(s->skeleton);
    const size_t n = s->joint_count;
    const double size = s->size_m > 0 ? s->size_m : 1.0;
    size_t count = 0;
    demo_chain chains[DEMO_MAX_CHAINS];
    for (const char *p = list; *p;) {
        /* the whole name, however long: cut at 255 bytes, a name was looked up as its prefix,
           and a joint named that prefix got the chain (review 34) */
        const size_t len = strcspn(p, ",");
        char *name = malloc(len + 1);
        if (!name) {
            say(why, why_size, "out of memory");
            return -1;
        }
        memcpy(name, p, len);
        name[len] = '\0';
        p += len + (p[len] == ',');
        if (!*name) {
            free(name);
            continue;
        }
        if (count == DEMO_MAX_CHAINS) {
            free(name);
            say(why, why_size, "--springs: at most %d chains", DEMO_MAX_CHAINS);
            return 2;
        }
        size_t j;
        if (tendon_skeleton_find_joint(s->skeleton, name, &j) != TENDON_OK) {
            free(name);
            say(why, why_size, "--springs: %s", tendon_error_message());
            return 2;
        }
        /* the joint, then its first child (the next joint in DFS pre-order), down to a leaf */
        demo_chain *ch = &chains[count];
        memset(ch, 0, sizeof *ch);
        snprintf(ch->name, sizeof ch->name, "%.31s", name);
        ch->joints[0] = (uint32_t)j;
        ch->joint_count = 1;
        while (ch->joint_count <= DEMO_MAX_LINKS && j + 1 < n && parents[j + 1] == (int32_t)j)
            ch->joints[ch->joint_count++] = (uint32_t)++j;
        if (ch->joint_count < 2) {
            say(why, why_size, "--springs: joint \"%.200s\" has no child to hang a chain from it",
                name);
            free(name);
            return 2;
        }
        free(name);
        /* a tail or a strand: 2 Hz, damping 0.5, at most 10% of the model's height off */
        ch->settings = (tendon_spring_settings){2.0, 0.5, 0.1 * size};
        ++count;
    }
    if (count == 0) {
        say(why, why_size, "--springs: no joint named in \"%s\"", list);
        return 2;
    }
    memcpy(s->chains, chains, count * sizeof *chains);
    s->chain_count = count;
    if (demo_scene_springs(s, s->tier, why, why_size) != 0)
        return 2;
    size_t links = 0;
    for (size_t c = 0; c < count; ++c)
        links += s->chains[c].joint_count - 1;
    /* the note replaces "springs: none" */
    char *none = strstr(s->notes, "springs: none");
    if (none) {
        const char *end = strchr(none, '\n');
        memmove(none, end ? end + 1 : none + strlen(none), strlen(end ? end + 1 : "") + 1);
    }
    note(s, "springs: %zu chain%s of %zu links in all, hung from --springs %s (the spring rig: the "
            "mesh follows their joints)",
         count, count == 1 ? "" : "s", links, list);
    return 0;
}

/* ---- crowds --------------------------------------------------------------------------------- */

typedef struct crowd {
    const demo_scene *s;
    const tendon_kernels *k;
    size_t frames, characters;
    double fps;
    atomic_size_t next;
    uint8_t (*hash)[DEMO_STAGE_COUNT][32]; /* [characters] */
    double *work;                          /* [characters]: the stages' time, every frame */
    atomic_int failed;
    pthread_mutex_t lock;
    char why[600];
} crowd;

static void *crowd_worker(void *arg)
{
    crowd *c = arg;
    for (;;) {
        const size_t i = atomic_fetch_add(&c->next, 1);
        if (i >= c->characters || atomic_load(&c->failed))
            break;
        demo_run_options opt = {(double)i * DEMO_CROWD_PHASE_SEC, NULL};
        demo_result r;
        char why[512];
        if (demo_run_ex(c->s, c->k, c->frames, c->fps, &opt, NULL, NULL, &r, why, sizeof why) !=
            0) {
            pthread_mutex_lock(&c->lock);
            if (!atomic_load(&c->failed))
                snprintf(c->why, sizeof c->why, "character %zu: %s", i, why);
            atomic_store(&c->failed, 1);
            pthread_mutex_unlock(&c->lock);
            break;
        }
        memcpy(c->hash[i], r.hash, sizeof r.hash);
        double work = 0;
        for (int st = 0; st < DEMO_STAGE_COUNT; ++st)
            work += r.mean_ns_per_frame[st];
        c->work[i] = work * (double)c->frames;
    }
    return NULL;
}

int demo_run_crowd(const demo_scene *s, const tendon_kernels *k, size_t characters,
                   size_t threads, size_t frames, double fps, demo_crowd_result *out, char *why,
                   size_t why_size)
{
    memset(out, 0, sizeof *out);
    out->isa = (int)k->isa;
    out->characters = characters, out->threads = threads, out->frames = frames;
    if (characters == 0 || threads == 0) {
        say(why, why_size, "a crowd needs at least one character and one thread");
        return -1;
    }
    crowd c;
    memset(&c, 0, sizeof c);
    c.s = s, c.k = k, c.frames = frames, c.characters = characters, c.fps = fps;
    atomic_init(&c.next, 0);
    atomic_init(&c.failed, 0);
    c.hash = calloc(characters, sizeof *c.hash);
    c.work = calloc(characters, sizeof *c.work);
    pthread_t *ids = calloc(threads, sizeof *ids);
    if (!c.hash || !c.work || !ids || pthread_mutex_init(&c.lock, NULL) != 0) {
        free(c.hash), free(c.work), free(ids);
        say(why, why_size, "out of memory");
        return -1;
    }
    const double t0 = now_ns();
    size_t started = 0;
    for (; started < threads; ++started)
        if (pthread_create(&ids[started], NULL, crowd_worker, &c) != 0)
            break;
    if (started == 0) /* no thread could start: this one does the work */
        crowd_worker(&c);
    for (size_t i = 0; i < started; ++i)
        pthread_join(ids[i], NULL);
    out->wall_ns = now_ns() - t0;
    int rc = 0;
    if (atomic_load(&c.failed)) {
        say(why, why_size, "%s", c.why);
        rc = -1;
    } else {
        /* each stage: SHA-256 over the characters' own stage hashes, in character order */
        for (int st = 0; st < DEMO_STAGE_COUNT; ++st) {
            struct sha256_ctx sha;
            sha256_init(&sha);
            for (size_t i = 0; i < characters; ++i)
                sha256_update(&sha, 32, c.hash[i][st]);
            sha256_digest(&sha, 32, out->hash[st]);
        }
        if (started < threads)
            out->threads = started ? started : 1;
        for (size_t i = 0; i < characters; ++i)
            out->work_ns += c.work[i];
    }
    pthread_mutex_destroy(&c.lock);
    free(c.hash), free(c.work), free(ids);
    return rc;
}

/* ---- the picture of the chains -------------------------------------------------------------- */

int demo_write_springs_svg(const char *path, const demo_scene *s, const demo_capture *cap,
                           double fps)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    const int32_t *parents = tendon_skeleton_parents(s->skeleton);
    const size_t n = s->joint_count, links = s->rig ? tendon_spring_rig_link_count(s->rig) : 0;
    /* which joints the chains turn (drawn in colour) */
    unsigned char *on_chain = calloc(n ? n : 1, 1);
    if (!on_chain) {
        fclose(f);
        return -1;
    }
    for (size_t c = 0; c < s->chain_count; ++c)
        for (size_t j = 1; j < s->chains[c].joint_count; ++j)
            on_chain[s->chains[c].joints[j]] = 1;
    /* a side view: model z across, y up; one scale for every panel */
    double lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
    for (size_t i = 0; i < cap->count; ++i) {
        for (size_t j = 0; j < n + links; ++j) {
            const float *p = j < n ? cap->model[i] + 16 * j + 12 : cap->links[i] + 3 * (j - n);
            const double x = p[2], y = p[1];
            if (!(x - x == 0.0) || !(y - y == 0.0))
                continue;
            lo[0] = x < lo[0] ? x : lo[0], hi[0] = x > hi[0] ? x : hi[0];
            lo[1] = y < lo[1] ? y : lo[1], hi[1] = y > hi[1] ? y : hi[1];
        }
    }
    if (!(hi[0] >= lo[0]))
        lo[0] = lo[1] = -1, hi[0] = hi[1] = 1;
    const double pw = 240, ph = 340, margin = 20, top = 60;
    const double span = (hi[0] - lo[0]) / (pw - 2 * margin) > (hi[1] - lo[1]) / (ph - 2 * margin)
                            ? (hi[0] - lo[0]) / (pw - 2 * margin)
                            : (hi[1] - lo[1]) / (ph - 2 * margin);
    const double scale = span > 0 ? 1.0 / span : 1.0;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            pw * (double)(cap->count ? cap->count : 1) + 20, top + ph + 40);
    fputs("<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">tendon demo: the spring "
          "chains (side view)</text>\n<text x=\"10\" y=\"42\">",
          f);
    char line[700];
    snprintf(line, sizeof line,
             "%s: grey the skeleton, blue the chains' bones as the rig turned them, red the "
             "sprung link positions (%zu chains, %zu links)",
             s->name, s->chain_count, links);
    xml_text(f, line);
    fputs("</text>\n", f);
    for (size_t i = 0; i < cap->count; ++i) {
        const double ox = 10 + pw * (double)i, oy = top;
#define PX(p) (ox + margin + ((double)(p)[2] - lo[0]) * scale)
#define PY(p) (oy + ph - margin - ((double)(p)[1] - lo[1]) * scale)
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                   "stroke=\"#ddd\"/>\n<text x=\"%.1f\" y=\"%.1f\">t = %.3f s (frame %zu)</text>\n",
                ox, oy, pw - 10, ph, ox + 6, oy + 16, (double)cap->frame[i] / fps, cap->frame[i]);
        const float *m = cap->model[i];
        for (size_t j = 0; j < n; ++j) {
            if (parents[j] < 0)
                continue;
            const float *a = m + 16 * (size_t)parents[j] + 12, *b = m + 16 * j + 12;
            fprintf(f,
                    "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
                    "stroke-width=\"%s\"/>\n",
                    PX(a), PY(a), PX(b), PY(b), on_chain[j] ? "#1f5fbf" : "#999",
                    on_chain[j] ? "2" : "1");
        }
        for (size_t l = 0; l < links; ++l) {
            const float *p = cap->links[i] + 3 * l;
            fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"2\" fill=\"#d62728\"/>\n", PX(p), PY(p));
        }
#undef PX
#undef PY
    }
    fputs("</svg>\n", f);
    free(on_chain);
    return fclose(f) != 0 ? -1 : 0;
}
