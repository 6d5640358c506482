/* The operations of fuzz_api.c (included once, by it: one translation unit). */

/* ---- quaternion arrays (quat.h) ----------------------------------------------------------- */

static void op_quat(void)
{
    CURRENT_OP = "quat";
    const size_t n = upto(40);
    float *a = falloc(4 * n), *b = falloc(4 * n), *fresh = falloc(4 * n), *tf = falloc(n);
    double *t = malloc((n + 1) * sizeof *t);
    for (size_t i = 0; i < n; ++i) {
        quat(a + 4 * i);
        quat(b + 4 * i);
        t[i] = u8() % 2 ? (double)u8() / 255.0 : dval();
        tf[i] = (float)t[i];
        if (u8() % 8 == 0)
            tf[i] = fval();
    }
    const int fn = u8() % 6, where = u8() % 6;
    /* where: 0-2 a fresh output, 3 out = a, 4 out = b, 5 out one element into a (refused) */
    float *out = where == 3 ? a : where == 4 ? b : where == 5 && n > 1 ? a + 4 : fresh;
    const int null_a = u8() % 16 == 0 && n > 0;
    const float *in_a = null_a ? NULL : a;
    snap(out == fresh ? fresh : out == b ? b : a, 4 * n * sizeof(float));
    tendon_status st;
    static const char *const NAMES[6] = {"tendon_quat_slerp", "tendon_quat_nlerp",
                                         "tendon_quat_multiply", "tendon_quat_slerp_f32",
                                         "tendon_quat_nlerp_f32", "tendon_quat_multiply_f32"};
    /* the kernels' answers first, from the inputs as they are (every table == scalar) */
    float *ref = falloc(4 * n), *got = falloc(4 * n);
    if (n > 0 && !null_a) {
        for (size_t k = 0; k < table_count; ++k) {
            const tendon_kernels *K = TABLES[k];
            float *dst = k == 0 ? ref : got;
            switch (fn) {
            case 0: K->quat_slerp(a, b, t, n, dst); break;
            case 1: K->quat_nlerp(a, b, t, n, dst); break;
            case 2: K->quat_multiply(a, b, n, dst); break;
            case 3: K->quat_slerp_f32(a, b, tf, n, dst); break;
            case 4: K->quat_nlerp_f32(a, b, tf, n, dst); break;
            default: K->quat_multiply_f32(a, b, n, dst); break;
            }
            if (k > 0 && !same_floats(ref, got, 4 * n))
                fail("kernel %s of %s differs from scalar", NAMES[fn],
                     tendon_isa_name(K->isa));
        }
    }
    switch (fn) {
    case 0: st = tendon_quat_slerp(in_a, b, t, n, out); break;
    case 1: st = tendon_quat_nlerp(in_a, b, t, n, out); break;
    case 2: st = tendon_quat_multiply(in_a, b, n, out); break;
    case 3: st = tendon_quat_slerp_f32(in_a, b, tf, n, out); break;
    case 4: st = tendon_quat_nlerp_f32(in_a, b, tf, n, out); break;
    default: st = tendon_quat_multiply_f32(in_a, b, n, out); break;
    }
    if (settle(st, NAMES[fn])) {
        if (where == 5 && n > 1)
            fail("%s accepted an output one element into an input%s", NAMES[fn], "");
        rec_floats(out, 4 * n);
        if (n > 0 && !same_floats(out, ref, 4 * n))
            fail("%s differs from the scalar kernel on the same input%s", NAMES[fn], "");
    }
    rec_end(NAMES[fn]);
    free(a), free(b), free(fresh), free(tf), free(t), free(ref), free(got);
}

/* ---- poses, blends, layers (pose.h, blend.h, mask.h) ------------------------------------- */

static const char *const POSE_FN[] = {
    "tendon_pose_blend", "tendon_pose_blend_masked", "tendon_pose_add", "tendon_pose_add_masked",
    "tendon_pose_blend_f32", "tendon_pose_blend_masked_f32", "tendon_pose_blend_nlerp_f32",
    "tendon_pose_blend_nlerp_masked_f32", "tendon_pose_add_f32", "tendon_pose_add_masked_f32",
    "tendon_layer_apply", "tendon_layer_apply_f32", "tendon_pose_delta", "tendon_pose_delta_f32",
    "tendon_pose_copy", "tendon_pose_set_identity", "tendon_pose_set_joint",
    "tendon_pose_blend_layers_f32"};
enum { POSE_FN_COUNT = sizeof POSE_FN / sizeof POSE_FN[0] };

static void op_pose(void)
{
    CURRENT_OP = "pose";
    const size_t n = upto(33);
    tendon_pose a = pose_new(n), b = pose_new(n);
    pose_fill(&a);
    pose_fill(&b);
    float *mask = falloc(n);
    for (size_t j = 0; j < n; ++j)
        mask[j] = u8() % 2 ? 1.0f : fval();
    const double t = u8() % 2 ? (double)u8() / 255.0 : dval();
    const int fn = u8() % POSE_FN_COUNT, where = u8() % 8;
    /* where: 0-3 fresh, 4 out = a, 5 out = b, 6 out of another joint count, 7 a partial
     * overlap (out's translation one joint into a's) or a misaligned output */
    const size_t out_n = where == 6 ? (u8() % 2 ? n + 1 : (n ? n - 1 : 1)) : n;
    tendon_pose fresh = pose_new(out_n), out = fresh;
    float *misaligned = NULL;
    int bad_out = 0; /* an output every call must refuse */
    if (where == 4)
        out = a;
    else if (where == 5)
        out = b;
    else if (where == 7 && n > 1 && fn != 15 && fn != 16 && u8() % 2)
        out.translation = a.translation + 3, bad_out = 1; /* (set_identity, set_joint: no input) */
    else if (where == 7 && n > 0) {
        misaligned = falloc(4 * n + 1);
        out.rotation = (float *)(void *)((char *)misaligned + 2);
        bad_out = 1;
    }
    snap_pose(&fresh);
    if (where == 4 || where == 7)
        snap_pose(&a);
    if (where == 5)
        snap_pose(&b);
    if (misaligned)
        snap(misaligned, (4 * n + 1) * sizeof(float));

    tendon_status st;
    const tendon_mask_mode mode = (tendon_mask_mode)(u8() % 3);
    size_t joint = upto(n + 1);
    float jt[3], jr[4], js[3];
    fvals(jt, 3), quat(jr), fvals(js, 3);
    /* N-layer blending: up to 3 blended and 2 additive layers over fresh poses */
    tendon_pose lp[5];
    float *lw[5];
    tendon_blend_layer layers[5];
    size_t nl = 0, na = 0;
    if (fn == 17) {
        nl = upto(3);
        na = upto(2);
        for (size_t i = 0; i < nl + na; ++i) {
            lp[i] = i == 0 ? a : i == 1 ? b : pose_new(n);
            if (i > 1)
                pose_fill(&lp[i]);
            lw[i] = u8() % 2 ? NULL : falloc(n);
            if (lw[i])
                fvals(lw[i], n);
            layers[i] = (tendon_blend_layer){&lp[i], u8() % 2 ? (double)u8() / 64.0 : dval(),
                                             lw[i]};
        }
    }
    /* out one joint into a's translation is an overlap only if the job reads a; otherwise it
       is just memory past a's allocation, which no library could detect: the rest pose is a
       then (fn 17 may reference neither a nor b through its layers) */
    const int overlap_out = bad_out && !misaligned;
    tendon_blend_layers_job job = {layers, nl, layers + nl, na,
                                   (u8() % 2 && !overlap_out) ? &b : &a,
                                   u8() % 2 ? TENDON_BLEND_LAYERS_DEFAULT_THRESHOLD : dval()};
    switch (fn) {
    case 0: st = tendon_pose_blend(&a, &b, t, &out); break;
    case 1: st = tendon_pose_blend_masked(&a, &b, t, mask, &out); break;
    case 2: st = tendon_pose_add(&a, &b, t, &out); break;
    case 3: st = tendon_pose_add_masked(&a, &b, t, mask, &out); break;
    case 4: st = tendon_pose_blend_f32(&a, &b, t, &out); break;
    case 5: st = tendon_pose_blend_masked_f32(&a, &b, t, mask, &out); break;
    case 6: st = tendon_pose_blend_nlerp_f32(&a, &b, t, &out); break;
    case 7: st = tendon_pose_blend_nlerp_masked_f32(&a, &b, t, mask, &out); break;
    case 8: st = tendon_pose_add_f32(&a, &b, t, &out); break;
    case 9: st = tendon_pose_add_masked_f32(&a, &b, t, mask, &out); break;
    case 10: st = tendon_layer_apply(&a, &b, t, mask, mode, &out); break;
    case 11: st = tendon_layer_apply_f32(&a, &b, t, mask, mode, &out); break;
    case 12: st = tendon_pose_delta(&a, &b, &out); break;
    case 13: st = tendon_pose_delta_f32(&a, &b, &out); break;
    case 14: st = tendon_pose_copy(&a, &out); break;
    case 15: st = tendon_pose_set_identity(&out); break;
    case 16: st = tendon_pose_set_joint(&out, joint, jt, jr, js); break;
    default: st = tendon_pose_blend_layers_f32(&job, &out); break;
    }
    if (settle(st, POSE_FN[fn])) {
        if (bad_out)
            fail("%s accepted a partly overlapping or misaligned output%s", POSE_FN[fn], "");
        rec_pose(&out);
        rec_pose(&a); /* in place: the inputs are outputs too */
        rec_pose(&b);
    }
    rec_end(POSE_FN[fn]);

    /* The blends' kernels on every table, on the same inputs: each == scalar's. */
    if (n > 0 && fn <= 9) {
        tendon_pose k0 = pose_new(n), k1 = pose_new(n);
        const float *w = fn % 2 ? mask : NULL;
        for (size_t k = 0; k < table_count; ++k) {
            const tendon_kernels *K = TABLES[k];
            tendon_pose *dst = k == 0 ? &k0 : &k1;
            switch (fn) {
            case 0: case 1: K->pose_blend(&a, &b, t, w, n, dst); break;
            case 2: case 3: K->pose_add(&a, &b, t, w, n, dst); break;
            case 4: case 5: K->pose_blend_f32(&a, &b, t, w, n, dst); break;
            case 6: case 7: K->pose_blend_nlerp_f32(&a, &b, t, w, n, dst); break;
            default: K->pose_add_f32(&a, &b, t, w, n, dst); break;
            }
            if (k > 0 && !same_pose(&k0, &k1))
                fail("the kernel behind %s on %s differs from scalar", POSE_FN[fn],
                     tendon_isa_name(K->isa));
        }
        pose_free(&k0);
        pose_free(&k1);
    }
    for (size_t i = 2; i < nl + na; ++i)
        pose_free(&lp[i]);
    for (size_t i = 0; i < nl + na; ++i)
        free(lw[i]);
    pose_free(&a);
    pose_free(&b);
    pose_free(&fresh);
    free(mask);
    free(misaligned);
}

