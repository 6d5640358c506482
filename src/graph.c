/* The blend tree and the state machine of tendon/graph.h (seeds 000 blendTree.d.ts, 001
 * stateMachine.ts). Above the kernel table: every blend is tendon_pose_blend, or
 * tendon_pose_blend_f32 on the float32 tier (the descriptions' `tier`). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fpenv.h"
#include "common/kernels_internal.h"

/* ---- shared -------------------------------------------------------------------------------- */

static int is_nan(double v) { return v != v; }
static int is_finite(double v) { return v == v && v - v == v - v; }

/* A name's length if it is valid (1..TENDON_GRAPH_NAME_MAX bytes), else 0. */
static size_t name_length(const char *name)
{
    size_t n = 0;
    while (n <= TENDON_GRAPH_NAME_MAX && name[n])
        ++n;
    return n >= 1 && n <= TENDON_GRAPH_NAME_MAX ? n : 0;
}

static tendon_status check_name(const char *fn, const char *what, const char *name)
{
    if (!name)
        return tendon_fail(TENDON_ERR_NULL, "%s: %s is NULL", fn, what);
    if (!name_length(name))
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: %s \"%.80s%s\" must be 1 to %d bytes long", fn, what, name,
                           name[0] ? "…" : "", TENDON_GRAPH_NAME_MAX);
    return TENDON_OK;
}

typedef struct graph_name {
    char text[TENDON_GRAPH_NAME_MAX + 1];
} graph_name;

/*
 * An index of names: open addressing over a power-of-two table of at least twice the most
 * names it will hold, each slot an index into the owner's graph_name array plus one (0: empty),
 * probed linearly from the name's FNV-1a hash. So creating a tree or a machine of n names, and
 * each lookup by name (tendon_blend_tree_set, tendon_state_machine_set…), is O(1) per name
 * instead of a walk over every name.
 */
typedef struct name_index {
    size_t *slot;
    size_t mask;
} name_index;

static size_t name_hash(const char *name)
{
    uint64_t h = 14695981039346656037u; /* FNV-1a, 64-bit */
    for (const unsigned char *p = (const unsigned char *)name; *p; ++p)
        h = (h ^ *p) * 1099511628211u;
    return (size_t)(h ^ (h >> 32));
}

/* Room for `capacity` names; 0 when the table cannot be allocated (or its size overflows). */
static int name_index_init(name_index *x, size_t capacity)
{
    size_t size = 8;
    while (size / 2 < capacity) {
        if (size > SIZE_MAX / 2 / sizeof(size_t))
            return 0;
        size *= 2;
    }
    x->slot = calloc(size, sizeof *x->slot);
    x->mask = size - 1;
    return x->slot != NULL;
}

/* The index of `name` among names[], or −1; with `at`, the empty slot it would go to. */
static long name_index_find(const name_index *x, const graph_name *names, const char *name,
                            size_t *at)
{
    for (size_t i = name_hash(name) & x->mask;; i = (i + 1) & x->mask) {
        const size_t v = x->slot[i];
        if (v == 0) {
            if (at)
                *at = i;
            return -1;
        }
        if (strcmp(names[v - 1].text, name) == 0)
            return (long)(v - 1);
    }
}

/* ---- blend tree ---------------------------------------------------------------------------- */

enum { PARAM_BLEND = 1, PARAM_CLOCK = 2 };

typedef struct tree_node {
    tendon_blend_node_kind kind;
    tendon_pose_sample_fn sample;
    void *user;
    const tendon_clip *clip;
    long param;  /* blend parameter index (lerp, 1-D) or clock index (source; −1: frame clock) */
    size_t a, b; /* lerp */
    size_t first_child, child_count; /* 1-D: into tree->child_index / tree->child_at */
    size_t scratch; /* interior: index of its scratch pair */
} tree_node;

/* The tier's blend and clip sampler (docs/fast-tier.md): every blend and sample a tree or a
   machine makes goes through these. */
static tendon_status tier_blend(tendon_tier tier, const tendon_pose *a, const tendon_pose *b,
                                double t, tendon_pose *out)
{
    return tier == TENDON_TIER_F32 ? tendon_pose_blend_f32(a, b, t, out)
                                   : tendon_pose_blend(a, b, t, out);
}

static tendon_status tier_sample(tendon_tier tier, const tendon_clip *clip, double time_sec,
                                 tendon_pose *pose)
{
    return tier == TENDON_TIER_F32 ? tendon_clip_sample_f32(clip, time_sec, pose)
                                   : tendon_clip_sample(clip, time_sec, pose);
}

static tendon_status check_tier(const char *fn, tendon_tier tier)
{
    if (tier != TENDON_TIER_EXACT && tier != TENDON_TIER_F32)
        return tendon_fail(TENDON_ERR_VALUE, "%s: desc->tier is %d; expected TENDON_TIER_EXACT "
                           "(0) or TENDON_TIER_F32 (1)", fn, (int)tier);
    return TENDON_OK;
}

struct tendon_blend_tree {
    size_t joint_count, node_count, root;
    tendon_tier tier;
    tree_node *nodes;
    size_t *child_index;
    double *child_at;
    size_t param_count;
    graph_name *param_names;
    name_index param_index;
    unsigned char *param_kind;
    double *param_value;
    tendon_pose bind;
    tendon_pose *scratch; /* [2 * interior count] */
    size_t scratch_count;
};

