/*
 * Example: a locomotion state machine driven by parameters.
 *
 * Two states, each playing a blend tree:
 *   "idle"        Fox.glb's "Survey"
 *   "locomotion"  a 1-D blend space over the parameter "speed": "Walk" at speed 0.5, "Run" at 2
 * and two transitions, read by predicates from the machine's parameters:
 *   idle → locomotion   when speed > 0.1, crossfading over 0.25 s
 *   locomotion → idle   when speed < 0.05, crossfading over 0.5 s
 *
 * Clip nodes clamp at their clip's ends; a looping clip gets its own clock parameter ("walk_t",
 * "run_t", "survey_t"), which the engine sets every frame from the state's time — the tree
 * stays a pure function of its parameters. Everything is on the float32 tier.
 *
 *   at load time:  tendon_blend_tree_create (one per state), tendon_state_machine_create
 *   every frame:   tendon_state_machine_set (the game's inputs), tendon_state_machine_advance,
 *                  the clocks of the active trees, tendon_state_machine_evaluate
 *
 * The frame step is 1/64 s (a power of two: the clocks are exact, so the expected times below
 * are exact too). The script: speed 0 until 0.5 s, 1 until 2 s, then 0; 3 s in all.
 *
 * Usage: state_machine MODEL.glb                    (tests/data/…/Fox.glb)
 *
 * What it checks (exit status 1 if any check fails):
 *   - the machine is in the state the script implies at every frame: the fade to locomotion
 *     starts on the frame speed rises (0.5 s) and ends 0.25 s later, the fade back starts at
 *     2 s and ends 0.5 s later;
 *   - the locomotion state's clock is the time since it was entered;
 *   - mid-fade, the machine's pose is tendon_pose_blend_f32 of the two trees evaluated here
 *     at their own clocks, bit for bit.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tendon/gltf.h>
#include <tendon/tendon.h>

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "state_machine: FAILED: %s\n", what);
        ++failures;
    }
}

#define TRY(call)                                                                              \
    do {                                                                                       \
        tendon_status try_status_ = (call);                                                    \
        if (try_status_ != TENDON_OK) {                                                        \
            fprintf(stderr, "state_machine: %s: %s\n", #call, tendon_error_message());          \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

static const tendon_clip *clip_named(const tendon_gltf *model, const char *name)
{
    size_t index;
    TRY(tendon_gltf_find_animation(model, name, &index));
    return tendon_gltf_animation(model, index);
}

/* The transitions' predicates: the game's rules, over the machine's parameters. */
static int speed_above(void *threshold, const tendon_parameters *parameters)
{
    double speed;
    return tendon_parameters_get(parameters, "speed", &speed) && speed > *(double *)threshold;
}

static int speed_below(void *threshold, const tendon_parameters *parameters)
{
    double speed;
    return tendon_parameters_get(parameters, "speed", &speed) && speed < *(double *)threshold;
}

/* The game's input: the speed the player asks for at time t. */
static double script_speed(double t)
{
    return t >= 0.5 && t < 2.0 ? 1.0 : 0.0;
}