/* ---- skeletons, matrices, palettes, masks, IK, retargeting -------------------------------- */

/* Parents: all roots, a random valid DFS pre-order, or raw (mostly invalid) values. */
static void make_parents(int32_t *parents, size_t n)
{
    const int mode = u8() % 4;
    for (size_t j = 0; j < n; ++j) {
        if (mode == 0 || j == 0) {
            parents[j] = mode == 3 ? (int8_t)u8() : -1;
        } else if (mode == 3) {
            parents[j] = (int8_t)u8();
        } else {
            /* -1, or j-1, or one of j-1's ancestors */
            size_t depth = 0;
            for (int32_t p = (int32_t)j - 1; p >= 0; p = parents[p])
                ++depth;
            size_t pick = upto(depth);
            int32_t p = (int32_t)j - 1;
            while (pick-- > 0 && p >= 0)
                p = parents[p];
            parents[j] = p;
        }
    }
}

static const char *const JOINT_NAMES[] = {"root", "hips", "spine", "chest", "neck", "head",
                                          "arm_l", "fore_l", "hand_l", "arm_r", "fore_r",
                                          "hand_r", "leg_l", "shin_l", "foot_l", "leg_r",
                                          "shin_r", "foot_r", "tail0", "tail1", "tail2", "x",
                                          "y", "z"};
enum { JOINT_NAME_COUNT = sizeof JOINT_NAMES / sizeof JOINT_NAMES[0] };

/* names: none, the pool in order (unique), or random picks (duplicates refused), or one empty */
static int make_names(const char **names, size_t n)
{
    const int mode = u8() % 4;
    if (mode == 0)
        return 0;
    const size_t start = upto(JOINT_NAME_COUNT - 1);
    for (size_t j = 0; j < n; ++j) {
        if (mode == 3)
            names[j] = JOINT_NAMES[u8() % JOINT_NAME_COUNT];
        else
            names[j] = JOINT_NAMES[(start + j) % JOINT_NAME_COUNT];
        if (mode == 2 && u8() % 32 == 0)
            names[j] = "";
    }
    return 1;
}

/* A skeleton from the input, or NULL (a refusal, checked). */
static tendon_skeleton *make_skeleton(size_t n, tendon_pose *rest_out)
{
    int32_t parents[32];
    const char *names[32];
    make_parents(parents, n);
    const int named = make_names(names, n);
    tendon_pose rest = pose_new(n);
    pose_fill(&rest);
    const int with_rest = u8() % 2;
    tendon_skeleton_desc d = {n, parents, named ? names : NULL, with_rest ? &rest : NULL};
    tendon_skeleton *sk = (tendon_skeleton *)(uintptr_t)1; /* must be NULL after a refusal */
    const tendon_status st = tendon_skeleton_create(&d, &sk);
    if (settle(st, "tendon_skeleton_create")) {
        rec_u64(tendon_skeleton_joint_count(sk));
    } else if (sk != NULL) {
        fail("%s refused and left *out non-NULL%s", "tendon_skeleton_create", "");
    }
    rec_end("tendon_skeleton_create");
    if (rest_out) {
        if (!with_rest)
            pose_rest(&rest);
        *rest_out = rest;
    } else {
        pose_free(&rest);
    }
    return st == TENDON_OK ? sk : NULL;
}

static void make_matrix(float m[16])
{
    if (u8() % 4 == 0) {
        fvals(m, 16);
        return;
    }
    float q[4], t[3], sc[3] = {1, 1, 1};
    quat(q);
    fvals(t, 3);
    tendon_pose p = {t, q, sc, 1};
    if (u8() % 3 == 0)
        p.scale[0] = p.scale[1] = p.scale[2] = (float)(1 + u8() % 4) / 2.0f;
    if (tendon_local_matrices(&p, m) != TENDON_OK)
        abort();
}

static void op_skeleton(void)
{
    CURRENT_OP = "skeleton";
    const size_t n = upto(24);
    tendon_pose rest;
    tendon_skeleton *sk = make_skeleton(n, &rest);
    if (!sk) {
        pose_free(&rest);
        return;
    }
    tendon_pose pose = pose_new(n);
    {
        /* the rest pose, through a pose of the right count and, sometimes, a wrong one */
        const int wrong = u8() % 8 == 0;
        tendon_pose w = pose_new(wrong ? n + 1 : n);
        snap_pose(&w);
        if (settle(tendon_skeleton_rest_pose(sk, &w), "tendon_skeleton_rest_pose"))
            rec_pose(&w);
        rec_end("tendon_skeleton_rest_pose");
        if (!wrong) {
            if (!same_pose(&w, &rest))
                fail("%s is not the rest pose given%s", "tendon_skeleton_rest_pose", "");
        }
        pose_free(&w);
    }
    pose_copy_bits(&pose, &rest);
    if (u8() % 2)
        pose_fill(&pose);

    float root[16];
    make_matrix(root);
    const float *rootp = u8() % 2 ? root : NULL;
    float *local = falloc(16 * n), *model = falloc(16 * n), *m2 = falloc(16 * n);
    snap(local, 16 * n * sizeof(float));
    if (settle(tendon_local_matrices(&pose, local), "tendon_local_matrices"))
        rec_floats(local, 16 * n);
    rec_end("tendon_local_matrices");
    snap(model, 16 * n * sizeof(float));
    const int model_ok =
        settle(tendon_pose_model_matrices(sk, &pose, rootp, model), "tendon_pose_model_matrices");
    if (model_ok)
        rec_floats(model, 16 * n);
    rec_end("tendon_pose_model_matrices");

    /* a partial update over model's own matrices gives the same bits in its range */
    const size_t first = upto(n + 1), count = upto(n + 1 - (first < n ? first : n) + 1);
    memcpy(m2, model, 16 * n * sizeof(float));
    snap(m2, 16 * n * sizeof(float));
    if (settle(tendon_model_matrices(sk, local, rootp, first, count, m2),
               "tendon_model_matrices")) {
        rec_floats(m2, 16 * n);
        if (model_ok && !same_floats(m2, model, 16 * n))
            fail("%s over [first, first + count) differs from the whole pass%s",
                 "tendon_model_matrices", "");
    }
    rec_end("tendon_model_matrices");
    /* in place (local == model), every table */
    if (model_ok) {
        for (size_t k = 0; k < table_count; ++k) {
            memcpy(m2, local, 16 * n * sizeof(float));
            if (tendon_model_matrices_on(TABLES[k], sk, m2, rootp, 0, n, m2) != TENDON_OK)
                fail("%s in place refused what %s accepted", "tendon_model_matrices_on",
                     "tendon_pose_model_matrices");
            if (!same_floats(m2, model, 16 * n))
                fail("tendon_model_matrices_on(%s) in place differs from %s",
                     tendon_isa_name(TABLES[k]->isa), "tendon_pose_model_matrices");
        }
    }

    /* inverse bind matrices, a binding, the palette */
    const size_t pc = upto(8);
    uint32_t joint_of[8];
    for (size_t k = 0; k < pc; ++k)
        joint_of[k] = (uint32_t)(u8() % 16 == 0 ? n + u8() : (n ? u8() % n : 0));
    float *ib = falloc(16 * pc), *pal = falloc(16 * pc), *pal2 = falloc(16 * pc);
    snap(ib, 16 * pc * sizeof(float));
    if (settle(tendon_inverse_bind_from_rest(sk, rootp, joint_of, pc, ib),
               "tendon_inverse_bind_from_rest"))
        rec_floats(ib, 16 * pc);
    rec_end("tendon_inverse_bind_from_rest");
    float *given_ib = falloc(16 * pc);
    for (size_t k = 0; k < pc; ++k)
        make_matrix(given_ib + 16 * k);
    tendon_skin_binding *bind = (tendon_skin_binding *)(uintptr_t)1;
    const tendon_status bst =
        tendon_skin_binding_create(sk, joint_of, u8() % 2 ? given_ib : NULL, pc, &bind);
    if (!settle(bst, "tendon_skin_binding_create") && bind)
        fail("%s refused and left *out non-NULL%s", "tendon_skin_binding_create", "");
    rec_end("tendon_skin_binding_create");
    if (bst == TENDON_OK) {
        snap(pal, 16 * pc * sizeof(float));
        const int pal_ok = settle(tendon_palette(bind, model, n, pal), "tendon_palette");
        if (pal_ok)
            rec_floats(pal, 16 * pc);
        rec_end("tendon_palette");
        float *ws = falloc(16 * n);
        snap(pal2, 16 * pc * sizeof(float));
        if (settle(tendon_pose_palette(sk, bind, &pose, rootp, ws, pal2), "tendon_pose_palette")) {
            rec_floats(pal2, 16 * pc);
            if (pal_ok && model_ok && !same_floats(pal, pal2, 16 * pc))
                fail("%s differs from %s", "tendon_pose_palette",
                     "tendon_pose_model_matrices + tendon_palette");
        }
        rec_end("tendon_pose_palette");
        free(ws);
        tendon_skin_binding_destroy(bind);
    }

    /* masks */
    float *w = falloc(n);
    const double falloff = u8() % 2 ? (double)(1 + u8() % 6) : dval();
    snap(w, n * sizeof(float));
    if (settle(tendon_bone_mask_by_index(sk, upto(n), falloff, w), "tendon_bone_mask_by_index"))
        rec_floats(w, n);
    rec_end("tendon_bone_mask_by_index");
    snap(w, n * sizeof(float));
    if (settle(tendon_bone_mask_by_name(sk, JOINT_NAMES[u8() % JOINT_NAME_COUNT], falloff, w),
               "tendon_bone_mask_by_name"))
        rec_floats(w, n);
    rec_end("tendon_bone_mask_by_name");
    size_t found = 12345;
    if (settle(tendon_skeleton_find_joint(sk, JOINT_NAMES[u8() % JOINT_NAME_COUNT], &found),
               "tendon_skeleton_find_joint"))
        rec_u64(found);
    else if (found != 12345)
        fail("%s refused and changed *out%s", "tendon_skeleton_find_joint", "");
    rec_end("tendon_skeleton_find_joint");

    /* two-bone IK on the pose */
    if (model_ok && n > 0) {
        const size_t up = upto(n), mid = up + upto(3), end = mid + upto(3);
        float target[3], pole[3];
        for (int c = 0; c < 3; ++c)
            target[c] = u8() % 8 ? (float)(int8_t)u8() / 32.0f : fval();
        for (int c = 0; c < 3; ++c)
            pole[c] = (float)(int8_t)u8() / 32.0f;
        const double weight = u8() % 2 ? 1.0 : dval();
        tendon_pose p2 = pose_new(n);
        pose_copy_bits(&p2, &pose);
        tendon_ik_two_bone_result res;
        memset(&res, 0xa5, sizeof res);
        snap_pose(&p2);
        snap(&res, sizeof res);
        if (settle(tendon_ik_two_bone_pose(sk, model, up, mid, end, target,
                                           u8() % 4 ? pole : NULL, weight, &p2,
                                           u8() % 4 ? &res : NULL),
                   "tendon_ik_two_bone_pose"))
            rec_pose(&p2);
        rec_end("tendon_ik_two_bone_pose");
        pose_free(&p2);
    }

    /* retargeting onto a second skeleton, matched by name */
    if (u8() % 2) {
        const size_t n2 = upto(24);
        tendon_skeleton *sk2 = make_skeleton(n2, NULL);
        if (sk2) {
            tendon_retarget_map *map = (tendon_retarget_map *)(uintptr_t)1;
            const tendon_status mst = tendon_retarget_map_create(sk, sk2, &map);
            if (!settle(mst, "tendon_retarget_map_create") && map)
                fail("%s refused and left *out non-NULL%s", "tendon_retarget_map_create", "");
            rec_end("tendon_retarget_map_create");
            if (mst == TENDON_OK) {
                const size_t *um = NULL;
                size_t umc = 0, unused = 0, src = 0;
                if (settle(tendon_retarget_map_unmatched(map, &um, &umc, &unused),
                           "tendon_retarget_map_unmatched")) {
                    rec_u64(umc), rec_u64(unused);
                    for (size_t i = 0; i < umc; ++i)
                        rec_u64(um[i]);
                }
                rec_end("tendon_retarget_map_unmatched");
                if (settle(tendon_retarget_map_source_joint(map, upto(n2), &src),
                           "tendon_retarget_map_source_joint"))
                    rec_u64(src);
                rec_end("tendon_retarget_map_source_joint");
                const int wrong = u8() % 8 == 0;
                tendon_pose o2 = pose_new(wrong ? n2 + 1 : n2);
                snap_pose(&o2);
                if (settle(tendon_retarget_pose(map, &pose, &o2), "tendon_retarget_pose"))
                    rec_pose(&o2);
                rec_end("tendon_retarget_pose");
                pose_free(&o2);
                tendon_retarget_map_destroy(map);
            }
            tendon_skeleton_destroy(sk2);
        }
    }
    free(w);
    free(ib), free(pal), free(pal2), free(given_ib);
    free(local), free(model), free(m2);
    pose_free(&pose);
    pose_free(&rest);
    tendon_skeleton_destroy(sk);
}

