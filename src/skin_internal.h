/*
 * Internal: the argument checks tendon_skin (src/skin.c) and the prepared mesh
 * (src/skin_mesh.c) share. Not installed.
 */
#ifndef TENDON_SKIN_INTERNAL_H
#define TENDON_SKIN_INTERNAL_H

#include <stddef.h>

#include "common/kernels_internal.h"

/* One byte-strided attribute of a skin job, for the checks. */
typedef struct attr {
    const char *name;
    const void *p;
    size_t stride; /* resolved: nonzero */
    size_t elem;   /* bytes of one element */
    size_t extent; /* bytes from p to the end of the last element */
} attr;

/*
 * Resolve *stride_io (0 → elem, packed) and check it (≥ elem, a multiple of align), then, for
 * count > 0, a->p: non-NULL, aligned, and its byte extent inside size_t and the address space.
 * Sets a->stride, a->elem, a->extent. Messages name `fn` and a->name.
 */
TENDON_HIDDEN tendon_status tendon_skin_check_attr(const char *fn, attr *a, size_t *stride_io,
                                                   size_t elem, size_t align, size_t count);
/* Whether two checked attributes share a byte (interleaved attributes of one buffer do not). */
TENDON_HIDDEN int tendon_skin_attrs_overlap(const attr *a, const attr *b);
/* The first joint index ≥ job->palette_count in vertex order (strides resolved); 0 if none. */
TENDON_HIDDEN int tendon_skin_find_bad_index(const tendon_skin_job *job, size_t *vertex,
                                             size_t *influence, unsigned *value);

#endif
