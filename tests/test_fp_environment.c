/*
 * test_fp_environment — loading tendon's shared library leaves the process's floating-point
 * environment as it was (issue 14, docs/determinism.md): no crtfastmath.o constructor setting
 * flush-to-zero / denormals-are-zero, whatever flags the library was built with.
 *
 * The library is dlopen()ed from TENDON_FP_ENV_LIB (tools/quickstart points it at a copy built
 * with -ffast-math in CMAKE_C_FLAGS) or, by default, this build's own libtendon.so; the control
 * register (MXCSR on x86-64, FPCR on AArch64) is read before and after, and one denormal
 * operation is checked to still give a denormal.
 */
#define _GNU_SOURCE
#include "support.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t control_register(void)
{
#if defined(__x86_64__)
    uint32_t csr;
    __asm__ volatile("stmxcsr %0" : "=m"(csr));
    return csr;
#elif defined(__aarch64__)
    uint64_t fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    return fpcr;
#else
    return 0;
#endif
}

START_TEST(test_loading_changes_nothing)
{
    const char *lib = getenv("TENDON_FP_ENV_LIB");
    if (!lib || !*lib)
        lib = TENDON_SHARED_LIBRARY;
    const uint64_t before = control_register();
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    ck_assert_msg(h != NULL, "dlopen(%s): %s", lib, dlerror());
    const uint64_t after = control_register();
    ck_assert_msg(before == after,
                  "loading %s changed the floating-point control register from 0x%llx to 0x%llx "
                  "(a crtfastmath.o constructor sets FTZ/DAZ)",
                  lib, (unsigned long long)before, (unsigned long long)after);
    /* and a denormal still survives an operation: no flush */
    volatile float tiny = 1e-39f, two = 2.0f;
    const float r = tiny * two;
    ck_assert_msg(r != 0.0f, "a denormal product was flushed to zero after loading %s", lib);
    /* the library works as loaded: its version string is there */
    const char *(*version)(void) = (const char *(*)(void))dlsym(h, "tendon_version");
    ck_assert_msg(version && version() && *version(), "tendon_version not found in %s", lib);
    printf("loaded %s (tendon %s): control register 0x%llx unchanged\n", lib, version(),
           (unsigned long long)after);
    dlclose(h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fp_environment");
    TCase *tc = tcase_create("load");
    tcase_add_test(tc, test_loading_changes_nothing);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