void tendon_blend_tree_destroy(tendon_blend_tree *tree)
{
    if (!tree)
        return;
    for (size_t i = 0; i < tree->scratch_count; ++i)
        tendon_pose_destroy(&tree->scratch[i]);
    tendon_pose_destroy(&tree->bind);
    free(tree->scratch);
    free(tree->nodes);
    free(tree->child_index);
    free(tree->child_at);
    free(tree->param_names);
    free(tree->param_index.slot);
    free(tree->param_kind);
    free(tree->param_value);
    free(tree);
}

size_t tendon_blend_tree_joint_count(const tendon_blend_tree *tree)
{
    return tree ? tree->joint_count : 0;
}

static long tree_find_param(const tendon_blend_tree *tree, const char *name, size_t *at)
{
    return name_index_find(&tree->param_index, tree->param_names, name, at);
}

/* Declare `name` as a parameter of `kind`, refusing one name in both roles. */
static tendon_status tree_declare(tendon_blend_tree *tree, size_t node, const char *role,
                                  const char *name, int kind, long *out)
{
    static const char fn[] = "tendon_blend_tree_create";
    char what[64];
    snprintf(what, sizeof what, "node %zu's %s", node, role);
    tendon_status s = check_name(fn, what, name);
    if (s != TENDON_OK)
        return s;
    size_t at = 0;
    long i = tree_find_param(tree, name, &at);
    if (i >= 0) {
        if (tree->param_kind[i] != kind)
            return tendon_fail(TENDON_ERR_VALUE,
                               "%s: \"%s\" is node %zu's %s but another node uses it as a %s; "
                               "a name is a blend parameter or a clock, never both",
                               fn, name, node, role,
                               tree->param_kind[i] == PARAM_CLOCK ? "clock" : "blend parameter");
        *out = i;
        return TENDON_OK;
    }
    i = (long)tree->param_count++;
    memcpy(tree->param_names[i].text, name, strlen(name) + 1);
    tree->param_index.slot[at] = (size_t)i + 1;
    tree->param_kind[i] = (unsigned char)kind;
    tree->param_value[i] = 0.0;
    *out = i;
    return TENDON_OK;
}

static tendon_status tree_check_child(const tendon_blend_tree_desc *d, size_t node,
                                      const char *what, size_t child, size_t *parent_of)
{
    static const char fn[] = "tendon_blend_tree_create";
    if (child >= d->node_count)
        return tendon_fail(TENDON_ERR_RANGE, "%s: node %zu's %s is node %zu, but there are %zu "
                           "nodes (0..%zu)", fn, node, what, child, d->node_count,
                           d->node_count - 1);
    if (child == d->root)
        return tendon_fail(TENDON_ERR_FORMAT, "%s: node %zu's %s is the root (node %zu); the "
                           "root is no node's child", fn, node, what, child);
    if (parent_of[child] == node)
        return tendon_fail(TENDON_ERR_FORMAT, "%s: node %zu names node %zu as a child twice; "
                           "each node has one place in the tree (share a source by giving two "
                           "nodes the same sample function)", fn, node, child);
    if (parent_of[child] != SIZE_MAX)
        return tendon_fail(TENDON_ERR_FORMAT, "%s: node %zu is a child of both node %zu and "
                           "node %zu; each node has one parent (share a source by giving two "
                           "nodes the same sample function)", fn, child, parent_of[child], node);
    parent_of[child] = node;
    return TENDON_OK;
}

