/*
 * `tendon digest` as a wasm32-wasi command (wasm/CMakeLists.txt): the native tool's digest.c,
 * cli.c and data.c, with this main and the floating-point-environment helpers of a machine that
 * has none (WebAssembly is always round to nearest, no flush to zero). Run by
 * wasm/test/digest.test.mjs under node's WASI, once per module: `tendon digest --expect FILE`
 * checks every kernel of every ISA the module has (scalar; scalar and simd128) against
 * tests/data/golden.digest.
 */
#include <stdio.h>
#include <string.h>

#include <tendon/tendon.h>

#include "cli.h"

const char CLI_FPENV_MODES[] = "default (WebAssembly has no other)";

void cli_fpenv_line(FILE *f, const char *prefix)
{
    char d[200];
    tendon_fpenv_describe(tendon_fpenv_read(), d, sizeof d);
    fprintf(f, "%sfp environment: %s; library mode %s\n", prefix, d, tendon_fpenv_mode());
}

int cli_fpenv_set(const char *mode) { return strcmp(mode, "default") == 0 ? 0 : -1; }

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "digest") != 0) {
        fputs("usage: tendon-digest.wasm digest [options of `tendon digest`]\n", stderr);
        return CLI_USAGE;
    }
    return cmd_digest(argc - 1, argv + 1);
}
