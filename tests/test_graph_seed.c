/*
 * The seed's state-machine cases (tests/data/seed/stateMachine.json, computed by the seed's
 * stateMachine.ts in node 20) and the stateMachine refusals of errors.json, replayed against
 * tendon_state_machine over tendon_blend_tree.
 *
 * Stand-in trees (tests/data/CASES-README.md): {kind: "pose", pose, rate?, writes?} is a blend
 * tree whose root is one pose source writing pose.translation + rate·time (in double, rounded
 * once to float32, as the seed's Float32Array store does) — or the pose as is — into the
 * channels in `writes` (default all three), leaving the others as they were. Predicates:
 * "always", "never", {parameter, op, value} with a parameter never set comparing false except
 * under "!=". One caller-owned out pose, created at rest, persists across the script.
 *
 * Compared after every step: `current` and `transitioning` exactly; the seed's private state
 * (`internal`: leaving, fadeElapsed, fadeDuration, elapsed per state) exactly, as doubles — they
 * are sums of the same steps in the same order; after `evaluate`, the pose: translation and
 * scale bit-exact (lerps in double, one rounding), rotation bit-exact or one float32 ulp (the
 * tolerance of blend: the seed's slerp uses V8's acos/sin/hypot, tendon its own). The counts
 * of exact and 1-ulp components are printed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "support.h"

static json_t *load_cases(const char *relative)
{
    size_t size = 0;
    char *text = read_test_file(relative, &size);
    json_error_t err;
    json_t *root = json_loadb(text, size, JSON_DECODE_INT_AS_REAL, &err);
    free(text);
    ck_assert_msg(root != NULL, "%s: JSON error line %d: %s", relative, err.line, err.text);
    ck_assert_msg(json_is_array(root), "%s: not an array", relative);
    return root;
}

/* ---- stand-ins ------------------------------------------------------------------------------ */

enum { W_T = 1, W_R = 2, W_S = 4 };

typedef struct standin {
    size_t n;
    float *t, *r, *s;
    double *rate; /* [3n] or NULL */
    int writes;
} standin;

static void standin_sample(void *user, double time, tendon_pose *out)
{
    const standin *st = user;
    if (st->writes & W_T)
        for (size_t i = 0; i < 3 * st->n; ++i)
            out->translation[i] =
                st->rate ? (float)((double)st->t[i] + st->rate[i] * time) : st->t[i];
    if (st->writes & W_R)
        memcpy(out->rotation, st->r, 4 * st->n * sizeof(float));
    if (st->writes & W_S)
        memcpy(out->scale, st->s, 3 * st->n * sizeof(float));
}

typedef struct predicate {
    enum { P_ALWAYS, P_NEVER, P_CMP } kind;
    const char *parameter;
    char op[3];
    double value;
} predicate;

static int predicate_eval(void *user, const tendon_parameters *params)
{
    const predicate *p = user;
    if (p->kind != P_CMP)
        return p->kind == P_ALWAYS;
    double v;
    if (!tendon_parameters_get(params, p->parameter, &v))
        return strcmp(p->op, "!=") == 0; /* undefined compares false, except under != */
    if (!strcmp(p->op, "<")) return v < p->value;
    if (!strcmp(p->op, "<=")) return v <= p->value;
    if (!strcmp(p->op, ">")) return v > p->value;
    if (!strcmp(p->op, ">=")) return v >= p->value;
    if (!strcmp(p->op, "==")) return v == p->value;
    if (!strcmp(p->op, "!=")) return v != p->value;
    ck_abort_msg("unknown predicate op %s", p->op);
    return 0;
}

static void floats_of(const json_t *arr, size_t n, float *dst, const char *id, const char *what)
{
    ck_assert_msg(json_is_array(arr) && json_array_size(arr) == n,
                  "%s: %s should hold %zu numbers", id, what, n);
    for (size_t i = 0; i < n; ++i) {
        const json_t *v = json_array_get(arr, i);
        ck_assert_msg(json_is_real(v), "%s: %s[%zu] is not a number", id, what, i);
        dst[i] = (float)json_real_value(v);
    }
}

static void read_pose(const json_t *obj, size_t n, tendon_pose *p, const char *id,
                      const char *what)
{
    ck_assert_int_eq(tendon_pose_create(n, p), TENDON_OK);
    floats_of(json_object_get(obj, "translation"), 3 * n, p->translation, id, what);
    floats_of(json_object_get(obj, "rotation"), 4 * n, p->rotation, id, what);
    floats_of(json_object_get(obj, "scale"), 3 * n, p->scale, id, what);
}