static tendon_status tree_build(const tendon_blend_tree_desc *d, tendon_blend_tree *tree,
                                size_t *parent_of)
{
    static const char fn[] = "tendon_blend_tree_create";
    tendon_status s;
    size_t next_child = 0, interior = 0;
    for (size_t i = 0; i < d->node_count; ++i)
        parent_of[i] = SIZE_MAX;
    for (size_t i = 0; i < d->node_count; ++i) {
        const tendon_blend_node *n = &d->nodes[i];
        tree_node *t = &tree->nodes[i];
        t->kind = n->kind;
        switch (n->kind) {
        case TENDON_BLEND_SOURCE:
            if (!n->sample)
                return tendon_fail(TENDON_ERR_NULL, "%s: node %zu (a source) has no sample "
                                   "function", fn, i);
            t->sample = n->sample;
            t->user = n->user;
            t->param = -1;
            if (n->clock && (s = tree_declare(tree, i, "clock", n->clock, PARAM_CLOCK,
                                              &t->param)) != TENDON_OK)
                return s;
            break;
        case TENDON_BLEND_CLIP:
            if (!n->clip)
                return tendon_fail(TENDON_ERR_NULL, "%s: node %zu (a clip) has no clip", fn, i);
            if (tendon_clip_joint_count(n->clip) != d->joint_count)
                return tendon_fail(TENDON_ERR_COUNT, "%s: node %zu's clip has %zu joints and the "
                                   "tree %zu; they must be equal", fn, i,
                                   tendon_clip_joint_count(n->clip), d->joint_count);
            t->clip = n->clip;
            t->param = -1;
            if (n->clock && (s = tree_declare(tree, i, "clock", n->clock, PARAM_CLOCK,
                                              &t->param)) != TENDON_OK)
                return s;
            break;
        case TENDON_BLEND_LERP:
            if (!n->parameter)
                return tendon_fail(TENDON_ERR_NULL, "%s: node %zu (a lerp) has no parameter",
                                   fn, i);
            if ((s = tree_declare(tree, i, "parameter", n->parameter, PARAM_BLEND,
                                  &t->param)) != TENDON_OK ||
                (s = tree_check_child(d, i, "child a", n->a, parent_of)) != TENDON_OK ||
                (s = tree_check_child(d, i, "child b", n->b, parent_of)) != TENDON_OK)
                return s;
            t->a = n->a;
            t->b = n->b;
            t->scratch = interior++;
            break;
        case TENDON_BLEND_ONE_DIMENSIONAL:
            if (!n->parameter)
                return tendon_fail(TENDON_ERR_NULL, "%s: node %zu (one-dimensional) has no "
                                   "parameter", fn, i);
            if (n->child_count == 0)
                return tendon_fail(TENDON_ERR_RANGE, "%s: node %zu (one-dimensional) has no "
                                   "children; it needs at least one", fn, i);
            if (!n->children || !n->at)
                return tendon_fail(TENDON_ERR_NULL, "%s: node %zu (one-dimensional): %s is "
                                   "NULL", fn, i, !n->children ? "children" : "at");
            if ((s = tree_declare(tree, i, "parameter", n->parameter, PARAM_BLEND,
                                  &t->param)) != TENDON_OK)
                return s;
            t->first_child = next_child;
            t->child_count = n->child_count;
            for (size_t c = 0; c < n->child_count; ++c) {
                char what[48];
                snprintf(what, sizeof what, "children[%zu]", c);
                if ((s = tree_check_child(d, i, what, n->children[c], parent_of)) != TENDON_OK)
                    return s;
                if (!is_finite(n->at[c]))
                    return tendon_fail(TENDON_ERR_VALUE, "%s: node %zu: at[%zu] is %g; "
                                       "positions must be finite", fn, i, c, n->at[c]);
                if (c > 0 && !(n->at[c] > n->at[c - 1]))
                    return tendon_fail(TENDON_ERR_VALUE, "%s: node %zu: at[%zu] = %.17g does "
                                       "not exceed at[%zu] = %.17g; positions must be strictly "
                                       "increasing", fn, i, c, n->at[c], c - 1, n->at[c - 1]);
                /* the weight between two neighbours divides by their gap: an infinite one
                   (finite positions more than DBL_MAX apart) would make it ∞/∞, a NaN pose */
                if (c > 0 && !is_finite(n->at[c] - n->at[c - 1]))
                    return tendon_fail(TENDON_ERR_VALUE, "%s: node %zu: at[%zu] − at[%zu] = "
                                       "%.17g − %.17g overflows; neighbouring positions must be "
                                       "at most DBL_MAX apart", fn, i, c, c - 1, n->at[c],
                                       n->at[c - 1]);
                tree->child_index[next_child] = n->children[c];
                tree->child_at[next_child] = n->at[c];
                ++next_child;
            }
            t->scratch = interior++;
            break;
        default:
            return tendon_fail(TENDON_ERR_VALUE, "%s: node %zu has kind %d; expected "
                               "TENDON_BLEND_SOURCE, _LERP, _ONE_DIMENSIONAL or _CLIP", fn, i,
                               (int)n->kind);
        }
    }
    /* Every non-root node has exactly one parent — all of them checked before any walk, since
     * a walk up from one node may pass through another that has none (parent_of SIZE_MAX).
     * Then the walk up from each must reach the root within node_count steps (else it is on a
     * cycle cut off from the root); every index it follows is a checked parent. */
    for (size_t i = 0; i < d->node_count; ++i)
        if (i != d->root && parent_of[i] == SIZE_MAX)
            return tendon_fail(TENDON_ERR_FORMAT, "%s: node %zu is nobody's child and not the "
                               "root (node %zu); every node must be reachable from the root",
                               fn, i, d->root);
    for (size_t i = 0; i < d->node_count; ++i) {
        if (i == d->root)
            continue;
        size_t up = i, steps = 0;
        while (up != d->root && steps <= d->node_count) {
            up = parent_of[up];
            ++steps;
        }
        if (up != d->root)
            return tendon_fail(TENDON_ERR_FORMAT, "%s: node %zu is on a cycle that the root "
                               "(node %zu) does not reach", fn, i, d->root);
        if (steps > TENDON_BLEND_TREE_MAX_DEPTH)
            return tendon_fail(TENDON_ERR_RANGE, "%s: node %zu is %zu levels below the root; "
                               "a tree is at most %d deep (evaluation recurses once per level)",
                               fn, i, steps, TENDON_BLEND_TREE_MAX_DEPTH);
    }
    if (interior) {
        tree->scratch = calloc(2 * interior, sizeof *tree->scratch);
        if (!tree->scratch)
            return tendon_fail(TENDON_ERR_NOMEM, "%s: cannot allocate scratch poses", fn);
        /* counted only once the array is there: destroy walks scratch_count of them */
        tree->scratch_count = 2 * interior;
        for (size_t k = 0; k < 2 * interior; ++k)
            if ((s = tendon_pose_create(d->joint_count, &tree->scratch[k])) != TENDON_OK)
                return s;
    }
    return TENDON_OK;
}

