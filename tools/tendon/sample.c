/*
 * tendon sample: a glTF model's skins, channels and skinned vertices at given times, as JSON
 * (docs/cli.md, docs/gltf.md). The pipeline a user would run: the skeleton's rest pose, the
 * clip sampled over it (channels no track drives keep their rest values), model matrices
 * relative to the scene root, each skin's palette, linear-blend skinning of the requested
 * vertices.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tendon/gltf.h>
#include <tendon/tendon.h>

#include "cli.h"
#include "json.h"

const char USAGE_SAMPLE[] =
    "usage: tendon sample MODEL [--animation INDEX|NAME --time SEC...] [--vertex "
    "NODE:PRIMITIVE:VERTEX...]\n"
    "       tendon sample MODEL --list\n"
    "\n"
    "Load a .gltf or .glb and print, for one time, one JSON object\n"
    "  {\"t\", \"skins\": [{\"skin\", \"joints\": [names], \"local\": "
    "[[tx,ty,tz,qx,qy,qz,qw,sx,sy,sz]...],\n"
    "   \"world\": [[16]...], \"palette\": [[16]...]}], \"channels\": [[...]...], \"skinned\": "
    "[[x,y,z]...]}\n"
    "per skin, joints in skin.joints order (a joint's name is null when its node has none),\n"
    "matrices column-major; `channels` in the animation's channel order (null for a channel that\n"
    "was skipped on import); `skinned` the requested vertices of the skinned mesh node NODE in\n"
    "scene space. Several --time values give a JSON array of such objects. With no --animation:\n"
    "the rest pose (no \"t\", no \"channels\"). Numbers are the shortest decimals that read back as\n"
    "the same float32 value.\n"
    "\n"
    "  --animation A   the animation's index, or its name\n"
    "  --time SEC      seconds on the clip's axis (repeatable; clamped at each track's ends)\n"
    "  --vertex N:P:V  a vertex V of primitive P of the mesh of node N (repeatable)\n"
    "  --list          instead, print what the file holds, as text: its skins (each palette\n"
    "                  entry's joint), the skeleton's joints (the names tendon gives them:\n"
    "                  node<index> for an unnamed node, #2, #3 for a repeat) and animations\n";

/* --list: the skins, the joints and the animations of a loaded model, one per line. */
static void list_model(const char *path, const tendon_gltf *g)
{
    const tendon_skeleton *sk = tendon_gltf_skeleton(g);
    const size_t n = tendon_skeleton_joint_count(sk);
    const int32_t *parents = tendon_skeleton_parents(sk);
    const size_t ns = tendon_gltf_skin_count(g), na = tendon_gltf_animation_count(g),
                 nm = tendon_gltf_mesh_count(g);
    printf("%s: %zu node%s, %zu skin%s, %zu animation%s, %zu mesh%s\n", path, n,
           n == 1 ? "" : "s", ns, ns == 1 ? "" : "s", na, na == 1 ? "" : "s", nm,
           nm == 1 ? "" : "es");
    for (size_t k = 0; k < tendon_gltf_skin_count(g); ++k) {
        const tendon_skin_binding *b = tendon_gltf_skin(g, k);
        const char *name = tendon_gltf_skin_name(g, k);
        const size_t pc = tendon_skin_binding_palette_count(b);
        const uint32_t *joints = tendon_skin_binding_joints(b);
        printf("\nskin %zu%s%s%s: %zu palette entries (entry: joint)\n", k, name ? " \"" : "",
               name ? name : "", name ? "\"" : "", pc);
        for (size_t e = 0; e < pc; ++e)
            printf("  %3zu: %s\n", e, tendon_skeleton_joint_name(sk, joints[e]));
    }
    printf("\njoints (joint, name, parent, glTF node)\n");
    for (size_t j = 0; j < n; ++j) {
        const int32_t node = tendon_gltf_joint_node(g, j);
        if (parents[j] < 0)
            printf("  %3zu  %-28s  -    node %d\n", j, tendon_skeleton_joint_name(sk, j), node);
        else
            printf("  %3zu  %-28s  %-4d node %d\n", j, tendon_skeleton_joint_name(sk, j),
                   parents[j], node);
    }
    printf("\nanimations (index, name, duration, tracks)\n");
    for (size_t a = 0; a < tendon_gltf_animation_count(g); ++a) {
        const tendon_clip *clip = tendon_gltf_animation(g, a);
        const char *name = tendon_gltf_animation_name(g, a);
        printf("  %3zu  %s%s%s  %.4g s  %zu tracks\n", a, name ? "\"" : "",
               name ? name : "(unnamed)", name ? "\"" : "", tendon_clip_duration(clip),
               tendon_clip_track_count(clip));
    }
}