static void op_ik(void)
{
    CURRENT_OP = "ik";
    float p[5][3];
    for (int i = 0; i < 5; ++i)
        for (int c = 0; c < 3; ++c)
            p[i][c] = u8() % 8 ? (float)(int8_t)u8() / 16.0f : fval();
    const double weight = u8() % 2 ? (double)u8() / 255.0 : dval();
    tendon_ik_two_bone_result res;
    memset(&res, 0x5a, sizeof res);
    snap(&res, sizeof res);
    if (settle(tendon_ik_two_bone(p[0], p[1], p[2], p[3], u8() % 4 ? p[4] : NULL, weight, &res),
               "tendon_ik_two_bone")) {
        rec_floats(res.mid, 3), rec_floats(res.end, 3), rec_floats(res.upper_delta, 4);
        rec_floats(res.lower_delta, 4), rec_u64((uint64_t)res.reachable);
    }
    rec_end("tendon_ik_two_bone");
}

/* ---- clips (clip.h, mask.h's clip delta) -------------------------------------------------- */

enum { CLIP_TRACKS = 6, CLIP_KEYS = 6, CLIP_TIMES = 3 };

typedef struct clip_parts {
    tendon_track_desc tracks[CLIP_TRACKS];
    float times[CLIP_TRACKS][CLIP_KEYS];
    float *values[CLIP_TRACKS];
    size_t track_count;
} clip_parts;

static tendon_clip *make_clip(size_t jc, clip_parts *cp)
{
    cp->track_count = upto(CLIP_TRACKS);
    for (size_t i = 0; i < cp->track_count; ++i) {
        tendon_track_desc *t = &cp->tracks[i];
        t->joint = (uint32_t)(u8() % 16 == 0 ? jc + u8() % 3 : (jc ? u8() % jc : 0));
        t->path = (tendon_track_path)(u8() % 9 == 0 ? 4 : u8() % 4);
        t->interpolation = (tendon_interpolation)(u8() % 13 == 0 ? 3 : u8() % 3);
        t->width = t->path == TENDON_PATH_ROTATION ? 4 : t->path == TENDON_PATH_WEIGHTS
                                                             ? 1 + upto(3) : 3;
        if (u8() % 16 == 0)
            t->width = upto(5);
        t->key_count = u8() % 16 == 0 ? 0 : 1 + upto(CLIP_KEYS - 1);
        const int tmode = u8() % 6;
        if (tmode == 0 && i > 0 && cp->tracks[i - 1].key_count >= t->key_count) {
            memcpy(cp->times[i], cp->times[i - 1], sizeof cp->times[i]); /* a shared timeline */
        } else if (tmode == 1) {
            fvals(cp->times[i], CLIP_KEYS); /* anything: unsorted, NaN, infinite */
        } else {
            float at = u8() % 4 ? 0.0f : (float)(int8_t)u8() / 8.0f;
            for (size_t k = 0; k < CLIP_KEYS; ++k) {
                cp->times[i][k] = at;
                at += u8() % 16 == 0 ? 1e-6f : (float)(1 + u8() % 64) / 32.0f;
            }
        }
        t->times = cp->times[i];
        const size_t per_key = t->width * (t->interpolation == TENDON_INTERP_CUBICSPLINE ? 3 : 1);
        const size_t nv = t->key_count * per_key;
        cp->values[i] = falloc(nv);
        for (size_t v = 0; v < nv; ++v)
            cp->values[i][v] = fval();
        if (t->path == TENDON_PATH_ROTATION && t->width == 4 && u8() % 4)
            for (size_t v = 0; v + 4 <= nv; v += 4)
                quat(cp->values[i] + v);
        t->values = cp->values[i];
    }
    tendon_clip_desc d = {jc, cp->track_count, cp->track_count ? cp->tracks : NULL};
    tendon_clip *clip = (tendon_clip *)(uintptr_t)1;
    const tendon_status st = tendon_clip_create(&d, &clip);
    if (settle(st, "tendon_clip_create")) {
        rec_doubles((double[]){tendon_clip_duration(clip)}, 1);
        rec_u64(tendon_clip_value_count(clip));
        rec_u64(tendon_clip_timeline_count(clip));
    } else if (clip) {
        fail("%s refused and left *out non-NULL%s", "tendon_clip_create", "");
    }
    rec_end("tendon_clip_create");
    return st == TENDON_OK ? clip : NULL;
}

static void clip_parts_free(clip_parts *cp)
{
    for (size_t i = 0; i < cp->track_count; ++i)
        free(cp->values[i]);
}

typedef tendon_status (*sample_fn)(const tendon_clip *, double, tendon_pose *);
typedef tendon_status (*cursor_fn)(const tendon_clip *, double, uint32_t *, size_t, tendon_pose *);
typedef tendon_status (*tracks_fn)(const tendon_clip *, double, float *, size_t);
typedef tendon_status (*times_fn)(const tendon_clip *, const double *, size_t, const uint32_t *,
                                  size_t, tendon_pose *);
typedef tendon_status (*times_on_fn)(const tendon_kernels *, const tendon_clip *, const double *,
                                     size_t, const uint32_t *, size_t, tendon_pose *);