tendon_status tendon_blend_tree_create(const tendon_blend_tree_desc *desc, tendon_blend_tree **out)
{
    TENDON_FPENV_GUARD_OUT(out); /* a refusal sets *out to NULL too */
    static const char fn[] = "tendon_blend_tree_create";
    if (!out)
        return tendon_fail(TENDON_ERR_NULL, "%s: out is NULL", fn);
    *out = NULL;
    if (!desc)
        return tendon_fail(TENDON_ERR_NULL, "%s: desc is NULL", fn);
    if (desc->node_count == 0)
        return tendon_fail(TENDON_ERR_RANGE, "%s: node_count is 0; a tree needs a root", fn);
    if (!desc->nodes)
        return tendon_fail(TENDON_ERR_NULL, "%s: desc->nodes is NULL", fn);
    if (desc->root >= desc->node_count)
        return tendon_fail(TENDON_ERR_RANGE, "%s: root is node %zu, but there are %zu nodes "
                           "(0..%zu)", fn, desc->root, desc->node_count, desc->node_count - 1);
    tendon_status s;
    if ((s = check_tier(fn, desc->tier)) != TENDON_OK)
        return s;
    if (desc->bind) {
        if ((s = tendon_check_pose(fn, "bind", desc->bind)) != TENDON_OK)
            return s;
        if (desc->bind->joint_count != desc->joint_count)
            return tendon_fail(TENDON_ERR_COUNT, "%s: the bind pose has %zu joints and the tree "
                               "%zu; they must be equal", fn, desc->bind->joint_count,
                               desc->joint_count);
    }
    const size_t n = desc->node_count;
    size_t children = 0;
    for (size_t i = 0; i < n; ++i)
        if (desc->nodes[i].kind == TENDON_BLEND_ONE_DIMENSIONAL) {
            if (desc->nodes[i].child_count > SIZE_MAX / sizeof(double) - children)
                return tendon_fail(TENDON_ERR_OVERFLOW, "%s: node %zu's child_count %zu "
                                   "overflows", fn, i, desc->nodes[i].child_count);
            children += desc->nodes[i].child_count;
        }
    if (n > SIZE_MAX / sizeof(tree_node) / 2)
        return tendon_fail(TENDON_ERR_OVERFLOW, "%s: node_count %zu overflows", fn, n);

    tendon_blend_tree *tree = calloc(1, sizeof *tree);
    size_t *parent_of = malloc(n * sizeof *parent_of);
    if (tree) {
        tree->joint_count = desc->joint_count;
        tree->tier = desc->tier;
        tree->node_count = n;
        tree->root = desc->root;
        tree->nodes = calloc(n, sizeof *tree->nodes);
        tree->child_index = malloc((children ? children : 1) * sizeof(size_t));
        tree->child_at = malloc((children ? children : 1) * sizeof(double));
        tree->param_names = calloc(n, sizeof *tree->param_names); /* ≤ one name per node */
        tree->param_kind = calloc(n, 1);
        tree->param_value = calloc(n, sizeof(double));
    }
    if (!tree || !parent_of || !tree->nodes || !tree->child_index || !tree->child_at ||
        !tree->param_names || !tree->param_kind || !tree->param_value ||
        !name_index_init(&tree->param_index, n)) {
        free(parent_of);
        tendon_blend_tree_destroy(tree);
        return tendon_fail(TENDON_ERR_NOMEM, "%s: cannot allocate a tree of %zu nodes", fn, n);
    }
    s = tree_build(desc, tree, parent_of);
    free(parent_of);
    if (s == TENDON_OK && (s = tendon_pose_create(desc->joint_count, &tree->bind)) == TENDON_OK &&
        desc->bind)
        s = tendon_pose_copy(desc->bind, &tree->bind);
    if (s != TENDON_OK) {
        tendon_blend_tree_destroy(tree);
        return s;
    }
    *out = tree;
    return TENDON_OK;
}

static void list_names(const tendon_blend_tree *tree, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < tree->param_count && used + 1 < size; ++i) {
        int w = snprintf(buf + used, size - used, "%s\"%s\" (%s)", i ? ", " : "",
                         tree->param_names[i].text,
                         tree->param_kind[i] == PARAM_CLOCK ? "clock" : "blend");
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (tree->param_count == 0)
        snprintf(buf, size, "none");
}

static tendon_status tree_lookup(const char *fn, const tendon_blend_tree *tree, const char *name,
                                 long *out)
{
    if (!tree)
        return tendon_fail(TENDON_ERR_NULL, "%s: tree is NULL", fn);
    if (!name)
        return tendon_fail(TENDON_ERR_NULL, "%s: name is NULL", fn);
    long i = tree_find_param(tree, name, NULL);
    if (i < 0) {
        char names[320];
        list_names(tree, names, sizeof names);
        return tendon_fail(TENDON_ERR_NOT_FOUND, "%s: no node declares a parameter \"%.64s\"; "
                           "the tree declares: %s", fn, name, names);
    }
    *out = i;
    return TENDON_OK;
}