/* The shortest decimal (≤ 9 significant digits) that reads back as f, as a JSON real. */
static json_t *jfloat(float f)
{
    if (!(f - f == 0.0f))
        return jx_number((double)f);
    char buf[40];
    for (int p = 1; p <= 9; ++p) {
        snprintf(buf, sizeof buf, "%.*g", p, (double)f);
        if (strtof(buf, NULL) == f)
            return json_real(strtod(buf, NULL) == 0.0 ? (double)f : strtod(buf, NULL));
    }
    return json_real((double)f);
}

static json_t *jfloats(const float *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; ++i)
        json_array_append_new(a, jfloat(v[i]));
    return a;
}

typedef struct probe {
    size_t node, prim, vertex;
} probe;

typedef struct state {
    tendon_gltf *g;
    const tendon_skeleton *sk;
    size_t n;
    tendon_pose pose;
    float *model, *palette, *values;
    tendon_skin_mesh **meshes; /* [nprobes]: each probe's vertex prepared once, on first use */
} state;

static int fail(const char *what)
{
    cli_error("sample", "%s: %s", what, tendon_error_message());
    return CLI_USAGE;
}

/* One object for the current pose (model matrices computed). */
static int emit(state *s, const tendon_clip *clip, size_t anim, double t, int have_t,
                const probe *probes, size_t nprobes, json_t **out)
{
    json_t *o = json_object();
    if (have_t)
        json_object_set_new(o, "t", jx_number(t));
    json_t *skins = json_array();
    for (size_t k = 0; k < tendon_gltf_skin_count(s->g); ++k) {
        const tendon_skin_binding *b = tendon_gltf_skin(s->g, k);
        const uint32_t *nodes = tendon_gltf_skin_nodes(s->g, k);
        const uint32_t *joints = tendon_skin_binding_joints(b);
        const size_t pc = tendon_skin_binding_palette_count(b);
        if (tendon_palette(b, s->model, s->n, s->palette) != TENDON_OK) {
            json_decref(o);
            json_decref(skins);
            return fail("palette");
        }
        json_t *names = json_array(), *local = json_array(), *world = json_array(),
               *pal = json_array();
        for (size_t e = 0; e < pc; ++e) {
            const char *nm = tendon_gltf_node_name(s->g, nodes[e]);
            json_array_append_new(names, nm ? json_string(nm) : json_null());
            const size_t j = joints[e];
            float l[10];
            memcpy(l, s->pose.translation + 3 * j, 12);
            memcpy(l + 3, s->pose.rotation + 4 * j, 16);
            memcpy(l + 7, s->pose.scale + 3 * j, 12);
            json_array_append_new(local, jfloats(l, 10));
            json_array_append_new(world, jfloats(s->model + 16 * j, 16));
            json_array_append_new(pal, jfloats(s->palette + 16 * e, 16));
        }
        json_array_append_new(skins, json_pack("{s:I, s:o, s:o, s:o, s:o}", "skin", (json_int_t)k,
                                               "joints", names, "local", local, "world", world,
                                               "palette", pal));
    }
    json_object_set_new(o, "skins", skins);
    if (clip) {
        /* per glTF channel, in its order; skipped channels are null, those after the last
           imported one too (the file's count, not the highest imported index + 1) */
        const size_t nch = tendon_gltf_animation_channel_count(s->g, anim);
        json_t *chs = json_array();
        for (size_t c = 0; c < nch; ++c)
            json_array_append_new(chs, json_null());
        if (tendon_clip_sample_tracks(clip, t, s->values, tendon_clip_value_count(clip)) != TENDON_OK) {
            json_decref(o);
            json_decref(chs);
            return fail("sampling the channels");
        }
        for (size_t tr = 0; tr < tendon_clip_track_count(clip); ++tr) {
            tendon_gltf_channel gc;
            tendon_gltf_animation_channel(s->g, anim, tr, &gc);
            json_array_set_new(chs, gc.channel,
                               jfloats(s->values + tendon_clip_track_offset(clip, tr),
                                       tendon_clip_track_width(clip, tr)));
        }
        json_object_set_new(o, "channels", chs);
    }
    json_t *skinned = json_array();
    for (size_t p = 0; p < nprobes; ++p) {
        const int32_t mesh = tendon_gltf_node_mesh(s->g, probes[p].node);
        const int32_t skin = tendon_gltf_node_skin(s->g, probes[p].node);
        tendon_gltf_primitive pr;
        if (mesh < 0 || skin < 0 ||
            tendon_gltf_get_primitive(s->g, (size_t)mesh, probes[p].prim, &pr) != TENDON_OK ||
            probes[p].vertex >= pr.vertex_count || !pr.joints || !pr.weights) {
            cli_error("sample",
                      "--vertex %zu:%zu:%zu: node %zu %s", probes[p].node, probes[p].prim,
                      probes[p].vertex, probes[p].node,
                      mesh < 0   ? "has no mesh"
                      : skin < 0 ? "has no skin"
                                 : "has no such primitive or vertex, or no JOINTS_0/WEIGHTS_0");
            json_decref(o);
            json_decref(skinned);
            return CLI_USAGE;
        }
        const tendon_skin_binding *b = tendon_gltf_skin(s->g, (size_t)skin);
        tendon_palette(b, s->model, s->n, s->palette);
        if (!s->meshes[p]) { /* the probe's vertex as a prepared mesh, made once */
            tendon_skin_job job;
            memset(&job, 0, sizeof job);
            job.palette_count = tendon_skin_binding_palette_count(b);
            job.vertex_count = 1;
            job.influence_count = 4;
            job.joint_index_type = TENDON_JOINT_INDEX_U16;
            job.joints = pr.joints + 4 * probes[p].vertex;
            job.weights = pr.weights + 4 * probes[p].vertex;
            job.positions = pr.positions + 3 * probes[p].vertex;
            if (tendon_skin_mesh_create(&job, &s->meshes[p]) != TENDON_OK) {
                json_decref(o);
                json_decref(skinned);
                return fail("skinning");
            }
        }
        float v[3];
        if (tendon_skin_mesh_apply(s->meshes[p], s->palette, v, NULL, NULL) != TENDON_OK) {
            json_decref(o);
            json_decref(skinned);
            return fail("skinning");
        }
        json_array_append_new(skinned, jfloats(v, 3));
    }
    json_object_set_new(o, "skinned", skinned);
    *out = o;
    return CLI_OK;
}

