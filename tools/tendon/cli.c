/*
 * The helpers every `tendon` command shares (cli.h): error and usage messages, option values.
 * Apart from main.c so that a harness (tools/fuzz/fuzz_replay.c) can link a command without main.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <tendon/tendon.h>

#include "cli.h"

void cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tendon %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_usage_error(const char *cmd, const char *usage, const char *fmt, ...)
{
    (void)usage; /* the whole usage is --help's: a mistake gets one line and where to look */
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tendon %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nhint: `tendon %s --help` lists the options\n", cmd);
    va_end(ap);
    return CLI_USAGE;
}

int cli_opt_value(int argc, char **argv, int *i, const char *name, const char **value)
{
    const char *arg = argv[*i];
    const size_t len = strlen(name);
    if (strncmp(arg, name, len) != 0)
        return 0;
    if (arg[len] == '=') {
        *value = arg + len + 1;
        return 1;
    }
    if (arg[len] != '\0')
        return 0;
    if (*i + 1 >= argc)
        return -1;
    *value = argv[++*i];
    return 1;
}

int cli_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

void cli_isa_env_warn(const char *cmd, const char *why_unused)
{
    tendon_isa active;
    if (tendon_isa_active(&active) != TENDON_OK)
        fprintf(stderr, "tendon %s: warning: %s (ignored: %s)\n", cmd, tendon_error_message(),
                why_unused);
}