tendon_status tendon_blend_tree_set(tendon_blend_tree *tree, const char *name, double value)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_blend_tree_set";
    long i;
    tendon_status s = tree_lookup(fn, tree, name, &i);
    if (s != TENDON_OK)
        return s;
    if (is_nan(value))
        return tendon_fail(TENDON_ERR_VALUE, "%s: \"%s\" set to NaN; a parameter must be a "
                           "number (NaN would make every joint NaN)", fn, name);
    tree->param_value[i] = value;
    return TENDON_OK;
}

tendon_status tendon_blend_tree_get(const tendon_blend_tree *tree, const char *name, double *out)
{
    static const char fn[] = "tendon_blend_tree_get";
    long i;
    tendon_status s = tree_lookup(fn, tree, name, &i);
    if (s != TENDON_OK)
        return s;
    if (!out)
        return tendon_fail(TENDON_ERR_NULL, "%s: out is NULL", fn);
    *out = tree->param_value[i];
    return TENDON_OK;
}

size_t tendon_blend_tree_parameter_count(const tendon_blend_tree *tree)
{
    return tree ? tree->param_count : 0;
}

const char *tendon_blend_tree_parameter_name(const tendon_blend_tree *tree, size_t index,
                                             int *is_clock)
{
    if (!tree || index >= tree->param_count)
        return NULL;
    if (is_clock)
        *is_clock = tree->param_kind[index] == PARAM_CLOCK;
    return tree->param_names[index].text;
}

/* Reset a scratch pose to the bind pose (the tree's own poses: no validation needed). */
static void reset_to_bind(const tendon_blend_tree *tree, tendon_pose *p)
{
    const size_t n = tree->joint_count;
    memcpy(p->translation, tree->bind.translation, 3 * n * sizeof(float));
    memcpy(p->rotation, tree->bind.rotation, 4 * n * sizeof(float));
    memcpy(p->scale, tree->bind.scale, 3 * n * sizeof(float));
}

static tendon_status tree_walk(tendon_blend_tree *tree, size_t index, double time_sec,
                               tendon_pose *target, const tendon_fpenv *env)
{
    const tree_node *n = &tree->nodes[index];
    tendon_status s;
    if (n->kind == TENDON_BLEND_CLIP)
        return tier_sample(tree->tier, n->clip,
                           n->param >= 0 ? tree->param_value[n->param] : time_sec, target);
    if (n->kind == TENDON_BLEND_SOURCE) {
        const double at = n->param >= 0 ? tree->param_value[n->param] : time_sec;
        tendon_fpenv_to_caller(env); /* the user's pose source, in the caller's environment */
        n->sample(n->user, at, target);
        tendon_fpenv_from_caller(env);
        return TENDON_OK;
    }
    tendon_pose *pa = &tree->scratch[2 * n->scratch], *pb = &tree->scratch[2 * n->scratch + 1];
    const double v = tree->param_value[n->param];
    if (n->kind == TENDON_BLEND_LERP) {
        reset_to_bind(tree, pa);
        reset_to_bind(tree, pb);
        if ((s = tree_walk(tree, n->a, time_sec, pa, env)) != TENDON_OK ||
            (s = tree_walk(tree, n->b, time_sec, pb, env)) != TENDON_OK)
            return s;
        return tier_blend(tree->tier, pa, pb, v, target);
    }
    /* one-dimensional */
    const size_t *ch = tree->child_index + n->first_child;
    const double *at = tree->child_at + n->first_child;
    const size_t last = n->child_count - 1;
    size_t single = SIZE_MAX, lo = 0;
    if (v <= at[0])
        single = 0;
    else if (v >= at[last])
        single = last;
    else {
        while (!(v < at[lo + 1])) /* at[lo] < v < at[last]: stops at the bracket */
            ++lo;
        if (v == at[lo])
            single = lo;
    }
    reset_to_bind(tree, pa);
    if (single != SIZE_MAX) {
        if ((s = tree_walk(tree, ch[single], time_sec, pa, env)) != TENDON_OK)
            return s;
        return tendon_pose_copy(pa, target);
    }
    reset_to_bind(tree, pb);
    if ((s = tree_walk(tree, ch[lo], time_sec, pa, env)) != TENDON_OK ||
        (s = tree_walk(tree, ch[lo + 1], time_sec, pb, env)) != TENDON_OK)
        return s;
    return tier_blend(tree->tier, pa, pb, (v - at[lo]) / (at[lo + 1] - at[lo]), target);
}

tendon_status tendon_blend_tree_evaluate(tendon_blend_tree *tree, double time_sec,
                                         tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    return tendon_blend_tree_evaluate_env(tree, time_sec, out, TENDON_FPENV_HERE);
}