static void op_clip(void)
{
    CURRENT_OP = "clip";
    const size_t jc = upto(12);
    clip_parts cp;
    tendon_clip *clip = make_clip(jc, &cp);
    if (!clip) {
        clip_parts_free(&cp);
        return;
    }
    const size_t timelines = tendon_clip_timeline_count(clip);
    const size_t values = tendon_clip_value_count(clip);
    tendon_pose bg = pose_new(jc);
    pose_fill(&bg);
    const size_t nt = 1 + upto(CLIP_TIMES - 1);
    double times[CLIP_TIMES];
    for (size_t i = 0; i < nt; ++i)
        times[i] = u8() % 2 ? (double)(int8_t)u8() / 16.0 : dval();
    uint32_t *cursor = malloc((timelines + 2) * sizeof *cursor);
    for (size_t i = 0; i < timelines + 2; ++i)
        cursor[i] = u8() % 2 ? u32() : u8() % 8;
    tendon_pose sampled[2][CLIP_TIMES];
    int sampled_ok[2][CLIP_TIMES];

    for (int tier = 0; tier < 2; ++tier) {
        const sample_fn sample = tier ? tendon_clip_sample_f32 : tendon_clip_sample;
        const cursor_fn sample_cursor =
            tier ? tendon_clip_sample_cursor_f32 : tendon_clip_sample_cursor;
        const tracks_fn sample_tracks =
            tier ? tendon_clip_sample_tracks_f32 : tendon_clip_sample_tracks;
        const char *name = tier ? "tendon_clip_sample_f32" : "tendon_clip_sample";
        for (size_t i = 0; i < nt; ++i) {
            tendon_pose p1 = pose_new(jc), p2 = pose_new(jc), p3 = pose_new(jc);
            pose_copy_bits(&p1, &bg), pose_copy_bits(&p2, &bg), pose_copy_bits(&p3, &bg);
            snap_pose(&p1);
            const tendon_status s1 = sample(clip, times[i], &p1);
            sampled_ok[tier][i] = settle(s1, name);
            if (sampled_ok[tier][i])
                rec_pose(&p1);
            rec_end(name);
            /* pure: the same call again */
            if (sample(clip, times[i], &p2) != s1 || !same_pose(&p1, &p2))
                fail("%s is not pure: a second call at the same time differs%s", name, "");
            /* the cursor (garbage, or left by the previous time) changes nothing */
            const size_t cc = u8() % 8 == 0 && timelines ? timelines - 1 : timelines + upto(2);
            snap_pose(&p3);
            snap(cursor, (timelines + 2) * sizeof *cursor);
            const tendon_status s3 = sample_cursor(clip, times[i], cursor, cc, &p3);
            if (settle(s3, tier ? "tendon_clip_sample_cursor_f32" : "tendon_clip_sample_cursor")) {
                if (s1 != TENDON_OK || !same_pose(&p1, &p3))
                    fail("%s: the cursor changed the result of %s", name, "the sample");
            } else if (cc >= timelines && s3 != s1) {
                fail("%s: with a cursor the status differs from %s", name, "the plain sample");
            }
            rec_end("tendon_clip_sample_cursor");
            /* every track, weights included */
            const size_t oc = u8() % 8 == 0 && values ? values - 1 : values;
            float *tr = falloc(oc), *tr2 = falloc(oc);
            snap(tr, oc * sizeof(float));
            const tendon_status st = sample_tracks(clip, times[i], tr, oc);
            if (settle(st, "tendon_clip_sample_tracks"))
                rec_floats(tr, oc);
            rec_end("tendon_clip_sample_tracks");
            if (sample_tracks(clip, times[i], tr2, oc) != st ||
                (st == TENDON_OK && !same_floats(tr, tr2, oc)))
                fail("%s is not pure%s", "tendon_clip_sample_tracks", "");
            free(tr), free(tr2);
            sampled[tier][i] = p1;
            pose_free(&p2), pose_free(&p3);
        }

        /* many times at once, a few joints: == one time at a time, on every table */
        uint32_t joints[12];
        size_t js = 0;
        for (size_t j = 0; j < jc; ++j)
            if (u8() % 2)
                joints[js++] = (uint32_t)j;
        if (u8() % 16 == 0 && js > 1) {
            const uint32_t x = joints[0];
            joints[0] = joints[1], joints[1] = x; /* not increasing: refused */
        }
        tendon_pose many = pose_new(nt * js), other = pose_new(nt * js);
        for (size_t i = 0; i < nt; ++i)
            for (size_t s = 0; s < js; ++s) {
                const size_t o = i * js + s, j = joints[s];
                memcpy(many.translation + 3 * o, bg.translation + 3 * j, 3 * sizeof(float));
                memcpy(many.rotation + 4 * o, bg.rotation + 4 * j, 4 * sizeof(float));
                memcpy(many.scale + 3 * o, bg.scale + 3 * j, 3 * sizeof(float));
            }
        pose_copy_bits(&other, &many);
        tendon_pose start = pose_new(nt * js);
        pose_copy_bits(&start, &many);
        const times_fn sample_times =
            tier ? tendon_clip_sample_times_f32 : tendon_clip_sample_times;
        const times_on_fn sample_times_on =
            tier ? tendon_clip_sample_times_f32_on : tendon_clip_sample_times_on;
        snap_pose(&many);
        const tendon_status sm = sample_times(clip, times, nt, joints, js, &many);
        if (settle(sm, "tendon_clip_sample_times")) {
            rec_pose(&many);
            for (size_t i = 0; i < nt; ++i)
                for (size_t s = 0; s < js && sampled_ok[tier][i]; ++s) {
                    const size_t o = i * js + s, j = joints[s];
                    const tendon_pose *p = &sampled[tier][i];
                    if (!same_floats(many.translation + 3 * o, p->translation + 3 * j, 3) ||
                        !same_floats(many.rotation + 4 * o, p->rotation + 4 * j, 4) ||
                        !same_floats(many.scale + 3 * o, p->scale + 3 * j, 3))
                        fail("%s differs from %s at one time", "tendon_clip_sample_times", name);
                }
            for (size_t k = 0; k < table_count; ++k) {
                pose_copy_bits(&other, &start);
                if (sample_times_on(TABLES[k], clip, times, nt, joints, js, &other) !=
                        TENDON_OK ||
                    !same_pose(&other, &many))
                    fail("tendon_clip_sample_times_on(%s) differs from %s",
                         tendon_isa_name(TABLES[k]->isa), "the dispatched call");
            }
        }
        rec_end("tendon_clip_sample_times");
        pose_free(&many), pose_free(&other), pose_free(&start);

        /* the delta of the clip against a reference (its content is unspecified on error) */
        tendon_pose delta = pose_new(jc);
        const tendon_status ds = (tier ? tendon_clip_delta_pose_f32 : tendon_clip_delta_pose)(
            clip, times[0], &bg, &delta);
        rec_u64((uint64_t)ds);
        if (ds == TENDON_OK)
            rec_pose(&delta);
        rec_end("tendon_clip_delta_pose");
        pose_free(&delta);
    }
    for (int tier = 0; tier < 2; ++tier)
        for (size_t i = 0; i < nt; ++i)
            pose_free(&sampled[tier][i]);

    /* root motion */
    tendon_root_motion rm;
    memset(&rm, 0x77, sizeof rm);
    const size_t root = upto(jc);
    snap(&rm, sizeof rm);
    if (settle(tendon_root_motion_extract(clip, root, times[0], nt > 1 ? times[1] : dval(), &rm),
               "tendon_root_motion_extract"))
        rec_floats(rm.translation, 3), rec_floats(rm.rotation, 4);
    rec_end("tendon_root_motion_extract");
    snap_pose(&bg);
    if (settle(tendon_root_motion_strip(clip, root, &bg), "tendon_root_motion_strip"))
        rec_pose(&bg);
    rec_end("tendon_root_motion_strip");

    free(cursor);
    pose_free(&bg);
    tendon_clip_destroy(clip);
    clip_parts_free(&cp);
}

/* ---- springs (spring.h) -------------------------------------------------------------------- */

static double freq_val(void)
{
    static const double T[] = {2, 0.5, 7.3, 30, 1000, INFINITY, 0, -1, NAN, 1e154, 3e153, 0.01};
    const uint8_t k = u8();
    return k < 12 * 16 ? T[k % 12] : dval();
}
static double damp_val(void)
{
    static const double T[] = {0.35, 0.05, 1, 1.5, 3, 0, -0.1, NAN, INFINITY, 1e-7, 2e5,
                               1.4e154, 0.7071};
    const uint8_t k = u8();
    return k < 13 * 16 ? T[k % 13] : dval();
}
static double limit_val(void)
{
    const uint8_t k = u8() % 4;
    return k == 0 ? TENDON_SPRING_NO_LIMIT : k == 1 ? (double)u8() / 64.0 : dval();
}

/* A pure anchor: p + v·t in float, per float of the output; fails at call fail_at (status form). */
typedef struct anchor {
    float p[24], v[24];
    size_t floats;  /* floats written per call */
    size_t only;    /* SIZE_MAX (every float), or the one spring whose 3 floats are written */
    size_t calls, fail_at;
} anchor;

static void anchor_fn(void *user, double t, float *out)
{
    anchor *a = user;
    a->calls++;
    if (a->only != SIZE_MAX) { /* one spring's (one chain's root's) three floats */
        for (size_t k = 0; k < 3; ++k)
            out[k] = a->p[3 * a->only + k] + a->v[3 * a->only + k] * (float)t;
        return;
    }
    for (size_t k = 0; k < a->floats; ++k)
        out[k] = a->p[k] + a->v[k] * (float)t;
}
/* The anchor of spring `only` alone (a->only set): its three floats. */
static void anchor_one_fn(void *user, double t, float *out) { anchor_fn(user, t, out); }
static tendon_status anchor_status_fn(void *user, double t, float *out)
{
    anchor *a = user;
    if (a->calls == a->fail_at) {
        a->calls++;
        tendon_spring_settings bad = {-1, 1, -1};
        double x;
        (void)tendon_spring_settle_sec_lookback(&bad, TENDON_SPRING_LOOKBACK_SLOW_POLE, &x);
        return TENDON_ERR_VALUE;
    }
    anchor_fn(user, t, out);
    return TENDON_OK;
}

static void make_anchor(anchor *a, size_t floats)
{
    a->floats = floats;
    a->only = SIZE_MAX;
    a->calls = 0;
    a->fail_at = u8() % 2 ? SIZE_MAX : upto(40);
    for (size_t k = 0; k < floats; ++k) {
        a->p[k] = u8() % 8 ? (float)(int8_t)u8() / 16.0f : fval();
        a->v[k] = u8() % 4 ? (float)(int8_t)u8() / 64.0f : fval();
    }
}

/* Whether a sample with this lookback and (fastest) frequency marches few enough substeps to
 * fuzz (or is refused at once for too many). */
static int affordable(double lookback_sec, double frequency_hz, double links)
{
    const double steps = lookback_sec * frequency_hz * 32.0 * (links < 1 ? 1 : links);
    return !(steps > SPRING_STEPS_CAP && steps < 4.0 * (double)TENDON_SPRING_MAX_SUBSTEPS *
                                                     (links < 1 ? 1 : links));
}

