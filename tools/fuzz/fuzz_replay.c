/*
 * libFuzzer target: `tendon replay` on arbitrary bytes as its stdin (docs/fuzzing.md).
 *
 * The command's own code (tools/tendon/replay.c and json.c) is linked in and called as the
 * command line calls it, cmd_replay(argc, argv), with stdin read from the fuzz input (fmemopen),
 * stdout captured (open_memstream) and stderr sent to /dev/null (glibc's standard streams are
 * assignable variables). Each input runs twice:
 *
 *   1. `tendon replay` on the best ISA this CPU runs (the public API, dispatched);
 *   2. `tendon replay --isa all`: every case with a kernel on every ISA that runs here, emulated
 *      NEON included, compared by the command itself (exit status 1 = an ISA differs).
 *
 * The contract checked, aborting on a violation:
 *   - no crash, leak, out-of-bounds access or undefined behaviour (ASan + UBSan);
 *   - the exit status is 0 (done) or 2 (malformed input), never 1 (ISAs disagree) nor another;
 *   - the two runs write the same text: `actual` is the scalar result under --isa all and the
 *     dispatched ISA's without it, and the writer spells every NaN "NaN", so the outputs agree
 *     exactly when every ISA gives the scalar bits, NaNs compared by class (docs/determinism.md).
 *
 * Inputs larger than 64 KiB are skipped: the command reads any size, but the fuzzer's work per
 * input must stay bounded (the seed corpus files are at most a few KiB).
 */
#define _GNU_SOURCE /* fmemopen, open_memstream */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tendon/tendon.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

/* Run `tendon replay ARGS...` on data; returns the exit status, *out the text it wrote. */
static int run_replay(const uint8_t *data, size_t size, int argc, char **argv, char **out,
                      size_t *out_len)
{
    /* glibc >= 2.22 takes a zero size (an empty stdin). */
    static char empty[1];
    FILE *in = fmemopen(size ? (void *)data : empty, size, "r");
    if (!in)
        abort();
    FILE *mem = open_memstream(out, out_len);
    if (!mem)
        abort();
    FILE *saved_in = stdin, *saved_out = stdout, *saved_err = stderr;
    stdin = in;
    stdout = mem;
    stderr = devnull;
    const int rc = cmd_replay(argc, argv);
    stdin = saved_in;
    stdout = saved_out;
    stderr = saved_err;
    fclose(in);
    fclose(mem);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    if (!devnull && !(devnull = fopen("/dev/null", "w")))
        abort();

    /* The best ISA dispatch may pick here (never an emulated one). */
    tendon_isa best = TENDON_ISA_SCALAR;
    for (int i = TENDON_ISA_COUNT - 1; i > 0; --i)
        if (tendon_isa_supported((tendon_isa)i)) {
            best = (tendon_isa)i;
            break;
        }
    if (tendon_isa_force(best) != TENDON_OK)
        abort();

    char arg0[] = "replay", arg1[] = "--isa", arg2[] = "all";
    char *plain_argv[] = {arg0, NULL};
    char *all_argv[] = {arg0, arg1, arg2, NULL};
    char *plain = NULL, *all = NULL;
    size_t plain_len = 0, all_len = 0;
    const int rc_plain = run_replay(data, size, 1, plain_argv, &plain, &plain_len);
    const int rc_all = run_replay(data, size, 3, all_argv, &all, &all_len);

    if (rc_plain != CLI_OK && rc_plain != CLI_USAGE) {
        fprintf(stderr, "fuzz_replay: `tendon replay` exited %d (0 or 2 expected)\n", rc_plain);
        abort();
    }
    if (rc_all != CLI_OK && rc_all != CLI_USAGE) {
        fprintf(stderr, "fuzz_replay: `tendon replay --isa all` exited %d: an ISA differs from "
                        "scalar (0 or 2 expected)\n", rc_all);
        abort();
    }
    if (rc_plain != rc_all || plain_len != all_len || memcmp(plain, all, plain_len) != 0) {
        fprintf(stderr, "fuzz_replay: `tendon replay` on %s (exit %d) and `--isa all` (scalar, "
                        "exit %d) wrote different results:\n--- %s:\n%.*s\n--- scalar:\n%.*s\n",
                tendon_isa_name(best), rc_plain, rc_all, tendon_isa_name(best),
                (int)(plain_len < 4000 ? plain_len : 4000), plain,
                (int)(all_len < 4000 ? all_len : 4000), all);
        abort();
    }
    free(plain);
    free(all);
    return 0;
}
