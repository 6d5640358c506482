/*
 * Where the tools' data is: the files installed under share/tendon (golden.digest, the case
 * format CASES-README.md, LICENSE, NOTICE), found the same way from an install prefix and from
 * the build tree, which holds a copy at build/share/tendon (CMakeLists.txt). docs/integration.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(_WIN32)
#include <windows.h> /* GetModuleFileNameA: Windows has no /proc/self/exe (docs/windows.md) */
#endif

#include "cli.h"

#ifndef TENDON_CLI_DATADIR
#define TENDON_CLI_DATADIR "/usr/local/share/tendon"
#endif

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Candidate k (0, 1, 2) for `name` into out[size]; 0, or -1 when there is no such candidate. */
static int candidate(int k, const char *name, char *out, size_t size)
{
    int n = -1;
    if (k == 0) {
        const char *env = getenv("TENDON_DATA_DIR");
        if (!env || !*env)
            return -1;
        n = snprintf(out, size, "%s/%s", env, name);
    } else if (k == 1) {
        /* <prefix>/bin/tendon → <prefix>/share/tendon; build/tools/tendon → build/share/tendon */
        char self[PATH_MAX];
#if defined(_WIN32)
        const DWORD len = GetModuleFileNameA(NULL, self, (DWORD)sizeof self);
        if (len == 0 || len >= sizeof self)
            return -1;
        self[len] = '\0';
        char *slash = strrchr(self, '\\');
        char *fwd = strrchr(self, '/');
        if (fwd && (!slash || fwd > slash))
            slash = fwd;
#else
        const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
        if (len <= 0)
            return -1;
        self[len] = '\0';
        char *slash = strrchr(self, '/');
#endif
        if (!slash)
            return -1;
        *slash = '\0';
        n = snprintf(out, size, "%s/../share/tendon/%s", self, name);
    } else if (k == 2) {
        n = snprintf(out, size, "%s/%s", TENDON_CLI_DATADIR, name);
    }
    return n > 0 && (size_t)n < size ? 0 : -1;
}

/* $TENDON_DATA_DIR when set and not empty: then it is the only place looked in. */
static const char *data_dir_env(void)
{
    const char *env = getenv("TENDON_DATA_DIR");
    return env && *env ? env : NULL;
}

int cli_data_file(const char *name, char *out, size_t size)
{
    const int last = data_dir_env() ? 0 : 2; /* an explicit directory is not fallen back from */
    for (int k = 0; k <= last; ++k)
        if (candidate(k, name, out, size) == 0 && is_file(out))
            return 0;
    return -1;
}

void cli_data_searched(FILE *f, const char *name)
{
    char path[PATH_MAX + 64];
    const char *sep = "";
    const int last = data_dir_env() ? 0 : 2;
    for (int k = 0; k <= last; ++k) {
        if (candidate(k, name, path, sizeof path) == 0) {
            fprintf(f, "%s%s", sep, path);
            sep = ", ";
        }
    }
}

void cli_data_missing(FILE *f, const char *name)
{
    const char *env = data_dir_env();
    if (!env) {
        fprintf(f, "no %s in ", name);
        cli_data_searched(f, name);
        return;
    }
    struct stat st;
    char path[PATH_MAX + 64];
    if (stat(env, &st) != 0)
        fprintf(f, "TENDON_DATA_DIR=\"%s\" does not exist (%s)", env, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        fprintf(f, "TENDON_DATA_DIR=\"%s\" is not a directory", env);
    else if (candidate(0, name, path, sizeof path) != 0)
        fprintf(f, "TENDON_DATA_DIR=\"%s\" is too long a path", env);
    else
        fprintf(f, "TENDON_DATA_DIR=\"%s\" has no %s (%s: %s)", env, name, path,
                stat(path, &st) != 0 ? strerror(errno) : "not a regular file");
    fputs(": when set, it is the only place looked in (unset it to use the installed data)", f);
}