static void op_spring(void)
{
    CURRENT_OP = "spring";
    tendon_spring_settings s = {freq_val(), damp_val(), limit_val()};
    const tendon_spring_lookback lb = (tendon_spring_lookback)(u8() % 7 == 0 ? 3 : u8() % 3);
    const double time = u8() % 4 ? (double)(int8_t)u8() / 8.0 : dval();
    double settle_s = -7, settle_l = -7;
    if (settle(tendon_spring_settle_sec(&s, &settle_s), "tendon_spring_settle_sec"))
        rec_doubles(&settle_s, 1);
    rec_end("tendon_spring_settle_sec");
    const tendon_status ls = tendon_spring_settle_sec_lookback(&s, lb, &settle_l);
    if (settle(ls, "tendon_spring_settle_sec_lookback"))
        rec_doubles(&settle_l, 1);
    rec_end("tendon_spring_settle_sec_lookback");
    anchor an;
    make_anchor(&an, 3);
    const int which = u8() % 3;

    if (which == 0 && affordable(settle_s, s.frequency_hz, 1) &&
        affordable(ls == TENDON_OK ? settle_l : 0, s.frequency_hz, 1)) {
        float out[3] = {1, 2, 3}, ref[3], got[3];
        double out64[3] = {4, 5, 6};
        snap(out, sizeof out);
        const tendon_status st = tendon_spring_sample(&s, anchor_fn, &an, time, out);
        if (settle(st, "tendon_spring_sample"))
            rec_floats(out, 3);
        rec_end("tendon_spring_sample");
        snap(out64, sizeof out64);
        if (settle(tendon_spring_sample_f64(&s, anchor_fn, &an, time, out64),
                   "tendon_spring_sample_f64")) {
            rec_doubles(out64, 3);
            const float f[3] = {(float)out64[0], (float)out64[1], (float)out64[2]};
            if (st != TENDON_OK || !same_floats(f, out, 3))
                fail("(float)out64 of %s is not the out of %s", "tendon_spring_sample_f64",
                     "tendon_spring_sample");
        }
        rec_end("tendon_spring_sample_f64");
        if (st == TENDON_OK)
            for (size_t k = 0; k < table_count; ++k) {
                if (tendon_spring_sample_on(TABLES[k], &s, anchor_fn, &an, time,
                                            k ? got : ref) != TENDON_OK ||
                    (k && !same_floats(ref, got, 3)))
                    fail("tendon_spring_sample_on(%s) differs from %s",
                         tendon_isa_name(TABLES[k]->isa), "scalar");
            }
        /* a status anchor that may fail, under the lookback setting */
        float out2[3] = {7, 8, 9};
        an.calls = 0;
        snap(out2, sizeof out2);
        const tendon_status ss =
            tendon_spring_sample_status(&s, lb, anchor_status_fn, &an, time, out2);
        if (settle(ss, "tendon_spring_sample_status")) {
            rec_floats(out2, 3);
            if (lb == TENDON_SPRING_LOOKBACK_SEED && (st != TENDON_OK || !same_floats(out, out2, 3)))
                fail("%s (seed lookback) differs from %s", "tendon_spring_sample_status",
                     "tendon_spring_sample");
        }
        rec_end("tendon_spring_sample_status");
    } else if (which == 1 && affordable(settle_s, s.frequency_hz, 1)) {
        /* a batch: spring_count springs, one settings value, each its own anchor */
        const size_t sc = upto(6);
        make_anchor(&an, 3 * sc);
        size_t bytes = 0;
        if (settle(tendon_spring_batch_workspace_size(sc, &bytes), "batch_workspace_size"))
            rec_u64(bytes);
        rec_end("tendon_spring_batch_workspace_size");
        const size_t give = u8() % 8 == 0 && bytes ? bytes - 1 : bytes;
        unsigned char *ws = malloc(give + 1);
        float *out = falloc(3 * sc);
        snap(out, 3 * sc * sizeof(float));
        const tendon_status st =
            tendon_spring_sample_batch(&s, anchor_fn, &an, time, sc, ws, give, out);
        if (settle(st, "tendon_spring_sample_batch")) {
            rec_floats(out, 3 * sc);
            for (size_t i = 0; i < sc; ++i) {
                float one[3];
                an.only = i;
                if (tendon_spring_sample(&s, anchor_one_fn, &an, time, one) != TENDON_OK ||
                    !same_floats(one, out + 3 * i, 3))
                    fail("%s: a spring differs from %s alone", "tendon_spring_sample_batch",
                         "tendon_spring_sample");
            }
            an.only = SIZE_MAX;
            float *got = falloc(3 * sc);
            for (size_t k = 0; k < table_count; ++k)
                if (tendon_spring_sample_batch_on(TABLES[k], &s, anchor_fn, &an, time, sc, ws,
                                                  give, got) != TENDON_OK ||
                    !same_floats(got, out, 3 * sc))
                    fail("tendon_spring_sample_batch_on(%s) differs from %s",
                         tendon_isa_name(TABLES[k]->isa), "the dispatched call");
            free(got);
        }
        rec_end("tendon_spring_sample_batch");
        free(ws);
        free(out);
    } else if (which == 2) {
        /* a chain, and chains sharing its links */
        tendon_spring_link links[10];
        const size_t lc = upto(10);
        const int same = u8() % 2;
        for (size_t i = 0; i < lc; ++i) {
            tendon_spring_link *l = &links[i];
            if (same && i > 0) {
                *l = links[0];
            } else {
                l->frequency_hz = freq_val(), l->damping = damp_val();
                l->max_offset_m = limit_val();
            }
            for (int c = 0; c < 3; ++c)
                l->rest_offset_m[c] = u8() % 4 ? (double)(int8_t)u8() / 64.0 : dval();
        }
        double cs = -7;
        if (settle(tendon_spring_chain_settle_sec(links, lc, &cs), "chain_settle_sec"))
            rec_doubles(&cs, 1);
        rec_end("tendon_spring_chain_settle_sec");
        if (settle(tendon_spring_chain_settle_sec_lookback(links, lc, lb, &cs),
                   "chain_settle_sec_lookback"))
            rec_doubles(&cs, 1);
        rec_end("tendon_spring_chain_settle_sec_lookback");
        const size_t ncs = 1 + upto(3);
        make_anchor(&an, 3 * ncs);
        size_t bytes = 0;
        (void)tendon_spring_chain_workspace_size(lc, ncs, &bytes);
        const size_t oc = u8() % 8 == 0 && lc ? 3 * lc * ncs - 1 : 3 * lc * ncs;
        unsigned char *ws = malloc(bytes + 1);
        float *out = falloc(oc), *out2 = falloc(oc), *got = falloc(oc);
        const uint64_t cap = u8() % 4 ? CHAIN_WORK_CAP : (uint64_t)upto(255);
        an.only = 0; /* chain 0's root alone for the single-chain calls */
        snap(out, oc * sizeof(float));
        const tendon_status st = tendon_spring_chain_sample_budget(
            links, lc, anchor_one_fn, &an, time, cap, u8() % 4 ? ws : NULL, bytes, out, oc);
        if (settle(st, "tendon_spring_chain_sample_budget")) {
            rec_floats(out, oc);
            /* within both budgets the default call gives the same bits, on every table */
            if (tendon_spring_chain_sample(links, lc, anchor_one_fn, &an, time, ws, bytes, out2,
                                           oc) != TENDON_OK ||
                !same_floats(out, out2, 3 * lc))
                fail("%s differs from %s within both budgets", "tendon_spring_chain_sample",
                     "tendon_spring_chain_sample_budget");
            for (size_t k = 0; k < table_count; ++k)
                if (tendon_spring_chain_sample_on(TABLES[k], links, lc, anchor_one_fn, &an, time,
                                                  ws, bytes, got, oc) != TENDON_OK ||
                    !same_floats(got, out, 3 * lc))
                    fail("tendon_spring_chain_sample_on(%s) differs from %s",
                         tendon_isa_name(TABLES[k]->isa), "the dispatched call");
            /* the status form under the seed lookback: the same bits unless the root fails */
            an.calls = 0;
            snap(out2, oc * sizeof(float));
            const tendon_status ss = tendon_spring_chain_sample_status(
                links, lc, lb, anchor_status_fn, &an, time, cap, ws, bytes, out2, oc);
            if (settle(ss, "tendon_spring_chain_sample_status")) {
                rec_floats(out2, oc);
                if (lb == TENDON_SPRING_LOOKBACK_SEED && !same_floats(out, out2, 3 * lc))
                    fail("%s (seed lookback) differs from %s",
                         "tendon_spring_chain_sample_status", "tendon_spring_chain_sample");
            }
            rec_end("tendon_spring_chain_sample_status");
            /* the batch of chains: each == that chain alone */
            an.only = SIZE_MAX;
            snap(out2, oc * sizeof(float));
            const tendon_status sb = tendon_spring_chain_sample_batch_budget(
                links, lc, anchor_fn, &an, time, cap, ncs, ws, bytes, out2, oc);
            if (settle(sb, "tendon_spring_chain_sample_batch_budget")) {
                rec_floats(out2, oc);
                for (size_t c = 0; c < ncs; ++c) {
                    an.only = c;
                    if (tendon_spring_chain_sample_budget(links, lc, anchor_one_fn, &an, time,
                                                          cap, ws, bytes, got, oc) !=
                            TENDON_OK ||
                        !same_floats(got, out2 + 3 * lc * c, 3 * lc))
                        fail("%s: a chain differs from %s alone",
                             "tendon_spring_chain_sample_batch_budget",
                             "tendon_spring_chain_sample_budget");
                }
            }
            rec_end("tendon_spring_chain_sample_batch_budget");
        }
        rec_end("tendon_spring_chain_sample_budget");
        free(ws), free(out), free(out2), free(got);
    }
}

/* ---- skinning (skin.h): tendon_skin, the prepared mesh, dual quaternions, morphs ---------- */