/* Everything a case builds, so it can be freed at the end. */
typedef struct sm_case {
    size_t state_count, transition_count, n;
    standin *standins;
    tendon_pose *poses;
    tendon_blend_tree **trees;
    tendon_state_desc *states;
    predicate *preds;
    tendon_transition_desc *transitions;
    tendon_pose bind;
    int has_bind;
} sm_case;

static void sm_case_build(const json_t *c, sm_case *k, const char *id)
{
    memset(k, 0, sizeof *k);
    k->n = (size_t)json_real_value(json_object_get(c, "jointCount"));
    const json_t *states = json_object_get(c, "states");
    const json_t *trans = json_object_get(c, "transitions");
    k->state_count = json_array_size(states);
    k->transition_count = json_array_size(trans);
    k->standins = calloc(k->state_count + 1, sizeof *k->standins);
    k->poses = calloc(k->state_count + 1, sizeof *k->poses);
    k->trees = calloc(k->state_count + 1, sizeof *k->trees);
    k->states = calloc(k->state_count + 1, sizeof *k->states);
    k->preds = calloc(k->transition_count + 1, sizeof *k->preds);
    k->transitions = calloc(k->transition_count + 1, sizeof *k->transitions);
    const json_t *bind = json_object_get(c, "bind");
    if (bind && !json_is_null(bind)) {
        read_pose(bind, k->n, &k->bind, id, "bind");
        k->has_bind = 1;
    }
    for (size_t i = 0; i < k->state_count; ++i) {
        const json_t *s = json_array_get(states, i);
        const json_t *tree = json_object_get(s, "tree");
        ck_assert_str_eq(json_string_value(json_object_get(tree, "kind")), "pose");
        read_pose(json_object_get(tree, "pose"), k->n, &k->poses[i], id, "tree.pose");
        standin *st = &k->standins[i];
        st->n = k->n;
        st->t = k->poses[i].translation;
        st->r = k->poses[i].rotation;
        st->s = k->poses[i].scale;
        const json_t *rate = json_object_get(tree, "rate");
        if (rate && !json_is_null(rate)) {
            ck_assert_uint_eq(json_array_size(rate), 3 * k->n);
            st->rate = malloc(3 * k->n * sizeof(double));
            for (size_t j = 0; j < 3 * k->n; ++j)
                st->rate[j] = json_real_value(json_array_get(rate, j));
        }
        const json_t *writes = json_object_get(tree, "writes");
        if (writes && !json_is_null(writes)) {
            for (size_t j = 0; j < json_array_size(writes); ++j) {
                const char *w = json_string_value(json_array_get(writes, j));
                st->writes |= !strcmp(w, "translation") ? W_T : !strcmp(w, "rotation") ? W_R
                                                                                       : W_S;
            }
        } else {
            st->writes = W_T | W_R | W_S;
        }
        tendon_blend_node node = {.kind = TENDON_BLEND_SOURCE, .sample = standin_sample,
                                  .user = st};
        tendon_blend_tree_desc td = {.nodes = &node, .node_count = 1, .root = 0,
                                     .joint_count = k->n,
                                     .bind = k->has_bind ? &k->bind : NULL};
        ck_assert_msg(tendon_blend_tree_create(&td, &k->trees[i]) == TENDON_OK, "%s: %s", id,
                      tendon_error_message());
        k->states[i].name = json_string_value(json_object_get(s, "name"));
        k->states[i].tree = k->trees[i];
    }
    for (size_t i = 0; i < k->transition_count; ++i) {
        const json_t *t = json_array_get(trans, i);
        const json_t *when = json_object_get(t, "when");
        predicate *p = &k->preds[i];
        if (json_is_string(when)) {
            p->kind = !strcmp(json_string_value(when), "always") ? P_ALWAYS : P_NEVER;
        } else {
            p->kind = P_CMP;
            p->parameter = json_string_value(json_object_get(when, "parameter"));
            snprintf(p->op, sizeof p->op, "%s", json_string_value(json_object_get(when, "op")));
            p->value = json_real_value(json_object_get(when, "value"));
        }
        k->transitions[i] = (tendon_transition_desc){
            .from = json_string_value(json_object_get(t, "from")),
            .to = json_string_value(json_object_get(t, "to")),
            .duration_sec = json_real_value(json_object_get(t, "durationSec")),
            .when = predicate_eval,
            .user = p};
    }
}

static void sm_case_free(sm_case *k)
{
    for (size_t i = 0; i < k->state_count; ++i) {
        tendon_blend_tree_destroy(k->trees[i]);
        tendon_pose_destroy(&k->poses[i]);
        free(k->standins[i].rate);
    }
    if (k->has_bind)
        tendon_pose_destroy(&k->bind);
    free(k->standins);
    free(k->poses);
    free(k->trees);
    free(k->states);
    free(k->preds);
    free(k->transitions);
}