/*
 * A decimal index at s, digits only (no sign, no space: strtoull would take "-1" as 2^64 − 1),
 * ending at `stop`: NULL, with *out and *end (at the stop) set; else what is wrong with it.
 */
static const char *parse_index(const char *s, char stop, size_t *out, const char **end)
{
    size_t v = 0;
    const char *p = s;
    if (*p == '-')
        return "is negative";
    if (!(*p >= '0' && *p <= '9'))
        return "is not a non-negative integer";
    for (; *p >= '0' && *p <= '9'; ++p) {
        if (v > (SIZE_MAX - (size_t)(*p - '0')) / 10)
            return "is too large for a size_t";
        v = 10 * v + (size_t)(*p - '0');
    }
    if (*p != stop)
        return stop && !*p ? "is not followed by ':'" : "is not a non-negative integer";
    *out = v;
    *end = p;
    return NULL;
}

int cmd_sample(int argc, char **argv)
{
    const char *model = NULL, *anim_arg = NULL;
    int list = 0;
    double *times = calloc((size_t)argc + 1, sizeof(double));
    probe *probes = calloc((size_t)argc + 1, sizeof(probe));
    size_t nt = 0, np = 0;
    int rc = CLI_OK;
    state s;
    memset(&s, 0, sizeof s);
    for (int i = 1; i < argc; ++i) {
        const char *v;
        int m;
        if (cli_is_help(argv[i])) {
            fputs(USAGE_SAMPLE, stdout);
            goto out;
        }
        if (strcmp(argv[i], "--list") == 0) {
            list = 1;
        } else if ((m = cli_opt_value(argc, argv, &i, "--animation", &v)) != 0) {
            if (m < 0) {
                rc = cli_usage_error("sample", USAGE_SAMPLE, "--animation needs a value");
                goto out;
            }
            anim_arg = v;
        } else if ((m = cli_opt_value(argc, argv, &i, "--time", &v)) != 0) {
            if (m < 0) {
                rc = cli_usage_error("sample", USAGE_SAMPLE, "--time needs a number of seconds");
                goto out;
            }
            char *end;
            errno = 0;
            const double t = strtod(v, &end);
            if (end == v || *end) {
                rc = cli_usage_error("sample", USAGE_SAMPLE,
                                     "--time \"%s\" is not a number of seconds", v);
                goto out;
            }
            if (!(t - t == 0.0)) { /* NaN, ±inf, or beyond a double (1e400 reads as inf) */
                rc = cli_usage_error("sample", USAGE_SAMPLE,
                                     "--time \"%s\" is %s: the time must be a finite number of "
                                     "seconds (|t| at most ~1.8e308)",
                                     v, t != t ? "not a number" : errno == ERANGE
                                                                    ? "too large for a double"
                                                                    : "infinite");
                goto out;
            }
            times[nt++] = t;
        } else if ((m = cli_opt_value(argc, argv, &i, "--vertex", &v)) != 0) {
            if (m < 0) {
                rc = cli_usage_error("sample", USAGE_SAMPLE,
                                     "--vertex needs NODE:PRIMITIVE:VERTEX");
                goto out;
            }
            static const char *const FIELD[3] = {"NODE", "PRIMITIVE", "VERTEX"};
            size_t idx[3];
            const char *p = v, *bad = NULL;
            int k = 0;
            for (; k < 3; ++k) {
                if ((bad = parse_index(p, k < 2 ? ':' : '\0', &idx[k], &p)) != NULL)
                    break;
                p += k < 2; /* past the ':' */
            }
            if (bad) {
                rc = cli_usage_error("sample", USAGE_SAMPLE,
                                     "--vertex \"%s\": %s %s; expected NODE:PRIMITIVE:VERTEX, "
                                     "three non-negative integers (e.g. 0:0:9)",
                                     v, FIELD[k], bad);
                goto out;
            }
            probes[np].node = idx[0], probes[np].prim = idx[1], probes[np].vertex = idx[2];
            ++np;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            rc = cli_usage_error("sample", USAGE_SAMPLE, "unknown option \"%s\"", argv[i]);
            goto out;
        } else if (!model) {
            model = argv[i];
        } else {
            rc = cli_usage_error("sample", USAGE_SAMPLE, "one MODEL only (\"%s\" is a second)",
                                 argv[i]);
            goto out;
        }
    }
    if (!model) {
        rc = cli_usage_error("sample", USAGE_SAMPLE, "MODEL is required");
        goto out;
    }
    if (list && (anim_arg || nt || np)) {
        rc = cli_usage_error("sample", USAGE_SAMPLE,
                             "--list takes no --animation, --time or --vertex");
        goto out;
    }
    if (anim_arg && nt == 0) {
        rc = cli_usage_error("sample", USAGE_SAMPLE, "--animation needs at least one --time");
        goto out;
    }
    if (!anim_arg && nt > 0) {
        rc = cli_usage_error("sample", USAGE_SAMPLE, "--time needs an --animation");
        goto out;
    }
    if (tendon_gltf_load(model, &s.g) != TENDON_OK) {
        cli_error("sample", "%s", tendon_error_message());
        rc = CLI_USAGE;
        goto out;
    }
    if (list) {
        cli_isa_env_warn("sample", "--list computes nothing on any ISA");
        list_model(model, s.g);
        goto out;
    }
    size_t anim = 0;
    const tendon_clip *clip = NULL;
    if (anim_arg) {
        size_t idx;
        const char *end;
        if (anim_arg[0] >= '0' && anim_arg[0] <= '9' && !parse_index(anim_arg, '\0', &idx, &end)) {
            if (idx >= tendon_gltf_animation_count(s.g)) {
                cli_error("sample", "%s: --animation %zu: the file has %zu animations", model, idx,
                          tendon_gltf_animation_count(s.g));
                rc = CLI_USAGE;
                goto out;
            }
            anim = idx;
        } else if (tendon_gltf_find_animation(s.g, anim_arg, &anim) != TENDON_OK) {
            cli_error("sample", "%s: %s", model, tendon_error_message());
            rc = CLI_USAGE;
            goto out;
        }
        clip = tendon_gltf_animation(s.g, anim);
    }
    s.sk = tendon_gltf_skeleton(s.g);
    s.n = tendon_skeleton_joint_count(s.sk);
    size_t maxp = 1;
    for (size_t k = 0; k < tendon_gltf_skin_count(s.g); ++k) {
        const size_t pc = tendon_skin_binding_palette_count(tendon_gltf_skin(s.g, k));
        maxp = pc > maxp ? pc : maxp;
    }
    s.model = malloc((16 * s.n + 1) * sizeof(float));
    s.palette = malloc(16 * maxp * sizeof(float));
    s.values = malloc((tendon_clip_value_count(clip) + 1) * sizeof(float));
    s.meshes = calloc(np + 1, sizeof *s.meshes);
    if (!s.model || !s.palette || !s.values || !s.meshes ||
        tendon_pose_create(s.n, &s.pose) != TENDON_OK) {
        cli_error("sample", "out of memory");
        rc = CLI_USAGE;
        goto out;
    }
    json_t *result = nt > 1 ? json_array() : NULL, *one = NULL;
    const size_t rounds = nt ? nt : 1;
    for (size_t r = 0; r < rounds && rc == CLI_OK; ++r) {
        if (tendon_skeleton_rest_pose(s.sk, &s.pose) != TENDON_OK ||
            (clip && tendon_clip_sample(clip, times[r], &s.pose) != TENDON_OK) ||
            tendon_pose_model_matrices(s.sk, &s.pose, NULL, s.model) != TENDON_OK) {
            rc = fail("sampling");
            break;
        }
        rc = emit(&s, clip, anim, nt ? times[r] : 0.0, clip != NULL, probes, np, &one);
        if (rc == CLI_OK) {
            if (result)
                json_array_append_new(result, one);
            else
                result = one;
        }
    }
    if (rc == CLI_OK) {
        jx_write(stdout, result);
        fputc('\n', stdout);
    }
    json_decref(result);
out:
    for (size_t p = 0; s.meshes && p < np; ++p)
        tendon_skin_mesh_destroy(s.meshes[p]);
    free(s.meshes);
    tendon_pose_destroy(&s.pose);
    free(s.model);
    free(s.palette);
    free(s.values);
    tendon_gltf_destroy(s.g);
    free(times);
    free(probes);
    return rc;
}
