/*
 * Shared helpers for the Check suites: a seeded RNG, bit-level float comparison (NaN by class),
 * hex dumps for failure messages, the ISA loop, the test-data path, and random inputs.
 */
#ifndef TENDON_TEST_SUPPORT_H
#define TENDON_TEST_SUPPORT_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include <tendon/tendon.h>

/* The suites' own 64-byte-aligned buffers: the library's pair (aligned_alloc + free on Linux,
   _aligned_malloc + _aligned_free on Windows), released only by tendon_aligned_free. */
#include "common/aligned.h"

/*
 * Accuracy sweeps (a reference function against MPFR over many points) take every
 * TENDON_TEST_THIN-th point under an emulator (tests/CMakeLists.txt): the scalar C measured is
 * the same on every target, and its bits are compared across targets by the digest.
 */
#if defined(TENDON_TEST_UNDER_EMULATOR)
#define TENDON_TEST_THIN 8u
#else
#define TENDON_TEST_THIN 1u
#endif


#ifndef TENDON_TEST_DATA_DIR
#error "TENDON_TEST_DATA_DIR must point at tests/data"
#endif

/* xorshift64*: deterministic across machines; seeds are printed on failure. */
typedef struct test_rng {
    uint64_t state;
} test_rng;
void rng_seed(test_rng *r, uint64_t seed);
uint64_t rng_u64(test_rng *r);
double rng_unit(test_rng *r);                 /* [0, 1) */
double rng_range(test_rng *r, double lo, double hi);
void rng_unit_quat(test_rng *r, float q[4]);  /* uniform on the 3-sphere, float */

/* Same bits, or both NaN (any sign or payload). */
int same_float(float a, float b);
/* The first index where two float arrays differ under same_float, or -1. */
long first_float_diff(const float *a, const float *b, size_t n);
/* Bit pattern of a float, for messages. */
uint32_t float_bits(float f);
/*
 * Distance in float32 ulps between two finite floats of the same sign: |bits(a) − bits(b)|
 * (0 for identical bits). −1 when they cannot be compared that way: a NaN or an infinity that
 * is not bit-identical to the other, or opposite signs (so −0 against +0 is −1, not 0 or 1).
 */
int64_t float_ulp_distance(float a, float b);

/*
 * The kernel table of an ISA in a loop test (tcase_add_loop_test(tc, fn, 0, TENDON_ISA_COUNT)):
 * NULL means "not runnable here" — the caller should return after saying so.
 */
const tendon_kernels *isa_table_or_skip(int isa);

/*
 * A call refused for a misaligned argument: st is TENDON_ERR_VALUE and the message names the
 * call, the argument and the alignment (else the test fails, saying which).
 */
void expect_misaligned(tendon_status st, const char *call, const char *name);

/* Read a whole file from tests/data (path relative to it); abort the test on failure. */
char *read_test_file(const char *relative, size_t *size_out);

/*
 * A suite started under TENDON_ISA=<name> (ctest registers the API suites once per ISA) checks
 * first that the active ISA is the one requested. Returns 1 if TENDON_ISA names an ISA that
 * cannot run here: the caller then exits with 77 (ctest SKIP_RETURN_CODE).
 */
int env_isa_unusable(void);

/*
 * The case of tests/data/bugs/bugs.json with this id (a borrowed reference: the file is read
 * once per process and kept); aborts the test if it is missing.
 */
struct json_t;
struct json_t *test_bug_case(const char *id);

/* Run a suite with Check's default settings; returns the process exit status. */
int run_suite(Suite *s);

#endif
