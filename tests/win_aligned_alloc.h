/*
 * Windows only, the test suites only: forced in front of every suite's source by
 * tests/CMakeLists.txt when WIN32 (docs/windows.md). The suites allocate their 64-byte-aligned
 * buffers with C11 aligned_alloc and release them with free(), as on Linux; Windows' C runtimes
 * have no aligned_alloc, and free() cannot release an _aligned_malloc block. So here
 * aligned_alloc over-allocates with malloc and records, just before the aligned pointer, a
 * check word and the block malloc returned; free() releases that block for such a pointer and
 * passes every other pointer (malloc, calloc, strdup, jansson's) to the C runtime's free
 * unchanged. The library itself does not use this: it has its own pair (src/common/aligned.h).
 */
#ifndef TENDON_TESTS_WIN_ALIGNED_ALLOC_H
#define TENDON_TESTS_WIN_ALIGNED_ALLOC_H
#if defined(_WIN32)
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>

#define TENDON_TEST_ALIGNED_TAG ((uintptr_t)0x7e6d0a11c0ffee5bull)

static inline void *tendon_test_aligned_alloc(size_t alignment, size_t size)
{
    if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment > 4096)
        return NULL; /* not a power of two (glibc fails these too); over a page: not needed */
    if (alignment < 16)
        alignment = 16;
    if (size > SIZE_MAX - alignment - 2 * sizeof(uintptr_t))
        return NULL;
    unsigned char *raw = (malloc)(size + alignment + 2 * sizeof(uintptr_t));
    if (!raw)
        return NULL;
    uintptr_t at = (uintptr_t)(raw + 2 * sizeof(uintptr_t));
    at = (at + alignment - 1) & ~(uintptr_t)(alignment - 1);
    uintptr_t *head = (uintptr_t *)at - 2;
    head[0] = (uintptr_t)raw ^ TENDON_TEST_ALIGNED_TAG;
    head[1] = (uintptr_t)raw;
    return (void *)at;
}

static inline void tendon_test_free(void *p)
{
    if (p && ((uintptr_t)p & 15) == 0) {
        const uintptr_t *head = (const uintptr_t *)p - 2;
        if ((head[0] ^ TENDON_TEST_ALIGNED_TAG) == head[1] && (uintptr_t)p > head[1] &&
            (uintptr_t)p - head[1] <= 4096 + 2 * sizeof(uintptr_t)) {
            (free)((void *)head[1]);
            return;
        }
    }
    (free)(p);
}

#define aligned_alloc(alignment, size) tendon_test_aligned_alloc((alignment), (size))
#define free(p) tendon_test_free(p)
#endif
#endif
