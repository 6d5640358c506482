/*
 * tendon — the command line of the tendon library: info, replay, digest, bench, demo (docs/cli.md).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include <tendon/tendon.h>

#include "cli.h"

static const char USAGE[] =
    "usage: tendon <command> [options]\n"
    "\n"
    "commands:\n"
    "  info     the CPU, each ISA (compiled / emulated / absent, usable or not) and the active one\n"
    "  replay   JSON cases on stdin, the same cases with an `actual` result on stdout\n"
    "  digest   determinism hashes of every kernel on every ISA that can run here\n"
    "  bench    run the tendon-bench harness and print ns per item and speed-up over scalar\n"
    "  demo     the whole frame of a skinned character on every ISA: times, hashes, a chart\n"
#ifdef TENDON_CLI_HAVE_GLTF
    "  sample   a glTF model's skins, channels and skinned vertices at given times, as JSON\n"
#endif
    "\n"
    "`tendon <command> --help` describes a command. `tendon --version` prints the version.\n"
    "Exit status: 0 done, 1 a problem found (differences, unusable ISA, harness failure),\n"
    "2 a usage error or unreadable / malformed input.\n";

static const char HINT[] = "hint: `tendon --help` lists the commands\n";

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
} COMMANDS[] = {
    {"info", cmd_info},
    {"replay", cmd_replay},
    {"digest", cmd_digest},
    {"bench", cmd_bench},
    {"demo", cmd_demo},
#ifdef TENDON_CLI_HAVE_GLTF
    {"sample", cmd_sample},
#endif
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(USAGE, stderr);
        return CLI_USAGE;
    }
    const char *name = argv[1];
    if (cli_is_help(name) || strcmp(name, "help") == 0) {
        if (strcmp(name, "help") == 0 && argc > 2) {
            for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; ++i) {
                if (strcmp(argv[2], COMMANDS[i].name) == 0) {
                    char *help[] = {argv[2], "--help", NULL};
                    return COMMANDS[i].run(2, help);
                }
            }
            fprintf(stderr, "tendon: unknown command \"%s\"\n%s", argv[2], HINT);
            return CLI_USAGE;
        }
        fputs(USAGE, stdout);
        return CLI_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("tendon %s\n", tendon_version());
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; ++i) {
        if (strcmp(name, COMMANDS[i].name) == 0) {
            int rc = COMMANDS[i].run(argc - 1, argv + 1);
            if (fflush(stdout) != 0 || ferror(stdout)) {
                fprintf(stderr, "tendon %s: cannot write the output\n", name);
                return CLI_USAGE;
            }
            return rc;
        }
    }
    fprintf(stderr, "tendon: unknown command \"%s\"\n%s", name, HINT);
    return CLI_USAGE;
}
