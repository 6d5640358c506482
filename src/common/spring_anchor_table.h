/*
 * Internal: a spring anchor given as a table of its values at the times a sample will ask, for
 * a caller that computes every anchor value in one pass before the march (the WebAssembly
 * binding: a batched JavaScript function, one call out of the module per sample; a declarative
 * anchor evaluated in a tight loop). Not installed (docs/wasm.md: "Then the anchors as a table
 * the march reads").
 *
 * The anchor is tendon_spring_table_anchor with a tendon_spring_anchor_table as its user
 * pointer. Asked for a time, it looks first at the table's cursor, then through the rest of the
 * table from there (wrapping), and answers the first row whose time equals the one asked
 * (then the cursor is the next row); a time the table does not hold goes to `miss`. The march
 * kernels recognise this anchor and make the cursor's first probe themselves
 * (tendon_spring_plan_anchor): the same comparison, the same row, the same cursor afterwards —
 * what a call would give, bit for bit — without a call per substep, which in WebAssembly (an
 * indirect call, the state spilled around it) cost about a third of a batched sample.
 */
#ifndef TENDON_SPRING_ANCHOR_TABLE_H
#define TENDON_SPRING_ANCHOR_TABLE_H

#include <string.h>

#include "kernels_internal.h"

typedef struct tendon_spring_anchor_table {
    const double *times;          /* [count] */
    const float *values;          /* [width·count]: row i is the anchor at times[i] */
    size_t count;                 /* rows (0: every time goes to miss) */
    size_t width;                 /* floats a row: what the anchor writes per call (3 a spring) */
    size_t cursor;                /* the row looked at first; < count (0 when count is 0) */
    size_t misses;                /* times asked that no row held */
    tendon_spring_anchor_fn miss; /* asked for those (never NULL) */
    void *miss_user;
} tendon_spring_anchor_table;

/** The table's anchor: `table` is a tendon_spring_anchor_table (see above). */
TENDON_HIDDEN void tendon_spring_table_anchor(void *table, double time_sec, float *out);

/*
 * Substep n's row of the table when the plan's anchor is tendon_spring_table_anchor, its rows
 * are the plan's lanes wide, and the row at its cursor holds that substep's time (start + n·step): the cursor moved on, exactly as the
 * call would have done. NULL otherwise (the caller then calls plan->anchor at that time).
 */
static inline const float *tendon_spring_plan_row(const tendon_spring_march_plan *p, size_t n)
{
    if (p->anchor != tendon_spring_table_anchor)
        return NULL;
    tendon_spring_anchor_table *tb = p->user;
    const size_t i = tb->cursor;
    if (!(tb->width == p->lanes && i < tb->count && tb->times[i] == p->start_sec + (double)n * p->step_sec))
        return NULL;
    tb->cursor = i + 1 < tb->count ? i + 1 : 0;
    return tb->values + tb->width * i;
}

/* Substep n's anchor into out (lanes floats): the table's row, or plan->anchor's call. */
static inline void tendon_spring_plan_anchor(const tendon_spring_march_plan *p, size_t n,
                                             float *out)
{
    const float *row = tendon_spring_plan_row(p, n);
    if (row)
        memcpy(out, row, p->lanes * sizeof(float));
    else
        p->anchor(p->user, p->start_sec + (double)n * p->step_sec, out);
}

#endif