static void op_skin(void)
{
    CURRENT_OP = "skin";
    const size_t pc = 1 + upto(5), vc = upto(40);
    const size_t ic = u8() % 16 == 0 ? u8() % 6 : 1 + upto(3);
    const size_t icn = ic >= 1 && ic <= 4 ? ic : 4; /* what the buffers hold */
    const uint8_t tsel = u8() % 16;
    const tendon_joint_index_type type =
        tsel == 0 ? (tendon_joint_index_type)3 : tsel % 2 ? TENDON_JOINT_INDEX_U8
                                                          : TENDON_JOINT_INDEX_U16;
    float *palette = falloc(16 * pc);
    for (size_t k = 0; k < pc; ++k)
        make_matrix(palette + 16 * k);
    uint8_t *j8 = malloc(vc * icn + 1);
    uint16_t *j16 = malloc((vc * icn + 1) * sizeof *j16);
    float *weights = falloc(vc * icn);
    for (size_t i = 0; i < vc * icn; ++i) {
        const unsigned j = u8() % 32 == 0 ? (unsigned)(pc + u8() % 3) : u8() % (unsigned)pc;
        j8[i] = (uint8_t)j, j16[i] = (uint16_t)j;
        weights[i] = u8() % 8 ? (float)u8() / 255.0f : fval();
    }
    const int with_n = u8() % 2, with_t = with_n && u8() % 2;
    const int bad_t = !with_n && u8() % 16 == 0; /* tangents without normals: refused */
    float *pos = falloc(3 * vc), *nrm = falloc(3 * vc), *tan = falloc(4 * vc);
    fvals(pos, 3 * vc);
    for (size_t v = 0; v < vc; ++v) {
        float q[4];
        quat(q); /* any direction, roughly unit */
        memcpy(nrm + 3 * v, q, 3 * sizeof(float));
        quat(tan + 4 * v);
        tan[4 * v + 3] = u8() % 2 ? 1.0f : -1.0f;
    }
    float *op = falloc(3 * vc), *on = falloc(3 * vc), *ot = falloc(4 * vc);
    tendon_skin_job job = {0};
    job.palette = palette, job.palette_count = pc, job.vertex_count = vc;
    job.influence_count = ic, job.joint_index_type = type;
    job.joints = type == TENDON_JOINT_INDEX_U16 ? (const void *)j16 : (const void *)j8;
    job.weights = weights, job.positions = pos, job.out_positions = op;
    if (with_n)
        job.normals = nrm, job.out_normals = on;
    if (with_t || bad_t)
        job.tangents = tan, job.out_tangents = ot;
    snap(op, 3 * vc * sizeof(float)), snap(on, 3 * vc * sizeof(float));
    snap(ot, 4 * vc * sizeof(float));
    const int skin_ok = settle(tendon_skin(&job), "tendon_skin");
    if (skin_ok)
        rec_floats(op, 3 * vc), rec_floats(on, 3 * vc), rec_floats(ot, 4 * vc);
    rec_end("tendon_skin");

    tendon_skin_mesh *mesh = (tendon_skin_mesh *)(uintptr_t)1;
    const tendon_status ms = tendon_skin_mesh_create(&job, &mesh);
    if (!settle(ms, "tendon_skin_mesh_create") && mesh)
        fail("%s refused and left *out non-NULL%s", "tendon_skin_mesh_create", "");
    rec_end("tendon_skin_mesh_create");
    if (ms == TENDON_OK) {
        float *mp = falloc(3 * vc), *mn = falloc(3 * vc), *mt = falloc(4 * vc);
        float *gp = falloc(3 * vc), *gn = falloc(3 * vc), *gt = falloc(4 * vc);
        /* apply: tendon_skin's bits (the weights were finite, or create refused) */
        snap(mp, 3 * vc * sizeof(float));
        if (settle(tendon_skin_mesh_apply(mesh, palette, mp, with_n ? mn : NULL,
                                          with_t ? mt : NULL),
                   "tendon_skin_mesh_apply")) {
            rec_floats(mp, 3 * vc), rec_floats(mn, 3 * vc), rec_floats(mt, 4 * vc);
            if (!skin_ok || !same_floats(mp, op, 3 * vc) ||
                (with_n && !same_floats(mn, on, 3 * vc)) ||
                (with_t && !same_floats(mt, ot, 4 * vc)))
                fail("%s differs from %s on the job it was made from",
                     "tendon_skin_mesh_apply", "tendon_skin");
            for (size_t k = 0; k < table_count; ++k) {
                if (tendon_skin_mesh_apply_range_on(TABLES[k], mesh, palette, 0, vc, gp,
                                                    with_n ? gn : NULL,
                                                    with_t ? gt : NULL) != TENDON_OK ||
                    !same_floats(gp, mp, 3 * vc) || (with_n && !same_floats(gn, mn, 3 * vc)) ||
                    (with_t && !same_floats(gt, mt, 4 * vc)))
                    fail("tendon_skin_mesh_apply_range_on(%s) differs from %s",
                         tendon_isa_name(TABLES[k]->isa), "tendon_skin_mesh_apply");
            }
        }
        rec_end("tendon_skin_mesh_apply");
        /* a range (maybe past the end), normals asked of a mesh without them (refused) */
        const size_t first = upto(vc + 1), count = upto(vc + 1);
        memcpy(gp, mp, 3 * vc * sizeof(float));
        snap(gp, 3 * vc * sizeof(float)), snap(gn, 3 * vc * sizeof(float));
        const int ask_n = with_n || u8() % 8 == 0;
        if (settle(tendon_skin_mesh_apply_range(mesh, palette, first, count, gp,
                                                ask_n ? gn : NULL, NULL),
                   "tendon_skin_mesh_apply_range"))
            rec_floats(gp, 3 * vc);
        rec_end("tendon_skin_mesh_apply_range");
        /* dual quaternions */
        float *dq = falloc(16 * pc);
        snap(dq, 16 * pc * sizeof(float));
        const int dq_ok = settle(tendon_palette_to_dual_quat(palette, pc, dq),
                                 "tendon_palette_to_dual_quat");
        if (dq_ok)
            rec_floats(dq, 16 * pc);
        rec_end("tendon_palette_to_dual_quat");
        if (dq_ok) {
            snap(mp, 3 * vc * sizeof(float));
            if (settle(tendon_skin_mesh_apply_dq(mesh, dq, mp, with_n ? mn : NULL,
                                                 with_t ? mt : NULL),
                       "tendon_skin_mesh_apply_dq")) {
                rec_floats(mp, 3 * vc), rec_floats(mn, 3 * vc), rec_floats(mt, 4 * vc);
                for (size_t k = 0; k < table_count; ++k)
                    if (tendon_skin_mesh_apply_dq_range_on(TABLES[k], mesh, dq, 0, vc, gp,
                                                           with_n ? gn : NULL,
                                                           with_t ? gt : NULL) != TENDON_OK ||
                        !same_floats(gp, mp, 3 * vc) ||
                        (with_n && !same_floats(gn, mn, 3 * vc)) ||
                        (with_t && !same_floats(gt, mt, 4 * vc)))
                        fail("tendon_skin_mesh_apply_dq_range_on(%s) differs from %s",
                             tendon_isa_name(TABLES[k]->isa), "tendon_skin_mesh_apply_dq");
            }
            rec_end("tendon_skin_mesh_apply_dq");
        }
        free(dq);
        /* morphed positions, then apply again */
        float *np = falloc(3 * vc);
        fvals(np, 3 * vc);
        const size_t f2 = upto(vc), c2 = upto(vc + 1);
        if (settle(tendon_skin_mesh_set_positions(mesh, np, 0, f2, c2),
                   "tendon_skin_mesh_set_positions")) {
            snap(mp, 3 * vc * sizeof(float));
            if (settle(tendon_skin_mesh_apply(mesh, palette, mp, NULL, NULL),
                       "tendon_skin_mesh_apply"))
                rec_floats(mp, 3 * vc);
        }
        rec_end("tendon_skin_mesh_set_positions");
        free(np);
        free(mp), free(mn), free(mt), free(gp), free(gn), free(gt);
        tendon_skin_mesh_destroy(mesh);
    }

    /* weights normalised in place */
    snap(weights, vc * icn * sizeof(float));
    if (settle(tendon_skin_weights_normalize(weights, 0, ic, vc), "tendon_skin_weights_normalize"))
        rec_floats(weights, vc * icn);
    rec_end("tendon_skin_weights_normalize");

    /* morph targets over the positions */
    {
        const size_t tc = upto(3), fc = 3 * vc;
        float *d[3] = {NULL, NULL, NULL}, mw[3];
        for (size_t i = 0; i < tc; ++i) {
            mw[i] = u8() % 4 ? (float)(int8_t)u8() / 64.0f : fval();
            if (mw[i] != 0.0f || u8() % 2) {
                d[i] = falloc(fc);
                fvals(d[i], fc);
            }
        }
        const int in_place = u8() % 2;
        float *mo = in_place ? pos : falloc(fc);
        float *ref = falloc(fc), *got = falloc(fc);
        const float *const *dp = (const float *const *)d;
        if (fc > 0)
            for (size_t k = 0; k < table_count; ++k) {
                TABLES[k]->morph(pos, dp, mw, tc, fc, k ? got : ref);
                if (k && !same_floats(ref, got, fc))
                    fail("the morph kernel of %s differs from %s",
                         tendon_isa_name(TABLES[k]->isa), "scalar");
            }
        snap(mo, fc * sizeof(float));
        if (settle(tendon_morph(pos, dp, mw, tc, fc, mo), "tendon_morph")) {
            rec_floats(mo, fc);
            if (!same_floats(mo, ref, fc))
                fail("%s differs from %s", "tendon_morph", "its scalar kernel");
        }
        rec_end("tendon_morph");
        for (size_t i = 0; i < tc; ++i)
            free(d[i]);
        if (!in_place)
            free(mo);
        free(ref), free(got);
    }
    free(palette), free(j8), free(j16), free(weights), free(pos), free(nrm), free(tan);
    free(op), free(on), free(ot);
}

/* ---- blend trees and state machines (graph.h) ---------------------------------------------- */

/* A pure pose source: joint j's translation = base + rate·time, in the channels `writes` names. */
typedef struct source {
    float base[3 * 8], rot[4 * 8], scale[3 * 8], rate[3];
    unsigned writes; /* 1 translation, 2 rotation, 4 scale */
} source;

static void source_fn(void *user, double time, tendon_pose *out)
{
    const source *s = user;
    for (size_t j = 0; j < out->joint_count && j < 8; ++j) {
        if (s->writes & 1)
            for (int c = 0; c < 3; ++c)
                out->translation[3 * j + c] = s->base[3 * j + c] + s->rate[c] * (float)time;
        if (s->writes & 2)
            memcpy(out->rotation + 4 * j, s->rot + 4 * j, 4 * sizeof(float));
        if (s->writes & 4)
            memcpy(out->scale + 3 * j, s->scale + 3 * j, 3 * sizeof(float));
    }
}

static const char *const PARAMS[] = {"speed", "aim", "clock", "walk", "x"};
enum { PARAM_COUNT = sizeof PARAMS / sizeof PARAMS[0] };
static const char *param_name(void)
{
    const uint8_t k = u8();
    return k % 32 == 0 ? "" : k % 32 == 1 ? "undeclared" : PARAMS[k % PARAM_COUNT];
}

enum { TREE_NODES = 7 };
typedef struct tree_parts {
    tendon_blend_node nodes[TREE_NODES];
    source sources[TREE_NODES];
    size_t children[TREE_NODES][3];
    double at[TREE_NODES][3];
    clip_parts cp;
    tendon_clip *clip;
} tree_parts;

