/*
 * `tendon bench` in the Windows build (tools/CMakeLists.txt compiles this instead of bench.c
 * there): the real command runs the Google Benchmark harness tendon-bench through fork/execv
 * and filters with POSIX <regex.h>, and the harness itself is not built for Windows (Google
 * Benchmark has no MinGW package in Debian; docs/windows.md). So it says so and exits 1 (the
 * tool's "found a problem" status), rather than pretending to have measured anything.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

const char USAGE_BENCH[] =
    "usage: tendon bench [...]\n"
    "\n"
    "Not available in the Windows build: it runs the Google Benchmark harness tendon-bench,\n"
    "which is built on Linux only (docs/windows.md). Run `tendon bench` from a Linux build.\n";

int cmd_bench(int argc, char **argv)
{
    if (argc >= 2 && cli_is_help(argv[1])) {
        fputs(USAGE_BENCH, stdout);
        return CLI_OK;
    }
    cli_error("bench", "not available in the Windows build (the tendon-bench harness is built "
                       "on Linux only: docs/windows.md)");
    return CLI_FAIL;
}