tendon_status tendon_blend_tree_evaluate_env(tendon_blend_tree *tree, double time_sec,
                                             tendon_pose *out, const tendon_fpenv *env)
{
    static const char fn[] = "tendon_blend_tree_evaluate";
    if (!tree)
        return tendon_fail(TENDON_ERR_NULL, "%s: tree is NULL", fn);
    tendon_status s = tendon_check_pose(fn, "out", out);
    if (s != TENDON_OK)
        return s;
    if (out->joint_count != tree->joint_count)
        return tendon_fail(TENDON_ERR_COUNT, "%s: out has %zu joints and the tree %zu; they "
                           "must be equal", fn, out->joint_count, tree->joint_count);
    for (size_t k = 0; k < tree->scratch_count; ++k)
        if (out->translation == tree->scratch[k].translation)
            return tendon_fail(TENDON_ERR_ALIAS, "%s: out is one of the tree's scratch poses",
                               fn);
    if (time_sec != time_sec) /* refused before any node runs: no key or source takes it */
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: time_sec is NaN: a tree is evaluated at a number of seconds", fn);
    return tree_walk(tree, tree->root, time_sec, out, env);
}

/* ---- state machine ------------------------------------------------------------------------- */

struct tendon_parameters {
    size_t count, capacity;
    graph_name *names;
    name_index index;
    double *values;
};

int tendon_parameters_get(const tendon_parameters *p, const char *name, double *out)
{
    if (!p || !name)
        return 0;
    const long i = name_index_find(&p->index, p->names, name, NULL);
    if (i < 0)
        return 0;
    if (out)
        *out = p->values[i];
    return 1;
}

typedef struct sm_transition {
    size_t from, to;
    double duration_sec;
    tendon_transition_predicate when;
    void *user;
} sm_transition;

struct tendon_state_machine {
    size_t state_count, transition_count, joint_count;
    tendon_tier tier;
    graph_name *state_names;
    name_index state_index;
    tendon_blend_tree **trees;
    double *elapsed;
    sm_transition *transitions;
    size_t active;
    size_t leaving; /* SIZE_MAX: no fade */
    double fade_elapsed, fade_duration;
    tendon_pose from_pose, to_pose;
    tendon_parameters params;
};

void tendon_state_machine_destroy(tendon_state_machine *m)
{
    if (!m)
        return;
    tendon_pose_destroy(&m->from_pose);
    tendon_pose_destroy(&m->to_pose);
    free(m->state_names);
    free(m->state_index.slot);
    free(m->trees);
    free(m->elapsed);
    free(m->transitions);
    free(m->params.names);
    free(m->params.index.slot);
    free(m->params.values);
    free(m);
}

static long sm_find_state(const tendon_state_machine *m, const char *name, size_t *at)
{
    return name_index_find(&m->state_index, m->state_names, name, at);
}

static tendon_status sm_build(const tendon_state_machine_desc *d, tendon_state_machine *m)
{
    static const char fn[] = "tendon_state_machine_create";
    tendon_status s;
    for (size_t i = 0; i < d->state_count; ++i) {
        const tendon_state_desc *st = &d->states[i];
        char what[48];
        snprintf(what, sizeof what, "states[%zu].name", i);
        if ((s = check_name(fn, what, st->name)) != TENDON_OK)
            return s;
        if (!st->tree)
            return tendon_fail(TENDON_ERR_NULL, "%s: state \"%s\" has no tree", fn, st->name);
        if (st->tree->joint_count != d->joint_count)
            return tendon_fail(TENDON_ERR_COUNT, "%s: state \"%s\"'s tree has %zu joints and "
                               "the machine %zu; they must be equal", fn, st->name,
                               st->tree->joint_count, d->joint_count);
        size_t at = 0;
        long dup = sm_find_state(m, st->name, &at);
        if (dup >= 0)
            return tendon_fail(TENDON_ERR_VALUE, "%s: states[%ld] and states[%zu] are both "
                               "named \"%s\"; state names must be unique", fn, dup, i, st->name);
        memcpy(m->state_names[i].text, st->name, strlen(st->name) + 1);
        m->state_index.slot[at] = i + 1;
        m->trees[i] = st->tree;
        m->elapsed[i] = 0.0;
        m->state_count = i + 1;
    }
    for (size_t i = 0; i < d->transition_count; ++i) {
        const tendon_transition_desc *t = &d->transitions[i];
        if (!t->from || !t->to)
            return tendon_fail(TENDON_ERR_NULL, "%s: transitions[%zu].%s is NULL", fn, i,
                               !t->from ? "from" : "to");
        const char *names[2] = {t->from, t->to};
        long idx[2];
        for (int k = 0; k < 2; ++k) {
            idx[k] = sm_find_state(m, names[k], NULL);
            if (idx[k] < 0)
                return tendon_fail(TENDON_ERR_NOT_FOUND, "%s: a transition names state "
                                   "\"%.80s\", which was not given (transitions[%zu].%s)", fn,
                                   names[k], i, k ? "to" : "from");
        }
        if (!is_finite(t->duration_sec))
            return tendon_fail(TENDON_ERR_VALUE, "%s: transitions[%zu] (\"%s\" → \"%s\") has "
                               "duration_sec %g; it must be finite (≤ 0 switches at once)", fn,
                               i, t->from, t->to, t->duration_sec);
        m->transitions[i] = (sm_transition){(size_t)idx[0], (size_t)idx[1], t->duration_sec,
                                            t->when, t->user};
    }
    m->transition_count = d->transition_count;
    if ((s = tendon_pose_create(d->joint_count, &m->from_pose)) != TENDON_OK ||
        (s = tendon_pose_create(d->joint_count, &m->to_pose)) != TENDON_OK)
        return s;
    if (d->bind && ((s = tendon_pose_copy(d->bind, &m->from_pose)) != TENDON_OK ||
                    (s = tendon_pose_copy(d->bind, &m->to_pose)) != TENDON_OK))
        return s;
    return TENDON_OK;
}

