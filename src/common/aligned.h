/*
 * Internal: 64-byte-aligned blocks the library allocates and frees itself (pose arrays, skin
 * bindings, prepared meshes, scratch). C11's aligned_alloc + free on every system that has
 * them — Linux and macOS, unchanged; Windows' C runtimes (msvcrt, UCRT) have no aligned_alloc,
 * and free() cannot release an _aligned_malloc block, so there both go through
 * _aligned_malloc / _aligned_free (MinGW-w64 and MSVC alike; docs/windows.md). A block from
 * tendon_aligned_alloc is released only by tendon_aligned_free. Not installed.
 */
#ifndef TENDON_COMMON_ALIGNED_H
#define TENDON_COMMON_ALIGNED_H

#include <stdlib.h>

#if defined(_WIN32)
#include <malloc.h>
static inline void *tendon_aligned_alloc(size_t alignment, size_t size)
{
    return _aligned_malloc(size, alignment);
}
static inline void tendon_aligned_free(void *block) { _aligned_free(block); }
#else
static inline void *tendon_aligned_alloc(size_t alignment, size_t size)
{
    return aligned_alloc(alignment, size);
}
static inline void tendon_aligned_free(void *block) { free(block); }
#endif

#endif