static tendon_status sm_create(sm_case *k, tendon_state_machine **m)
{
    tendon_state_machine_desc d = {.states = k->states, .state_count = k->state_count,
                                   .transitions = k->transitions,
                                   .transition_count = k->transition_count,
                                   .joint_count = k->n, .bind = k->has_bind ? &k->bind : NULL};
    return tendon_state_machine_create(&d, m);
}

/* ---- the replay ----------------------------------------------------------------------------- */

static size_t g_exact, g_ulp1, g_internal, g_steps;

static void compare_floats(const json_t *arr, const float *got, size_t n, int allow_ulp,
                           const char *id, size_t step, const char *what)
{
    ck_assert_msg(json_is_array(arr) && json_array_size(arr) == n, "%s step %zu: %s size", id,
                  step, what);
    for (size_t i = 0; i < n; ++i) {
        const float want = (float)json_real_value(json_array_get(arr, i));
        if (float_bits(want) == float_bits(got[i])) {
            ++g_exact;
            continue;
        }
        const int64_t d = float_ulp_distance(want, got[i]);
        ck_assert_msg(allow_ulp && d == 1,
                      "%s step %zu: %s[%zu] = %a (0x%08x), the seed's %a (0x%08x); %s", id, step,
                      what, i, (double)got[i], float_bits(got[i]), (double)want,
                      float_bits(want),
                      allow_ulp ? "more than one float32 ulp apart" : "must be bit-exact");
        ++g_ulp1;
    }
}

static void replay_case(const json_t *c)
{
    const char *id = json_string_value(json_object_get(c, "id"));
    sm_case k;
    sm_case_build(c, &k, id);
    tendon_state_machine *m = NULL;
    ck_assert_msg(sm_create(&k, &m) == TENDON_OK, "%s: %s", id, tendon_error_message());
    tendon_pose out;
    ck_assert_int_eq(tendon_pose_create(k.n, &out), TENDON_OK);
    const json_t *script = json_object_get(c, "script");
    const json_t *trace = json_object_get(json_object_get(c, "expected"), "trace");
    ck_assert_uint_eq(json_array_size(script), json_array_size(trace));
    for (size_t i = 0; i < json_array_size(script); ++i) {
        const json_t *step = json_array_get(script, i), *want = json_array_get(trace, i);
        const char *what = json_string_value(json_object_get(step, "do"));
        ++g_steps;
        if (!strcmp(what, "set")) {
            ck_assert_int_eq(
                tendon_state_machine_set(m, json_string_value(json_object_get(step, "parameter")),
                                         json_real_value(json_object_get(step, "value"))),
                TENDON_OK);
            ck_assert_uint_eq(json_object_size(want), 0);
            continue;
        }
        if (!strcmp(what, "advance"))
            ck_assert_msg(tendon_state_machine_advance(
                              m, json_real_value(json_object_get(step, "dt"))) == TENDON_OK,
                          "%s step %zu: %s", id, i, tendon_error_message());
        else
            ck_assert_msg(tendon_state_machine_evaluate(m, &out) == TENDON_OK,
                          "%s step %zu: %s", id, i, tendon_error_message());
        tendon_state_machine_info info;
        ck_assert_int_eq(tendon_state_machine_get_info(m, &info), TENDON_OK);
        ck_assert_msg(!strcmp(info.current, json_string_value(json_object_get(want, "current"))),
                      "%s step %zu: current is %s, the seed's %s", id, i, info.current,
                      json_string_value(json_object_get(want, "current")));
        ck_assert_msg(info.transitioning == json_is_true(json_object_get(want, "transitioning")),
                      "%s step %zu: transitioning %d", id, i, info.transitioning);
        const json_t *internal = json_object_get(want, "internal");
        if (internal) {
            const json_t *lv = json_object_get(internal, "leaving");
            ck_assert_msg(json_is_null(lv) ? info.leaving == NULL
                                           : info.leaving &&
                                                 !strcmp(info.leaving, json_string_value(lv)),
                          "%s step %zu: leaving %s", id, i, info.leaving ? info.leaving : "null");
            ck_assert_msg(info.fade_elapsed_sec ==
                                  json_real_value(json_object_get(internal, "fadeElapsed")) &&
                              info.fade_duration_sec ==
                                  json_real_value(json_object_get(internal, "fadeDuration")),
                          "%s step %zu: fade %.17g / %.17g, the seed's %.17g / %.17g", id, i,
                          info.fade_elapsed_sec, info.fade_duration_sec,
                          json_real_value(json_object_get(internal, "fadeElapsed")),
                          json_real_value(json_object_get(internal, "fadeDuration")));
            const char *name;
            json_t *sec;
            json_object_foreach(json_object_get(internal, "elapsed"), name, sec)
            {
                double got;
                ck_assert_int_eq(tendon_state_machine_state_time(m, name, &got), TENDON_OK);
                ck_assert_msg(got == json_real_value(sec),
                              "%s step %zu: state %s's clock %.17g, the seed's %.17g", id, i,
                              name, got, json_real_value(sec));
                ++g_internal;
            }
        }
        const json_t *pose = json_object_get(want, "out");
        if (pose) {
            compare_floats(json_object_get(pose, "translation"), out.translation, 3 * k.n, 0, id,
                           i, "translation");
            compare_floats(json_object_get(pose, "rotation"), out.rotation, 4 * k.n, 1, id, i,
                           "rotation");
            compare_floats(json_object_get(pose, "scale"), out.scale, 3 * k.n, 0, id, i,
                           "scale");
        }
    }
    tendon_pose_destroy(&out);
    tendon_state_machine_destroy(m);
    sm_case_free(&k);
}