tendon_status tendon_state_machine_create(const tendon_state_machine_desc *desc,
                                          tendon_state_machine **out)
{
    TENDON_FPENV_GUARD_OUT(out); /* a refusal sets *out to NULL too */
    static const char fn[] = "tendon_state_machine_create";
    if (!out)
        return tendon_fail(TENDON_ERR_NULL, "%s: out is NULL", fn);
    *out = NULL;
    if (!desc)
        return tendon_fail(TENDON_ERR_NULL, "%s: desc is NULL", fn);
    if (desc->state_count == 0)
        return tendon_fail(TENDON_ERR_COUNT, "%s: needs at least one state (state_count is 0)",
                           fn);
    if (!desc->states)
        return tendon_fail(TENDON_ERR_NULL, "%s: desc->states is NULL", fn);
    if (desc->transition_count && !desc->transitions)
        return tendon_fail(TENDON_ERR_NULL, "%s: desc->transitions is NULL with "
                           "transition_count %zu", fn, desc->transition_count);
    tendon_status s;
    if ((s = check_tier(fn, desc->tier)) != TENDON_OK)
        return s;
    if (desc->bind) {
        if ((s = tendon_check_pose(fn, "bind", desc->bind)) != TENDON_OK)
            return s;
        if (desc->bind->joint_count != desc->joint_count)
            return tendon_fail(TENDON_ERR_COUNT, "%s: the bind pose has %zu joints and the "
                               "machine %zu; they must be equal", fn, desc->bind->joint_count,
                               desc->joint_count);
    }
    const size_t cap = desc->parameter_capacity ? desc->parameter_capacity : 32;
    const size_t big = desc->state_count > cap ? desc->state_count : cap;
    if (big > SIZE_MAX / sizeof(graph_name) ||
        desc->transition_count > SIZE_MAX / sizeof(sm_transition))
        return tendon_fail(TENDON_ERR_OVERFLOW, "%s: a count overflows size_t in bytes", fn);
    tendon_state_machine *m = calloc(1, sizeof *m);
    if (m) {
        m->joint_count = desc->joint_count;
        m->tier = desc->tier;
        m->leaving = SIZE_MAX;
        m->state_names = calloc(desc->state_count, sizeof *m->state_names);
        m->trees = calloc(desc->state_count, sizeof *m->trees);
        m->elapsed = calloc(desc->state_count, sizeof *m->elapsed);
        m->transitions = calloc(desc->transition_count ? desc->transition_count : 1,
                                sizeof *m->transitions);
        m->params.capacity = cap;
        m->params.names = calloc(cap, sizeof *m->params.names);
        m->params.values = calloc(cap, sizeof *m->params.values);
    }
    if (!m || !m->state_names || !m->trees || !m->elapsed || !m->transitions ||
        !m->params.names || !m->params.values ||
        !name_index_init(&m->state_index, desc->state_count) ||
        !name_index_init(&m->params.index, cap)) {
        tendon_state_machine_destroy(m);
        return tendon_fail(TENDON_ERR_NOMEM, "%s: cannot allocate the machine", fn);
    }
    if ((s = sm_build(desc, m)) != TENDON_OK) {
        tendon_state_machine_destroy(m);
        return s;
    }
    m->active = 0;
    *out = m;
    return TENDON_OK;
}

tendon_status tendon_state_machine_set(tendon_state_machine *m, const char *name, double value)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_state_machine_set";
    if (!m)
        return tendon_fail(TENDON_ERR_NULL, "%s: machine is NULL", fn);
    tendon_status s = check_name(fn, "name", name);
    if (s != TENDON_OK)
        return s;
    tendon_parameters *p = &m->params;
    size_t at = 0;
    const long i = name_index_find(&p->index, p->names, name, &at);
    if (i >= 0) {
        p->values[i] = value;
        return TENDON_OK;
    }
    if (p->count == p->capacity)
        return tendon_fail(TENDON_ERR_RANGE, "%s: \"%s\" would be parameter %zu, but the "
                           "machine holds %zu (desc.parameter_capacity)", fn, name,
                           p->count + 1, p->capacity);
    memcpy(p->names[p->count].text, name, strlen(name) + 1);
    p->index.slot[at] = p->count + 1;
    p->values[p->count++] = value;
    return TENDON_OK;
}

const tendon_parameters *tendon_state_machine_parameters(const tendon_state_machine *m)
{
    return m ? &m->params : NULL;
}