static tendon_blend_tree *make_tree(size_t jc, tree_parts *tp, const tendon_pose *bind)
{
    memset(tp, 0, sizeof *tp);
    tp->clip = u8() % 3 == 0 ? make_clip(u8() % 8 == 0 ? jc + 1 : jc, &tp->cp) : NULL;
    const size_t nc = 1 + upto(TREE_NODES - 1);
    for (size_t i = 0; i < nc; ++i) {
        tendon_blend_node *nd = &tp->nodes[i];
        const uint8_t kind = u8() % 17;
        nd->kind = kind == 16 ? (tendon_blend_node_kind)7 : (tendon_blend_node_kind)(kind % 4);
        /* the tree shape: interior nodes point at later nodes mostly (a tree), anything else
         * sometimes (refused: two parents, cycles, unreachable nodes, out of range) */
        const int wild = u8() % 8 == 0;
        const size_t rest = nc - i - 1;
        switch (nd->kind) {
        case TENDON_BLEND_SOURCE: {
            source *s = &tp->sources[i];
            fvals(s->base, 3 * 8);
            for (int j = 0; j < 8; ++j)
                quat(s->rot + 4 * j);
            for (int k = 0; k < 3 * 8; ++k)
                s->scale[k] = u8() % 4 ? 1.0f : fval();
            for (int c = 0; c < 3; ++c)
                s->rate[c] = (float)(int8_t)u8() / 16.0f;
            s->writes = u8() % 8;
            nd->sample = u8() % 32 ? source_fn : NULL;
            nd->user = s;
            nd->clock = u8() % 3 == 0 ? param_name() : NULL;
            break;
        }
        case TENDON_BLEND_CLIP:
            nd->clip = tp->clip;
            nd->clock = u8() % 3 == 0 ? param_name() : NULL;
            break;
        case TENDON_BLEND_LERP:
            nd->parameter = u8() % 32 ? param_name() : NULL;
            nd->a = wild || !rest ? upto(nc) : i + 1 + upto(rest - 1);
            nd->b = wild || !rest ? upto(nc) : i + 1 + upto(rest - 1);
            break;
        case TENDON_BLEND_ONE_DIMENSIONAL: {
            nd->parameter = u8() % 32 ? param_name() : NULL;
            nd->child_count = upto(3);
            double at = (double)(int8_t)u8() / 16.0;
            for (size_t c = 0; c < nd->child_count; ++c) {
                tp->children[i][c] = wild || !rest ? upto(nc) : i + 1 + upto(rest - 1);
                tp->at[i][c] = u8() % 8 ? at : dval();
                at += (double)(1 + u8() % 16) / 8.0;
            }
            nd->children = u8() % 32 ? tp->children[i] : NULL;
            nd->at = tp->at[i];
            break;
        }
        default:
            break;
        }
    }
    tendon_blend_tree_desc d = {tp->nodes, nc, u8() % 8 == 0 ? upto(nc) : 0, jc, bind,
                                (tendon_tier)(u8() % 16 == 0 ? 2 : u8() % 2)};
    tendon_blend_tree *tree = (tendon_blend_tree *)(uintptr_t)1;
    const tendon_status st = tendon_blend_tree_create(&d, &tree);
    if (settle(st, "tendon_blend_tree_create"))
        rec_u64(tendon_blend_tree_parameter_count(tree));
    else if (tree)
        fail("%s refused and left *out non-NULL%s", "tendon_blend_tree_create", "");
    rec_end("tendon_blend_tree_create");
    return st == TENDON_OK ? tree : NULL;
}

static void tree_parts_free(tree_parts *tp)
{
    if (tp->clip || tp->cp.track_count) {
        tendon_clip_destroy(tp->clip);
        clip_parts_free(&tp->cp);
    }
}

/* A predicate over the machine's parameters: parameter op value. */
typedef struct predicate {
    const char *parameter;
    int op; /* 0 <, 1 >, 2 ==, 3 always */
    double value;
} predicate;

static int predicate_fn(void *user, const tendon_parameters *params)
{
    const predicate *p = user;
    double v;
    if (p->op == 3)
        return 1;
    if (!tendon_parameters_get(params, p->parameter, &v))
        return 0;
    return p->op == 0 ? v < p->value : p->op == 1 ? v > p->value : v == p->value;
}

static void op_graph(void)
{
    CURRENT_OP = "graph";
    const size_t jc = u8() % 16 == 0 ? 0 : 1 + upto(5);
    tendon_pose bind = pose_new(jc);
    pose_fill(&bind);
    const tendon_pose *bindp = u8() % 2 ? &bind : NULL;
    enum { TREES = 3 };
    tree_parts *tp = calloc(TREES, sizeof *tp);
    tendon_blend_tree *trees[TREES] = {NULL, NULL, NULL};
    const size_t ntrees = 1 + upto(TREES - 1);
    for (size_t i = 0; i < ntrees; ++i)
        trees[i] = make_tree(jc, &tp[i], bindp);

    /* each tree: parameters, evaluation (pure: twice the same bits) */
    for (size_t i = 0; i < ntrees; ++i) {
        if (!trees[i])
            continue;
        const size_t steps = upto(6);
        for (size_t k = 0; k < steps; ++k) {
            if (u8() % 2) {
                const char *name = param_name();
                const double v = u8() % 2 ? (double)(int8_t)u8() / 32.0 : dval();
                double before = -9, after = -9;
                const int had = tendon_blend_tree_get(trees[i], name, &before) == TENDON_OK;
                const tendon_status st = tendon_blend_tree_set(trees[i], name, v);
                settle(st, "tendon_blend_tree_set");
                const int has = tendon_blend_tree_get(trees[i], name, &after) == TENDON_OK;
                if (st != TENDON_OK && had && !same_doubles(&before, &after, 1))
                    fail("%s refused and changed the parameter%s", "tendon_blend_tree_set", "");
                if (has)
                    rec_doubles(&after, 1);
                rec_end("tendon_blend_tree_set");
            } else {
                const double t = u8() % 2 ? (double)(int8_t)u8() / 8.0 : dval();
                const int wrong = u8() % 16 == 0;
                tendon_pose o1 = pose_new(wrong ? jc + 1 : jc), o2 = pose_new(wrong ? jc + 1 : jc);
                pose_fill(&o1);
                pose_copy_bits(&o2, &o1);
                snap_pose(&o1);
                const tendon_status st = tendon_blend_tree_evaluate(trees[i], t, &o1);
                if (settle(st, "tendon_blend_tree_evaluate"))
                    rec_pose(&o1);
                rec_end("tendon_blend_tree_evaluate");
                if (tendon_blend_tree_evaluate(trees[i], t, &o2) != st ||
                    (st == TENDON_OK && !same_pose(&o1, &o2)))
                    fail("%s is not pure: a second evaluation differs%s",
                         "tendon_blend_tree_evaluate", "");
                pose_free(&o1), pose_free(&o2);
            }
        }
        int is_clock = -1;
        const char *pn = tendon_blend_tree_parameter_name(trees[i], upto(4), &is_clock);
        rec_u64(pn ? strlen(pn) : 99), rec_u64((uint64_t)is_clock);
        rec_end("tendon_blend_tree_parameter_name");
    }

    /* a state machine over the trees */
    static const char *const STATES[] = {"idle", "walk", "run", "jump"};
    tendon_state_desc states[4];
    const size_t sc = u8() % 16 == 0 ? 0 : 1 + upto(3);
    for (size_t i = 0; i < sc; ++i) {
        states[i].name = u8() % 16 == 0 ? STATES[u8() % 4] : STATES[i];
        states[i].tree = trees[u8() % ntrees];
    }
    tendon_transition_desc tr[4];
    predicate preds[4];
    const size_t tc = upto(4);
    for (size_t i = 0; i < tc; ++i) {
        tr[i].from = STATES[u8() % 4];
        tr[i].to = STATES[u8() % 4];
        tr[i].duration_sec = u8() % 4 ? (double)(u8() % 16) / 8.0 : dval();
        preds[i] = (predicate){PARAMS[u8() % PARAM_COUNT], u8() % 4,
                               (double)(int8_t)u8() / 16.0};
        tr[i].when = u8() % 4 ? predicate_fn : NULL;
        tr[i].user = &preds[i];
    }
    tendon_state_machine_desc md = {states, sc, tc ? tr : NULL, tc, jc, bindp, upto(4),
                                    (tendon_tier)(u8() % 2)};
    tendon_state_machine *m = (tendon_state_machine *)(uintptr_t)1;
    const tendon_status ms = tendon_state_machine_create(&md, &m);
    if (!settle(ms, "tendon_state_machine_create") && m)
        fail("%s refused and left *out non-NULL%s", "tendon_state_machine_create", "");
    rec_end("tendon_state_machine_create");
    if (ms == TENDON_OK) {
        const size_t steps = upto(12);
        for (size_t k = 0; k < steps; ++k) {
            const int what = u8() % 4;
            if (what == 0) {
                settle(tendon_state_machine_set(m, param_name(), dval()),
                       "tendon_state_machine_set");
                rec_end("tendon_state_machine_set");
            } else if (what == 1) {
                tendon_state_machine_info before, after;
                tendon_state_machine_get_info(m, &before);
                const tendon_status st = tendon_state_machine_advance(
                    m, u8() % 4 ? (double)(int8_t)u8() / 32.0 : dval());
                settle(st, "tendon_state_machine_advance");
                tendon_state_machine_get_info(m, &after);
                if (st != TENDON_OK &&
                    (before.current != after.current || before.leaving != after.leaving ||
                     !same_doubles(&before.fade_elapsed_sec, &after.fade_elapsed_sec, 1)))
                    fail("%s refused and changed the machine%s", "tendon_state_machine_advance",
                         "");
                rec_u64(strlen(after.current)), rec_u64((uint64_t)after.transitioning);
                rec_doubles(&after.fade_elapsed_sec, 1), rec_doubles(&after.fade_duration_sec, 1);
                for (size_t s = 0; s < 4; ++s) {
                    double t = -1;
                    if (tendon_state_machine_state_time(m, STATES[s], &t) == TENDON_OK)
                        rec_doubles(&t, 1);
                }
                rec_end("tendon_state_machine_advance");
            } else {
                const int wrong = u8() % 16 == 0;
                tendon_pose o = pose_new(wrong ? jc + 1 : jc);
                pose_fill(&o);
                snap_pose(&o);
                if (settle(tendon_state_machine_evaluate(m, &o), "tendon_state_machine_evaluate"))
                    rec_pose(&o);
                rec_end("tendon_state_machine_evaluate");
                pose_free(&o);
            }
        }
        tendon_state_machine_destroy(m);
    }
    for (size_t i = 0; i < ntrees; ++i) {
        tendon_blend_tree_destroy(trees[i]);
        tree_parts_free(&tp[i]);
    }
    free(tp);
    pose_free(&bind);
}

/* ---- the spring rig (spring_rig.h) --------------------------------------------------------- */

typedef struct root_user {
    float m[16];
    int fail;
} root_user;