START_TEST(test_state_machine_cases)
{
    json_t *root = load_cases("seed/stateMachine.json");
    size_t cases = 0;
    for (size_t i = 0; i < json_array_size(root); ++i) {
        const json_t *c = json_array_get(root, i);
        ck_assert_str_eq(json_string_value(json_object_get(c, "op")), "stateMachine");
        ck_assert_msg(json_object_get(json_object_get(c, "expected"), "trace") != NULL,
                      "%s: expected has no trace", json_string_value(json_object_get(c, "id")));
        replay_case(c);
        ++cases;
    }
    printf("stateMachine.json: %zu cases, %zu steps; pose components bit-exact %zu, one ulp "
           "(rotation) %zu; state clocks matched %zu\n",
           cases, g_steps, g_exact, g_ulp1, g_internal);
    fflush(stdout);
    ck_assert_uint_eq(cases, 15);
    json_decref(root);
}
END_TEST

START_TEST(test_state_machine_errors)
{
    json_t *root = load_cases("seed/errors.json");
    size_t refused = 0;
    for (size_t i = 0; i < json_array_size(root); ++i) {
        const json_t *c = json_array_get(root, i);
        if (strcmp(json_string_value(json_object_get(c, "op")), "stateMachine") != 0)
            continue;
        const char *id = json_string_value(json_object_get(c, "id"));
        const char *want = json_string_value(json_object_get(json_object_get(c, "expected"),
                                                             "error"));
        ck_assert_ptr_nonnull(want);
        sm_case k;
        sm_case_build(c, &k, id);
        tendon_state_machine *m = (tendon_state_machine *)&k; /* must be reset to NULL */
        tendon_status s = sm_create(&k, &m);
        /* The seed names the missing state between quotes: the same name must be in ours. */
        const char *q1 = strchr(want, '"'), *q2 = q1 ? strchr(q1 + 1, '"') : NULL;
        ck_assert_ptr_nonnull(q2);
        char quoted[96];
        snprintf(quoted, sizeof quoted, "%.*s", (int)(q2 - q1 + 1), q1);
        printf("%s: seed \"%s\"; tendon %s \"%s\"\n", id, want, tendon_status_name(s),
               tendon_error_message());
        ck_assert_int_eq(s, TENDON_ERR_NOT_FOUND);
        ck_assert_ptr_null(m);
        ck_assert_msg(strstr(tendon_error_message(), quoted) &&
                          strstr(tendon_error_message(), "which was not given"),
                      "%s: message \"%s\" does not name %s", id, tendon_error_message(), quoted);
        sm_case_free(&k);
        ++refused;
    }
    ck_assert_uint_eq(refused, 2);
    json_decref(root);
}
END_TEST

/* First: under TENDON_ISA=<isa> (ctest registers this suite once per ISA), that ISA is the
 * active one — so the crossfades below really ran on it. */
START_TEST(test_active_isa)
{
    tendon_isa active;
    ck_assert_int_eq(tendon_isa_active(&active), TENDON_OK);
    const char *env = getenv("TENDON_ISA");
    tendon_isa requested;
    if (env && *env && tendon_isa_from_name(env, &requested) == TENDON_OK)
        ck_assert_msg(active == requested, "TENDON_ISA=%s but the active ISA is %s", env,
                      tendon_isa_name(active));
    printf("state machine crossfades on %s\n", tendon_isa_name(active));
    fflush(stdout);
}
END_TEST

int main(void)
{
    if (env_isa_unusable())
        return 77;
    Suite *s = suite_create("graph_seed");
    TCase *tc = tcase_create("stateMachine");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_active_isa);
    tcase_add_test(tc, test_state_machine_cases);
    tcase_add_test(tc, test_state_machine_errors);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