/* Take the first transition out of the active state whose condition holds (seed `start`). */
static void sm_start(tendon_state_machine *m, const tendon_fpenv *env)
{
    for (size_t i = 0; i < m->transition_count; ++i) {
        const sm_transition *t = &m->transitions[i];
        if (t->from != m->active)
            continue;
        if (t->when) {
            tendon_fpenv_to_caller(env); /* the user's predicate, in the caller's environment */
            const int go = t->when(t->user, &m->params);
            tendon_fpenv_from_caller(env);
            if (!go)
                continue;
        }
        m->leaving = m->active;
        m->active = t->to;
        m->elapsed[t->to] = 0.0;
        m->fade_elapsed = 0.0;
        m->fade_duration = t->duration_sec;
        /* A zero-duration transition is a switch: ended here, never divided by. */
        if (m->fade_duration <= 0.0)
            m->leaving = SIZE_MAX;
        return;
    }
}

tendon_status tendon_state_machine_advance(tendon_state_machine *m, double dt_sec)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_state_machine_advance";
    if (!m)
        return tendon_fail(TENDON_ERR_NULL, "%s: machine is NULL", fn);
    if (!is_finite(dt_sec))
        return tendon_fail(TENDON_ERR_VALUE, "%s: dt_sec is %g; a step must be finite (a NaN "
                           "or infinite clock never recovers)", fn, dt_sec);
    /* Nor may a finite step take a clock to ±∞ (it would not come back either). Checked before
       anything changes, on the most a clock can gain — twice the step: a self-transition's
       clock is both the active and the leaving one — so a step within a factor of two of the
       largest double may be refused where it would have fitted. */
    const double twice = dt_sec + dt_sec;
    const double a = m->elapsed[m->active] + twice;
    const double l = m->leaving == SIZE_MAX ? 0.0 : m->elapsed[m->leaving] + twice;
    const double f = m->fade_elapsed + dt_sec;
    if (!is_finite(twice) || !is_finite(a) || !is_finite(l) || !is_finite(f))
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: dt_sec is %g and the active state's clock %g: the step could take "
                           "a clock past the largest double; nothing changed",
                           fn, dt_sec, m->elapsed[m->active]);
    if (m->leaving == SIZE_MAX)
        sm_start(m, TENDON_FPENV_HERE);
    m->elapsed[m->active] += dt_sec;
    if (m->leaving == SIZE_MAX)
        return TENDON_OK;
    m->elapsed[m->leaving] += dt_sec;
    /* The frame that triggers a transition advances its fade too (no one-frame stall). */
    m->fade_elapsed += dt_sec;
    /* A running fade completes; it is not re-evaluated against its trigger. */
    if (m->fade_elapsed >= m->fade_duration)
        m->leaving = SIZE_MAX;
    return TENDON_OK;
}

tendon_status tendon_state_machine_evaluate(tendon_state_machine *m, tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_state_machine_evaluate";
    if (!m)
        return tendon_fail(TENDON_ERR_NULL, "%s: machine is NULL", fn);
    tendon_status s = tendon_check_pose(fn, "out", out);
    if (s != TENDON_OK)
        return s;
    if (out->joint_count != m->joint_count)
        return tendon_fail(TENDON_ERR_COUNT, "%s: out has %zu joints and the machine %zu; they "
                           "must be equal", fn, out->joint_count, m->joint_count);
    if (out->translation == m->from_pose.translation || out->translation == m->to_pose.translation)
        return tendon_fail(TENDON_ERR_ALIAS, "%s: out is one of the machine's fade poses", fn);
    const double active_time = m->elapsed[m->active];
    if (m->leaving == SIZE_MAX)
        return tendon_blend_tree_evaluate_env(m->trees[m->active], active_time, out,
                                              TENDON_FPENV_HERE);
    if ((s = tendon_blend_tree_evaluate_env(m->trees[m->leaving], m->elapsed[m->leaving],
                                            &m->from_pose, TENDON_FPENV_HERE)) != TENDON_OK ||
        (s = tendon_blend_tree_evaluate_env(m->trees[m->active], active_time, &m->to_pose,
                                            TENDON_FPENV_HERE)) != TENDON_OK)
        return s;
    return tier_blend(m->tier, &m->from_pose, &m->to_pose, m->fade_elapsed / m->fade_duration,
                      out);
}

tendon_status tendon_state_machine_get_info(const tendon_state_machine *m,
                                            tendon_state_machine_info *out)
{
    if (!m || !out)
        return tendon_fail(TENDON_ERR_NULL, "tendon_state_machine_get_info: %s is NULL",
                           !m ? "machine" : "out");
    out->current = m->state_names[m->active].text;
    out->leaving = m->leaving == SIZE_MAX ? NULL : m->state_names[m->leaving].text;
    out->transitioning = m->leaving != SIZE_MAX;
    out->fade_elapsed_sec = m->fade_elapsed;
    out->fade_duration_sec = m->fade_duration;
    return TENDON_OK;
}

tendon_status tendon_state_machine_state_time(const tendon_state_machine *m, const char *state,
                                              double *out)
{
    static const char fn[] = "tendon_state_machine_state_time";
    if (!m || !state || !out)
        return tendon_fail(TENDON_ERR_NULL, "%s: %s is NULL", fn,
                           !m ? "machine" : !state ? "state" : "out");
    long i = sm_find_state(m, state, NULL);
    if (i < 0)
        return tendon_fail(TENDON_ERR_NOT_FOUND, "%s: no state is named \"%.80s\"", fn, state);
    *out = m->elapsed[i];
    return TENDON_OK;
}