static tendon_status root_fn(void *user, double time, float out[16])
{
    const root_user *r = user;
    if (r->fail) {
        double x;
        tendon_spring_settings bad = {-1, 1, -1};
        (void)tendon_spring_settle_sec_lookback(&bad, TENDON_SPRING_LOOKBACK_SLOW_POLE, &x);
        return TENDON_ERR_VALUE;
    }
    memcpy(out, r->m, sizeof r->m);
    out[12] += (float)time * 0.25f; /* moving along x: a pure function of time */
    return TENDON_OK;
}

static double weight_value;
static void weight_fn(void *user, const double *times, size_t count, double *out)
{
    (void)user;
    for (size_t i = 0; i < count; ++i)
        out[i] = weight_value + 0.125 * times[i];
}

static void op_rig(void)
{
    CURRENT_OP = "spring rig";
    const size_t n = 2 + upto(14);
    tendon_skeleton *sk = make_skeleton(n, NULL);
    if (!sk)
        return;
    const int32_t *parents = tendon_skeleton_parents(sk);
    /* chains: from a joint, down its first child while there is one */
    enum { CHAINS = 3, CHAIN_JOINTS = 6 };
    uint32_t cj[CHAINS][CHAIN_JOINTS];
    tendon_spring_rig_chain chains[CHAINS];
    tendon_spring_settings settings[CHAINS][CHAIN_JOINTS];
    double rest_offsets[CHAINS][3 * CHAIN_JOINTS];
    const size_t ncs = 1 + upto(CHAINS - 1);
    for (size_t c = 0; c < ncs; ++c) {
        size_t len = 0;
        uint32_t j = (uint32_t)upto(n - 1);
        const size_t want = 2 + upto(CHAIN_JOINTS - 2);
        cj[c][len++] = j;
        while (len < want) {
            uint32_t child = UINT32_MAX;
            for (size_t k = j + 1; k < n; ++k)
                if (parents[k] == (int32_t)j) {
                    child = (uint32_t)k;
                    break;
                }
            if (child == UINT32_MAX || u8() % 16 == 0)
                child = (uint32_t)upto(n); /* not a path (or out of range): refused */
            cj[c][len++] = child;
            j = child;
            if (j >= n)
                break;
        }
        const size_t links = len - 1;
        const size_t nset = u8() % 2 ? 1 : links;
        for (size_t k = 0; k < nset; ++k)
            settings[c][k] = (tendon_spring_settings){u8() % 2 ? 2.0 : freq_val(),
                                                      u8() % 2 ? 0.5 : damp_val(), limit_val()};
        for (size_t k = 0; k < 3 * links; ++k)
            rest_offsets[c][k] = (double)(int8_t)u8() / 64.0;
        chains[c] = (tendon_spring_rig_chain){NULL, NULL, cj[c], len, {fval(), fval(), fval()},
                                              settings[c], nset,
                                              u8() % 2 ? rest_offsets[c] : NULL};
        if (u8() % 8 == 0)
            chains[c].anchor_offset[0] = (float)(int8_t)u8() / 8.0f;
    }
    /* the source: clips (base, blend, layer) or a tree */
    clip_parts cps[3];
    tendon_clip *clips[3] = {NULL, NULL, NULL};
    const size_t nclips = upto(3);
    for (size_t i = 0; i < nclips; ++i)
        clips[i] = make_clip(u8() % 16 == 0 ? n + 1 : n, &cps[i]);
    tree_parts tp;
    memset(&tp, 0, sizeof tp);
    tendon_blend_tree *tree = NULL;
    float *mask = falloc(n);
    for (size_t j = 0; j < n; ++j)
        mask[j] = (float)u8() / 255.0f;
    tendon_pose ref = pose_new(n);
    pose_fill(&ref);
    weight_value = (double)u8() / 255.0;
    tendon_spring_rig_source src = {0};
    src.kind = (tendon_rig_source_kind)(u8() % 4 == 0 ? 1 : 0);
    if (src.kind == TENDON_RIG_SOURCE_TREE) {
        tree = make_tree(n, &tp, NULL);
        src.tree = tree;
    } else {
        src.base = (tendon_rig_clip){clips[0], (double)(int8_t)u8() / 16.0, u8() % 2};
        src.blend = (tendon_rig_clip){clips[1], 0.0, u8() % 2};
        src.blend_weight = (tendon_rig_weight){u8() % 2 ? weight_fn : NULL, NULL, weight_value};
        src.layer = (tendon_rig_clip){clips[2], 0.0, u8() % 2};
        src.layer_mode = (tendon_rig_layer_mode)(u8() % 2);
        src.layer_weight = (tendon_rig_weight){NULL, NULL, weight_value};
        src.layer_mask = u8() % 2 ? mask : NULL;
        src.layer_reference =
            src.layer_mode == TENDON_RIG_LAYER_ADDITIVE && u8() % 2 ? &ref : NULL;
    }
    root_user ru;
    make_matrix(ru.m);
    ru.fail = u8() % 16 == 0;
    tendon_spring_rig_desc d = {sk, chains, ncs, src, (tendon_tier)(u8() % 2),
                                (tendon_spring_lookback)(u8() % 3), 4096,
                                u8() % 3 == 0 ? root_fn : NULL, &ru};
    tendon_spring_rig *rig = (tendon_spring_rig *)(uintptr_t)1;
    const tendon_status cs = tendon_spring_rig_create(&d, &rig);
    if (settle(cs, "tendon_spring_rig_create")) {
        rec_u64(tendon_spring_rig_link_count(rig)), rec_u64(tendon_spring_rig_grid_count(rig));
    } else if (rig) {
        fail("%s refused and left *out non-NULL%s", "tendon_spring_rig_create", "");
    }
    rec_end("tendon_spring_rig_create");
    if (cs == TENDON_OK) {
        size_t bytes = 0;
        (void)tendon_spring_rig_workspace_size(rig, &bytes);
        unsigned char *ws = malloc(bytes + 1);
        const size_t lc = tendon_spring_rig_link_count(rig);
        float *pos = falloc(3 * lc), *pos2 = falloc(3 * lc);
        tendon_pose pose = pose_new(n), pose2 = pose_new(n), scratch = pose_new(n);
        const double t = u8() % 4 ? (double)(int8_t)u8() / 16.0 : dval();
        if (settle(tendon_spring_rig_source_pose(rig, t, &scratch, &pose),
                   "tendon_spring_rig_source_pose"))
            rec_pose(&pose);
        else
            pose_rest(&pose);
        rec_end("tendon_spring_rig_source_pose");
        pose_copy_bits(&pose2, &pose);
        snap(pos, 3 * lc * sizeof(float));
        snap_pose(&pose);
        const tendon_status ss =
            tendon_spring_rig_sample(rig, t, ws, bytes, pos, 3 * lc, u8() % 2 ? &pose : NULL);
        if (settle(ss, "tendon_spring_rig_sample")) {
            rec_floats(pos, 3 * lc);
            rec_pose(&pose);
            /* evaluate + march through every table: the same positions */
            for (size_t k = 0; k < table_count; ++k) {
                if (tendon_spring_rig_evaluate_on(TABLES[k], rig, t, ws, bytes) != TENDON_OK ||
                    tendon_spring_rig_march_on(TABLES[k], rig, t, ws, bytes, pos2, 3 * lc,
                                               NULL) != TENDON_OK ||
                    !same_floats(pos, pos2, 3 * lc))
                    fail("tendon_spring_rig_evaluate_on + march_on(%s) differ from %s",
                         tendon_isa_name(TABLES[k]->isa), "tendon_spring_rig_sample");
            }
            /* the last anchor of each chain (at t itself) == the single-time path */
            for (size_t c = 0; c < tendon_spring_rig_chain_count(rig); ++c) {
                const size_t times = tendon_spring_rig_chain_times(rig, c);
                float *an = falloc(3 * times);
                double *at = malloc(times * sizeof *at);
                float one[3], *model = falloc(16 * n);
                if (tendon_spring_rig_evaluated_anchors(rig, ws, bytes, c, an, 3 * times, at,
                                                        times) != TENDON_OK)
                    fail("%s refused after a sample%s", "tendon_spring_rig_evaluated_anchors",
                         "");
                if (tendon_spring_rig_anchor(rig, c, at[times - 1], &pose2, &scratch, model,
                                             one) != TENDON_OK ||
                    !same_floats(one, an + 3 * (times - 1), 3))
                    fail("%s differs from the batched evaluation (%s)",
                         "tendon_spring_rig_anchor", "tendon_spring_rig_evaluated_anchors");
                rec_floats(an, 3 * times);
                free(an), free(at), free(model);
            }
        }
        rec_end("tendon_spring_rig_sample");
        /* a march without (or with a stale) evaluation: refused, nothing written */
        memset(ws, 0, bytes);
        snap(pos2, 3 * lc * sizeof(float));
        settle(tendon_spring_rig_march(rig, t, ws, bytes, pos2, 3 * lc, NULL),
               "tendon_spring_rig_march");
        rec_end("tendon_spring_rig_march");
        /* positions -> rotations for chain 0 on its own */
        if (ss == TENDON_OK && lc > 0) {
            const size_t c0 = tendon_spring_rig_chain_link_count(rig, 0);
            uint32_t js[CHAIN_JOINTS];
            for (size_t k = 0; k <= c0 && k < CHAIN_JOINTS; ++k)
                js[k] = tendon_spring_rig_chain_joint(rig, 0, k);
            snap_pose(&pose2);
            if (settle(tendon_spring_chain_pose(sk, js, c0 + 1, pos, u8() % 2 ? ru.m : NULL,
                                                &pose2),
                       "tendon_spring_chain_pose"))
                rec_pose(&pose2);
            rec_end("tendon_spring_chain_pose");
        }
        free(ws), free(pos), free(pos2);
        pose_free(&pose), pose_free(&pose2), pose_free(&scratch);
        tendon_spring_rig_destroy(rig);
    }
    tendon_blend_tree_destroy(tree);
    tree_parts_free(&tp);
    for (size_t i = 0; i < nclips; ++i) {
        tendon_clip_destroy(clips[i]);
        clip_parts_free(&cps[i]);
    }
    free(mask);
    pose_free(&ref);
    tendon_skeleton_destroy(sk);
}

/* ---- the table --------------------------------------------------------------------------- */

static const struct op {
    const char *name;
    void (*run)(void);
} OPS[] = {
    {"quat", op_quat},   {"pose", op_pose},   {"skeleton", op_skeleton}, {"ik", op_ik},
    {"clip", op_clip},   {"spring", op_spring}, {"skin", op_skin},       {"graph", op_graph},
    {"spring rig", op_rig},
};
enum { OP_COUNT = sizeof OPS / sizeof OPS[0] };