/* Drive the clip clocks of a state's tree from that state's time (looping each clip). */
static void set_clocks(tendon_state_machine *machine, const char *state, tendon_blend_tree *tree,
                       const char *const *clocks, const tendon_clip *const *clips, size_t count)
{
    double state_sec;
    TRY(tendon_state_machine_state_time(machine, state, &state_sec));
    for (size_t i = 0; i < count; ++i)
        TRY(tendon_blend_tree_set(tree, clocks[i], fmod(state_sec, tendon_clip_duration(clips[i]))));
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: state_machine MODEL.glb\n");
        return 2;
    }
    tendon_gltf *model = NULL;
    TRY(tendon_gltf_load(argv[1], &model));
    const tendon_skeleton *skeleton = tendon_gltf_skeleton(model);
    const size_t n = tendon_skeleton_joint_count(skeleton);
    const tendon_clip *survey = clip_named(model, "Survey");
    const tendon_clip *walk = clip_named(model, "Walk");
    const tendon_clip *run = clip_named(model, "Run");

    /* The bind pose: channels a clip does not drive keep it (not zero translations). */
    tendon_pose bind;
    TRY(tendon_pose_create(n, &bind));
    TRY(tendon_skeleton_rest_pose(skeleton, &bind));

    /* ---- the trees ---------------------------------------------------------------------- */
    /* idle: a 1-D node with one child — it writes every channel, from the bind pose up */
    tendon_blend_node idle_nodes[2];
    memset(idle_nodes, 0, sizeof idle_nodes);
    const size_t idle_children[1] = {1};
    const double idle_at[1] = {0.0};
    idle_nodes[0].kind = TENDON_BLEND_ONE_DIMENSIONAL;
    idle_nodes[0].parameter = "speed";
    idle_nodes[0].children = idle_children;
    idle_nodes[0].at = idle_at;
    idle_nodes[0].child_count = 1;
    idle_nodes[1].kind = TENDON_BLEND_CLIP;
    idle_nodes[1].clip = survey;
    idle_nodes[1].clock = "survey_t";

    /* locomotion: walk at speed 0.5, run at speed 2, blended in between */
    tendon_blend_node loco_nodes[3];
    memset(loco_nodes, 0, sizeof loco_nodes);
    const size_t loco_children[2] = {1, 2};
    const double loco_at[2] = {0.5, 2.0};
    loco_nodes[0].kind = TENDON_BLEND_ONE_DIMENSIONAL;
    loco_nodes[0].parameter = "speed";
    loco_nodes[0].children = loco_children;
    loco_nodes[0].at = loco_at;
    loco_nodes[0].child_count = 2;
    loco_nodes[1].kind = TENDON_BLEND_CLIP;
    loco_nodes[1].clip = walk;
    loco_nodes[1].clock = "walk_t";
    loco_nodes[2].kind = TENDON_BLEND_CLIP;
    loco_nodes[2].clip = run;
    loco_nodes[2].clock = "run_t";

    tendon_blend_tree_desc tree_desc;
    memset(&tree_desc, 0, sizeof tree_desc);
    tree_desc.joint_count = n;
    tree_desc.bind = &bind;
    tree_desc.tier = TENDON_TIER_F32;
    tendon_blend_tree *idle = NULL, *loco = NULL;
    tree_desc.nodes = idle_nodes;
    tree_desc.node_count = 2;
    TRY(tendon_blend_tree_create(&tree_desc, &idle));
    tree_desc.nodes = loco_nodes;
    tree_desc.node_count = 3;
    TRY(tendon_blend_tree_create(&tree_desc, &loco));

    /* ---- the machine -------------------------------------------------------------------- */
    double start_above = 0.1, stop_below = 0.05;
    const tendon_state_desc states[2] = {{"idle", idle}, {"locomotion", loco}};
    const tendon_transition_desc transitions[2] = {
        {"idle", "locomotion", 0.25, speed_above, &start_above},
        {"locomotion", "idle", 0.5, speed_below, &stop_below},
    };
    tendon_state_machine_desc machine_desc;
    memset(&machine_desc, 0, sizeof machine_desc);
    machine_desc.states = states;
    machine_desc.state_count = 2;
    machine_desc.transitions = transitions;
    machine_desc.transition_count = 2;
    machine_desc.joint_count = n;
    machine_desc.bind = &bind;
    machine_desc.tier = TENDON_TIER_F32;
    tendon_state_machine *machine = NULL;
    TRY(tendon_state_machine_create(&machine_desc, &machine));

    const char *const idle_clocks[1] = {"survey_t"};
    const tendon_clip *const idle_clips[1] = {survey};
    const char *const loco_clocks[2] = {"walk_t", "run_t"};
    const tendon_clip *const loco_clips[2] = {walk, run};

    tendon_pose pose, from, to, expect;
    TRY(tendon_pose_create(n, &pose));
    TRY(tendon_pose_create(n, &from));
    TRY(tendon_pose_create(n, &to));
    TRY(tendon_pose_create(n, &expect));

    /* ---- play --------------------------------------------------------------------------- */
    const double dt = 1.0 / 64.0;
    const int frames = 192; /* 3 s */
    int mid_fade_checks = 0;
    double entered_loco = -1, entered_idle = -1, loco_settled = -1, idle_settled = -1;
    for (int frame = 0; frame < frames; ++frame) {
        const double t = frame * dt; /* the time at the start of this frame's step */
        const double speed = script_speed(t);
        TRY(tendon_state_machine_set(machine, "speed", speed));
        TRY(tendon_blend_tree_set(idle, "speed", speed));
        TRY(tendon_blend_tree_set(loco, "speed", speed));
        TRY(tendon_state_machine_advance(machine, dt));
        set_clocks(machine, "idle", idle, idle_clocks, idle_clips, 1);
        set_clocks(machine, "locomotion", loco, loco_clocks, loco_clips, 2);
        TRY(tendon_state_machine_evaluate(machine, &pose));

        tendon_state_machine_info info;
        TRY(tendon_state_machine_get_info(machine, &info));

        /* what the script implies, from the rules written above */
        const char *want_current = t < 0.5 ? "idle" : t < 2.0 ? "locomotion" : "idle";
        /* a fade runs from the step that starts it until the step whose end reaches its
         * duration: that step already ends it */
        const int want_fading = (t >= 0.5 && t + dt < 0.5 + 0.25) ||
                                (t >= 2.0 && t + dt < 2.0 + 0.5);
        check(strcmp(info.current, want_current) == 0, "the active state follows the script");
        check(info.transitioning == want_fading, "fades start and end at the script's times");

        if (strcmp(info.current, "locomotion") == 0) {
            if (entered_loco < 0)
                entered_loco = t;
            if (!info.transitioning && loco_settled < 0)
                loco_settled = t + dt;
            double loco_sec;
            TRY(tendon_state_machine_state_time(machine, "locomotion", &loco_sec));
            check(loco_sec == t + dt - entered_loco, "the locomotion clock counts from entry");
        } else if (entered_loco >= 0) {
            if (entered_idle < 0)
                entered_idle = t;
            if (!info.transitioning && idle_settled < 0)
                idle_settled = t + dt;
        }

        /* mid-fade: the machine blends the leaving tree toward the active one */
        if (info.transitioning) {
            tendon_blend_tree *leaving_tree = strcmp(info.leaving, "idle") == 0 ? idle : loco;
            tendon_blend_tree *active_tree = leaving_tree == idle ? loco : idle;
            TRY(tendon_pose_copy(&bind, &from));
            TRY(tendon_pose_copy(&bind, &to));
            TRY(tendon_blend_tree_evaluate(leaving_tree, 0.0, &from));
            TRY(tendon_blend_tree_evaluate(active_tree, 0.0, &to));
            TRY(tendon_pose_blend_f32(&from, &to, info.fade_elapsed_sec / info.fade_duration_sec,
                                      &expect));
            check(memcmp(expect.rotation, pose.rotation, 16 * n) == 0 &&
                      memcmp(expect.translation, pose.translation, 12 * n) == 0,
                  "mid-fade, the pose is the blend of the two trees");
            ++mid_fade_checks;
        }
    }
    check(entered_loco == 0.5 && loco_settled == 0.75, "idle → locomotion: 0.5 s to 0.75 s");
    check(entered_idle == 2.0 && idle_settled == 2.5, "locomotion → idle: 2 s to 2.5 s");
    check(mid_fade_checks == 15 + 31, "every fade frame was compared");

    printf("state_machine: %zu joints, dt 1/64 s, %d frames\n", n, frames);
    printf("state_machine: idle -> locomotion from %g s, settled at %g s; locomotion -> idle "
           "from %g s, settled at %g s; %d fade frames compared\n", entered_loco, loco_settled,
           entered_idle, idle_settled, mid_fade_checks);
    size_t hip;
    TRY(tendon_skeleton_find_joint(skeleton, "b_Hip_01", &hip));
    printf("state_machine: last frame b_Hip_01 translation (%.9g, %.9g, %.9g)\n",
           pose.translation[3 * hip], pose.translation[3 * hip + 1], pose.translation[3 * hip + 2]);
    printf("state_machine: %s\n", failures ? "FAILED" : "ok");

    tendon_pose_destroy(&expect);
    tendon_pose_destroy(&to);
    tendon_pose_destroy(&from);
    tendon_pose_destroy(&pose);
    tendon_state_machine_destroy(machine);
    tendon_blend_tree_destroy(loco);
    tendon_blend_tree_destroy(idle);
    tendon_pose_destroy(&bind);
    tendon_gltf_destroy(model);
    return failures ? 1 : 0;
}
