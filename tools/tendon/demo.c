/*
 * tendon demo: the whole frame of a skinned character (built in, or a glTF model) on every ISA
 * that runs here, timed per stage, hashed per stage, with a table, a chart and JSON
 * (docs/demo.md; the pipeline is demo_core.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#define NOMINMAX
#include <windows.h> /* GetSystemInfo: the online CPUs */
#endif

#ifndef O_NONBLOCK
#define O_NONBLOCK 0 /* Windows: no FIFO to block on when opened */
#endif

/* CPUs online: sysconf on POSIX, GetSystemInfo on Windows; <= 0 when unknown. */
static long online_cpus(void)
{
#if defined(_WIN32)
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return (long)si.dwNumberOfProcessors;
#else
    return sysconf(_SC_NPROCESSORS_ONLN);
#endif
}

#include <tendon/tendon.h>

#include "cli.h"
#include "demo.h"
#include "json.h"

const char USAGE_DEMO[] =
    "usage: tendon demo [MODEL.glb|MODEL.gltf] [--animation NAME|INDEX] [--springs JOINT,...]\n"
    "                   [--seconds S] [--fps F] [--vertices N] [--tier exact|f32] [--isa LIST]\n"
    "                   [--no-emulated] [--chart FILE] [--picture FILE] [--json FILE]\n"
    "                   [--expect FILE] [--characters N] [--threads T]\n"
    "\n"
    "Play a skinned character frame by frame on every ISA that can run here, each through its\n"
    "own kernel table in this one process: sample the clips, blend idle and walk, add the aim\n"
    "layer under a bone mask split at the spine, evaluate the spring rig's anchors (the pose at\n"
    "every substep time, batched) and march its chains (hair, coat), turning their joints,\n"
    "build the model matrices and the skinning palette, apply the face's morph\n"
    "targets, skin positions and normals. Each stage is timed (monotonic clock) and its outputs\n"
    "hashed (SHA-256 over every frame, NaNs canonical); the ISAs must give the same hashes.\n"
    "Without MODEL, a built-in character generated at start-up (no file needed).\n"
    "\n"
    "  MODEL          a glTF 2.0 model with a skin and an animation (every skinned\n"
    "                 primitive is skinned; what the model lacks is skipped with a note)\n"
    "  --animation A  the model's animation to play, by name or index (default: the first)\n"
    "  --springs LIST hang spring chains from these joints of MODEL (names, comma-separated):\n"
    "                 each chain is the joint and its first children down to a leaf, and\n"
    "                 turns those joints, so the skinned mesh follows (e.g. b_Tail01_012)\n"
    "  --seconds S    seconds of animation to play (default 2)\n"
    "  --fps F        frames per second (default 60)\n"
    "  --vertices N   the built-in character's vertex count, about (default 20000; 1000 to\n"
    "                 1000000)\n"
    "  --tier T       exact (default: the seed's double arithmetic) or f32 (the float32 tier's\n"
    "                 _f32 calls) for sampling, layering and the spring rig's anchors\n"
    "  --isa LIST     comma-separated ISAs to run, or `all` (default: every one that runs\n"
    "                 here); scalar always runs first: it is the reference\n"
    "  --no-emulated  leave out ISAs built through SIMDe emulation (NEON on x86-64): they\n"
    "                 compute the same bits, but their speed says nothing about the ISA\n"
    "  --chart FILE   write the SVG chart there (default tendon-demo.svg)\n"
    "  --picture FILE write an SVG of the skeleton and the spring chains at four frames, side by\n"
    "                 side (default tendon-demo-springs.svg; not written without springs)\n"
    "  --json FILE    write the report as JSON (docs/demo.md)\n"
    "  --expect FILE  check the stage hashes against FILE: lines `STAGE SHA256` (as printed\n"
    "                 under \"output hashes\"; # comments); exit 1 on a difference. Another\n"
    "                 machine's output, run with the same arguments, is such a file\n"
    "  --characters N a crowd: N characters (character c plays from c x 0.37 s) through the\n"
    "                 whole frame, each stage's hash over the characters in order; reports\n"
    "                 characters per 16.7 ms frame, and per core (divided by min(T, the\n"
    "                 online CPUs)). Runs the dispatched ISA (or each of --isa); writes no\n"
    "                 chart, picture or JSON (--chart, --picture, --json are refused)\n"
    "  --threads T    with --characters: on T POSIX threads (and on 1, for the scaling)\n"
    "\n"
    "--expect, --chart, --json and --picture are checked before the run: a FILE that cannot be\n"
    "read or is not `STAGE SHA256` lines, or an output that cannot be opened for writing, is a\n"
    "usage error.\n"
    "\n"
    "Exit status: 0 every ISA agreed (and matched --expect), 1 an ISA disagreed or failed or a\n"
    "hash differs from --expect, 2 usage error or unreadable model or --expect file.\n";

/* An --expect file, read and checked before any work: a hash per stage named. */
typedef struct expect_file {
    const char *path;
    int seen[DEMO_STAGE_COUNT];
    char hex[DEMO_STAGE_COUNT][65];
} expect_file;

/* Read `STAGE SHA256` lines (# comments, blank lines) from path into e. Returns 0, or 2 after
   saying why: unreadable, a malformed line, a name that is not a stage, a stage listed twice,
   no hash at all. */
static int load_expect(const char *path, expect_file *e)
{
    memset(e, 0, sizeof *e);
    e->path = path;
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_error("demo", "cannot read %s: %s", path, strerror(errno));
        return 2;
    }
    char line[512];
    int lineno = 0, count = 0, rc = 0;
    for (;;) {
        errno = 0;
        if (!fgets(line, sizeof line, f)) {
            if (ferror(f)) { /* a directory opens, and its first read fails (EISDIR) */
                cli_error("demo", "cannot read %s: %s", path, strerror(errno ? errno : EIO));
                rc = 2;
            }
            break;
        }
        ++lineno;
        /* a line longer than line[]: its rest is not a line of its own (a long comment; after a
           hash, ignored as below) */
        for (int ch = 0; !strchr(line, '\n') && !feof(f) && ch != '\n' && ch != EOF;)
            ch = fgetc(f);
        char name[64], hex[128];
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            ++p;
        if (*p == '#' || sscanf(p, "%63s", name) != 1)
            continue;
        /* what follows the hash is ignored: the "output hashes" lines end in a verdict
           ("every ISA agrees"), and they are what a user saves from another run */
        if (sscanf(p, "%63s %127s", name, hex) != 2 || strlen(hex) != 64 ||
            strspn(hex, "0123456789abcdef") != 64) {
            cli_error("demo", "%s:%d: expected `STAGE SHA256` (64 lowercase hex digits)", path,
                      lineno);
            rc = 2;
            break;
        }
        int st = 0;
        while (st < DEMO_STAGE_COUNT && strcmp(name, DEMO_STAGE_NAME[st]) != 0)
            ++st;
        if (st == DEMO_STAGE_COUNT) {
            char names[256];
            size_t n = 0;
            for (int k = 0; k < DEMO_STAGE_COUNT; ++k)
                n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", k ? ", " : "",
                                      DEMO_STAGE_NAME[k]);
            cli_error("demo", "%s:%d: \"%s\" is not a stage (the stages: %s)", path, lineno,
                      name, names);
            rc = 2;
            break;
        }
        if (e->seen[st]) {
            cli_error("demo", "%s:%d: stage %s is listed twice", path, lineno, name);
            rc = 2;
            break;
        }
        e->seen[st] = 1;
        memcpy(e->hex[st], hex, 65);
        ++count;
    }
    fclose(f);
    if (rc == 0 && count == 0) {
        cli_error("demo", "%s holds no hashes: expected `STAGE SHA256` lines (the \"output "
                  "hashes\" lines of another run)", path);
        rc = 2;
    }
    return rc;
}

/* Compare the stage hashes with e: 0 when every stage named matches (and every stage that ran is
   named), else 1, each difference printed. */
static int check_expect(const expect_file *e, const demo_scene *s,
                        const uint8_t hash[DEMO_STAGE_COUNT][32])
{
    int rc = 0;
    for (int st = 0; st < DEMO_STAGE_COUNT; ++st) {
        const int ran = demo_stage_items(s, st, NULL) != 0;
        if (!e->seen[st])
            continue;
        char mine[65];
        demo_hex(hash[st], mine);
        if (!ran || strcmp(mine, e->hex[st]) != 0) {
            printf("MISMATCH %s: %s, expected %s\n", DEMO_STAGE_NAME[st],
                   ran ? mine : "(stage not run)", e->hex[st]);
            rc = 1;
        }
    }
    for (int st = 0; st < DEMO_STAGE_COUNT; ++st) {
        if (demo_stage_items(s, st, NULL) && !e->seen[st]) {
            printf("MISMATCH %s: no hash for it in %s\n", DEMO_STAGE_NAME[st], e->path);
            rc = 1;
        }
    }
    if (rc == 0)
        printf("every stage matches %s\n", e->path);
    return rc;
}

/*
 * Whether path can be opened for writing, found before the run (the file is written after it):
 * NULL, or the reason. Nothing is left behind: a file this creates to find out is removed, an
 * existing one is opened without truncating it.
 */
static const char *writable(const char *path)
{
    if (!*path)
        return "an empty path";
    /* Another process may create or remove the same path between the two opens (two demos
       writing one chart): a file that vanished after EEXIST is tried again, a few times. */
    for (int attempt = 0;; ++attempt) {
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NONBLOCK, 0666);
        if (fd >= 0) {
            close(fd);
            unlink(path);
            return NULL;
        }
        if (errno != EEXIST)
            return strerror(errno);
        fd = open(path, O_WRONLY | O_NONBLOCK);
        if (fd >= 0) {
            close(fd);
            return NULL;
        }
        if (errno == ENXIO) /* a FIFO with no reader yet */
            return NULL;
        if (errno != ENOENT || attempt == 3)
            return strerror(errno);
    }
}

/*
 * Whether writing path a would overwrite what path b names: the same name, or (where inodes
 * mean something) one regular file by two names. A device or FIFO (/dev/null) may be shared.
 */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    const int ea = stat(a, &sa), eb = stat(b, &sb);
    if (ea == 0 && !S_ISREG(sa.st_mode))
        return 0;
    if (strcmp(a, b) == 0)
        return 1;
#if defined(_WIN32)
    (void)eb;
    return 0; /* st_ino is 0 for every file */
#else
    return ea == 0 && eb == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
#endif
}

/* An output (opt, path) that is the file of one of the n others (each NULL when not in use):
   the usage error, naming both; else 0. */
static int distinct_output(const char *opt, const char *path, const char *const *opts,
                           const char *const *paths, int n)
{
    for (int k = 0; k < n; ++k)
        if (paths[k] && same_file(path, paths[k]))
            return cli_usage_error("demo", USAGE_DEMO,
                                   "%s \"%s\" is also the %s file: %s", opt, path, opts[k],
                                   strcmp(opts[k], "--expect") == 0
                                       ? "the run would overwrite the hashes it checks"
                                       : "each output needs a file of its own");
    return 0;
}

typedef struct progress_state {
    size_t last;
    int tty;
} progress_state;

/* On a terminal, a line per ISA that counts up; otherwise one line per ISA when it is done. */
static void on_progress(void *user, int isa, size_t done, size_t total)
{
    progress_state *p = user;
    const size_t pct = done * 100 / total;
    if (done == total || (p->tty && pct / 10 != p->last / 10)) {
        fprintf(stderr, "\rtendon demo: %-8s %3zu%% (%zu/%zu frames)", tendon_isa_name(isa), pct,
                done, total);
        if (done == total)
            fputc('\n', stderr);
        fflush(stderr);
    }
    p->last = pct;
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    const double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= lo && v <= hi))
        return -1;
    *out = v;
    return 0;
}

/* A whole number in decimal digits (no sign, fraction, exponent or hex) within [lo, hi]. */
static int parse_count(const char *s, double lo, double hi, double *out)
{
    if (!*s)
        return -1;
    for (const char *p = s; *p; ++p)
        if (*p < '0' || *p > '9')
            return -1;
    return parse_double(s, lo, hi, out);
}

static void print_tables(const demo_scene *s, const demo_result *r, size_t count)
{
    printf("\nmicroseconds per frame (speed-up over scalar)\n%-8s %-14s", "stage", "items");
    for (size_t i = 0; i < count; ++i) {
        char head[32];
        snprintf(head, sizeof head, "%s%s", tendon_isa_name((tendon_isa)r[i].isa),
                 tendon_isa_compiled((tendon_isa)r[i].isa) == TENDON_ISA_EMULATED ? "(emu)" : "");
        printf(" %16s", head);
    }
    putchar('\n');
    double total[TENDON_ISA_COUNT] = {0};
    for (int st = 0; st < DEMO_STAGE_COUNT; ++st) {
        const char *item;
        const size_t items = demo_stage_items(s, st, &item);
        if (!items) {
            printf("%-8s %-14s %s\n", DEMO_STAGE_NAME[st], "-", "skipped (see notes)");
            continue;
        }
        char what[32];
        snprintf(what, sizeof what, "%zu %s", items,
                 items == 1 ? item : strcmp(item, "vertex") == 0 ? "vertices"
                                   : strcmp(item, "joint") == 0  ? "joints"
                                   : strcmp(item, "link") == 0   ? "links"
                                                                 : "joint evals");
        printf("%-8s %-14s", DEMO_STAGE_NAME[st], what);
        for (size_t i = 0; i < count; ++i) {
            const double us = r[i].ns_per_frame[st] / 1e3;
            total[i] += r[i].ns_per_frame[st];
            if (i == 0)
                printf(" %16.2f", us);
            else
                printf(" %9.2f %5.2fx", us, r[0].ns_per_frame[st] / r[i].ns_per_frame[st]);
        }
        putchar('\n');
    }
    printf("%-8s %-14s", "total", "");
    for (size_t i = 0; i < count; ++i) {
        const double us = total[i] / 1e3;
        if (i == 0)
            printf(" %16.2f", us);
        else
            printf(" %9.2f %5.2fx", us, total[0] / total[i]);
    }
    printf("\n\nnanoseconds per item\n%-8s %-14s", "stage", "item");
    for (size_t i = 0; i < count; ++i)
        printf(" %10s", tendon_isa_name((tendon_isa)r[i].isa));
    putchar('\n');
    for (int st = 0; st < DEMO_STAGE_COUNT; ++st) {
        const char *item;
        const size_t items = demo_stage_items(s, st, &item);
        if (!items)
            continue;
        printf("%-8s %-14s", DEMO_STAGE_NAME[st], item);
        for (size_t i = 0; i < count; ++i)
            printf(" %10.2f", r[i].ns_per_frame[st] / (double)items);
        putchar('\n');
    }
    printf("\noutput hashes (SHA-256 of each stage's outputs over every frame)\n");
    for (int st = 0; st < DEMO_STAGE_COUNT; ++st) {
        if (!demo_stage_items(s, st, NULL))
            continue;
        char hex[65];
        demo_hex(r[0].hash[st], hex);
        printf("%-8s %s  ", DEMO_STAGE_NAME[st], hex);
        if (demo_stage_agrees(r, count, st)) {
            printf("%s\n", count > 1 ? "every ISA agrees" : "(one ISA ran)");
            continue;
        }
        printf("MISMATCH:");
        for (size_t i = 1; i < count; ++i) {
            if (memcmp(r[i].hash[st], r[0].hash[st], 32) != 0) {
                demo_hex(r[i].hash[st], hex);
                printf(" %s %.16s…", tendon_isa_name((tendon_isa)r[i].isa), hex);
            }
        }
        putchar('\n');
    }
}

/* A crowd on each wanted ISA: once on 1 thread, once on `threads`; the hashes must agree. */
static int run_crowd(const demo_scene *s, const int *want, size_t characters, size_t threads,
                     size_t frames, double fps, const expect_file *expect)
{
    printf("\ncrowd: %zu characters x %zu frames, on 1 and %zu threads (POSIX threads of this "
           "tool; the library starts none)\n",
           characters, frames, threads);
    /* "per core" divides by the cores the threads can run on at once: T threads on fewer
       online CPUs share them */
    const long online = online_cpus();
    const size_t cpus = online > 0 ? (size_t)online : threads;
    printf("wall: the whole crowd, the SHA-256 of every output included; work: the stages' own\n"
           "time summed over the characters (as the one-character table times them); per core:\n"
           "chars/16.7ms divided by the cores the threads can use, min(threads, %zu online CPU%s)\n",
           cpus, cpus == 1 ? "" : "s");
    printf("%-8s %8s %10s %10s %14s %10s %9s %18s\n", "isa", "threads", "wall ms", "ms/frame",
           "chars/16.7ms", "per core", "scaling", "work: chars/core");
    int rc = CLI_OK;
    char why[1024];
    for (int i = 0; i < TENDON_ISA_COUNT; ++i) {
        if (!want[i])
            continue;
        const tendon_kernels *k = tendon_kernels_for((tendon_isa)i);
        demo_crowd_result r[2];
        const size_t runs = threads > 1 ? 2 : 1;
        double base = 0;
        for (size_t j = 0; j < runs; ++j) {
            const size_t t = j == 0 ? 1 : threads;
            if (demo_run_crowd(s, k, characters, t, frames, fps, &r[j], why, sizeof why) != 0) {
                cli_error("demo", "%s: %s", tendon_isa_name((tendon_isa)i), why);
                return CLI_FAIL;
            }
            const double ms_per_frame = r[j].wall_ns / 1e6 / (double)frames;
            const double per_frame = (double)characters * 16.7 / ms_per_frame;
            if (j == 0)
                base = per_frame;
            /* the stages' own time per character-frame, on one core */
            const double work_per = r[j].work_ns / ((double)characters * (double)frames);
            printf("%-8s %8zu %10.2f %10.3f %14.1f %10.1f %8.2fx %18.1f\n",
                   tendon_isa_name((tendon_isa)i), r[j].threads, r[j].wall_ns / 1e6, ms_per_frame,
                   per_frame, per_frame / (double)(r[j].threads < cpus ? r[j].threads : cpus),
                   per_frame / base,
                   16.7e6 / work_per);
        }
        printf("hashes (each stage: SHA-256 over the characters' own, in character order)\n");
        for (int st = 0; st < DEMO_STAGE_COUNT; ++st) {
            if (!demo_stage_items(s, st, NULL))
                continue;
            char hex[65];
            demo_hex(r[0].hash[st], hex);
            const int same = runs == 1 || memcmp(r[0].hash[st], r[1].hash[st], 32) == 0;
            printf("%-8s %s  %s\n", DEMO_STAGE_NAME[st], hex,
                   same ? (runs > 1 ? "the same on 1 and every thread count" : "")
                        : "MISMATCH between thread counts");
            if (!same)
                rc = CLI_FAIL;
        }
        if (expect && check_expect(expect, s, r[0].hash) != 0)
            rc = CLI_FAIL;
    }
    return rc;
}

int cmd_demo(int argc, char **argv)
{
    static const char C[] = "demo";
    const char *model = NULL, *animation = NULL, *json_path = NULL, *isa_list = NULL;
    const char *expect = NULL, *springs = NULL, *tier_name = NULL, *chars = NULL, *thr = NULL;
    const char *chart_opt = NULL, *picture_opt = NULL;
    double seconds = 2.0, fps = 60.0, vertices = 20000;
    int emulated = 1;
    const char *sec = NULL, *fp = NULL, *vert = NULL;
    for (int i = 1; i < argc; ++i) {
        const char *v = NULL;
        int m;
        if (cli_is_help(argv[i])) {
            fputs(USAGE_DEMO, stdout);
            return CLI_OK;
        }
        if (strcmp(argv[i], "--no-emulated") == 0) {
            emulated = 0;
            continue;
        }
#define OPT(name, var)                                                                          \
    if ((m = cli_opt_value(argc, argv, &i, name, &v)) != 0) {                                   \
        if (m < 0)                                                                              \
            return cli_usage_error(C, USAGE_DEMO, "%s needs a value", name);                   \
        var = v;                                                                                \
        continue;                                                                               \
    }
        OPT("--animation", animation)
        OPT("--json", json_path)
        OPT("--expect", expect)
        OPT("--chart", chart_opt)
        OPT("--isa", isa_list)
        OPT("--seconds", sec)
        OPT("--fps", fp)
        OPT("--vertices", vert)
        OPT("--springs", springs)
        OPT("--tier", tier_name)
        OPT("--picture", picture_opt)
        OPT("--characters", chars)
        OPT("--threads", thr)
#undef OPT
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage_error(C, USAGE_DEMO, "unknown argument \"%s\"", argv[i]);
        if (model)
            return cli_usage_error(C, USAGE_DEMO, "one model at a time (\"%s\", then \"%s\")",
                                   model, argv[i]);
        model = argv[i];
    }
    if (sec && parse_double(sec, 1e-3, 3600, &seconds) != 0)
        return cli_usage_error(C, USAGE_DEMO, "--seconds \"%s\" is not a number in [0.001, 3600]",
                               sec);
    if (fp && parse_double(fp, 1, 10000, &fps) != 0)
        return cli_usage_error(C, USAGE_DEMO, "--fps \"%s\" is not a number in [1, 10000]", fp);
    if (vert && parse_count(vert, 1000, 1e6, &vertices) != 0)
        return cli_usage_error(C, USAGE_DEMO,
                               "--vertices \"%s\" is not a whole number in [1000, 1000000]", vert);
    if (!model && animation)
        return cli_usage_error(C, USAGE_DEMO, "--animation needs a MODEL");
    if (!model && springs)
        return cli_usage_error(C, USAGE_DEMO,
                               "--springs needs a MODEL (the built-in character has its chains)");
    tendon_tier tier = TENDON_TIER_EXACT;
    if (tier_name) {
        if (strcmp(tier_name, "f32") == 0)
            tier = TENDON_TIER_F32;
        else if (strcmp(tier_name, "exact") != 0)
            return cli_usage_error(C, USAGE_DEMO, "--tier \"%s\" is not exact or f32", tier_name);
    }
    double characters = 1, threads = 1;
    if (chars && parse_count(chars, 1, 100000, &characters) != 0)
        return cli_usage_error(C, USAGE_DEMO,
                               "--characters \"%s\" is not a whole number in [1, 100000]", chars);
    if (thr && parse_count(thr, 1, 256, &threads) != 0)
        return cli_usage_error(C, USAGE_DEMO, "--threads \"%s\" is not a whole number in [1, 256]",
                               thr);
    /* a crowd is --characters; --threads says on how many threads it runs */
    if (thr && !chars)
        return cli_usage_error(C, USAGE_DEMO,
                               "--threads %s needs --characters N: the threads share a crowd of N "
                               "characters (one character runs on the tool's thread)",
                               thr);
    const int crowd = chars != NULL;
    /* a crowd prints its own table and hashes: no chart, picture or report of the one-character
       run (refused by name rather than left unwritten) */
    if (crowd && (chart_opt || picture_opt || json_path))
        return cli_usage_error(C, USAGE_DEMO,
                               "%s is not written by a crowd run (--characters): it charts the "
                               "one-character run; leave it out, or drop --characters",
                               chart_opt ? "--chart" : picture_opt ? "--picture" : "--json");
    const char *chart = chart_opt ? chart_opt : "tendon-demo.svg";
    const char *picture = picture_opt ? picture_opt : "tendon-demo-springs.svg";

    /* which ISAs */
    int want[TENDON_ISA_COUNT] = {0};
    if (isa_list) {
        char *copy = strdup(isa_list), *save = NULL;
        size_t named_isas = 0;
        if (!copy)
            return CLI_FAIL;
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            tendon_isa isa;
            if (strcmp(tok, "all") == 0) { /* every ISA that can run here, emulated ones too
                                              unless --no-emulated */
                for (int i = 0; i < TENDON_ISA_COUNT; ++i)
                    want[i] |= tendon_kernels_for((tendon_isa)i) != NULL &&
                               (emulated ||
                                tendon_isa_compiled((tendon_isa)i) != TENDON_ISA_EMULATED);
                ++named_isas;
                continue;
            }
            if (tendon_isa_from_name(tok, &isa) != TENDON_OK) {
                int rc = cli_usage_error(C, USAGE_DEMO, "ISA name \"%s\" is unknown", tok);
                free(copy);
                return rc;
            }
            if (!tendon_kernels_for(isa)) {
                int rc = cli_usage_error(C, USAGE_DEMO, "ISA %s cannot run here (%s)", tok,
                                         tendon_isa_compiled(isa) == TENDON_ISA_ABSENT
                                             ? "not compiled into this build"
                                             : "this CPU lacks it");
                free(copy);
                return rc;
            }
            if (!emulated && tendon_isa_compiled(isa) == TENDON_ISA_EMULATED) {
                int rc = cli_usage_error(C, USAGE_DEMO,
                                         "--isa %s is emulated here (SIMDe), and --no-emulated "
                                         "leaves emulated ISAs out: give one or the other",
                                         tok);
                free(copy);
                return rc;
            }
            want[isa] = 1;
            ++named_isas;
        }
        free(copy);
        if (named_isas == 0) /* "" or ",,": no name at all (only scalar would have run) */
            return cli_usage_error(C, USAGE_DEMO, "--isa \"%s\" names no ISA (give names, "
                                                  "comma-separated, or all)", isa_list);
        cli_isa_env_warn(C, "--isa names the ISAs to run");
    } else if (crowd) { /* a crowd runs the ISA dispatch picks */
        tendon_isa active;
        if (tendon_isa_active(&active) != TENDON_OK) {
            cli_error(C, "%s", tendon_error_message());
            return CLI_FAIL;
        }
        want[active] = 1;
    } else {
        cli_isa_env_warn(C, "the demo runs every ISA's kernel table, not dispatch");
        for (int i = 0; i < TENDON_ISA_COUNT; ++i)
            want[i] = tendon_kernels_for((tendon_isa)i) != NULL &&
                      (emulated || tendon_isa_compiled((tendon_isa)i) != TENDON_ISA_EMULATED);
    }
    if (!crowd)
        want[TENDON_ISA_SCALAR] = 1;

    /* the inputs and outputs are checked before any work: an unreadable or malformed --expect
       file, an output that cannot be opened for writing */
    static expect_file golden;
    if (expect && load_expect(expect, &golden) != 0)
        return CLI_USAGE;
    if (!crowd) {
        const char *why_not;
        if ((why_not = writable(chart)) != NULL)
            return cli_usage_error(C, USAGE_DEMO, "--chart \"%s\" cannot be written: %s", chart,
                                   why_not);
        if (json_path && (why_not = writable(json_path)) != NULL)
            return cli_usage_error(C, USAGE_DEMO, "--json \"%s\" cannot be written: %s",
                                   json_path, why_not);
        /* two outputs in one file, or an output over the --expect file: the last written
           would silently replace the other */
        const char *const before[2] = {"--expect", "--chart"};
        const char *const before_path[2] = {expect, chart};
        int rc;
        if ((rc = distinct_output("--chart", chart, before, before_path, 1)) != 0 ||
            (json_path && (rc = distinct_output("--json", json_path, before, before_path, 2)) != 0))
            return rc;
    }

    demo_scene scene;
    char why[1024] = "";
    if (model) {
#ifdef TENDON_CLI_HAVE_GLTF
        int rc = demo_scene_gltf(model, animation, &scene, why, sizeof why);
        if (rc != 0) {
            cli_error(C, "%s", why);
            return rc < 0 ? CLI_FAIL : CLI_USAGE;
        }
#else
        cli_error(C, "this build has no glTF importer (TENDON_BUILD_GLTF=OFF): %s", model);
        return CLI_USAGE;
#endif
    } else if (demo_scene_builtin((size_t)vertices, &scene, why, sizeof why) != 0) {
        cli_error(C, "%s", why);
        return CLI_FAIL;
    }
    if (springs && demo_scene_hang(&scene, springs, why, sizeof why) != 0) {
        cli_error(C, "%s", why);
        demo_scene_destroy(&scene);
        return CLI_USAGE;
    }
    if (tier != TENDON_TIER_EXACT && demo_scene_springs(&scene, tier, why, sizeof why) != 0) {
        cli_error(C, "%s", why);
        demo_scene_destroy(&scene);
        return CLI_FAIL;
    }
    if (!crowd && scene.rig) {
        const char *why_not = writable(picture);
        if (why_not) {
            demo_scene_destroy(&scene);
            return cli_usage_error(C, USAGE_DEMO, "--picture \"%s\" cannot be written: %s",
                                   picture, why_not);
        }
        const char *const others[3] = {"--expect", "--chart", "--json"};
        const char *const other_path[3] = {expect, chart, json_path};
        const int rc = distinct_output("--picture", picture, others, other_path, 3);
        if (rc != 0) {
            demo_scene_destroy(&scene);
            return rc;
        }
    }
    size_t frames = (size_t)(seconds * fps + 0.5); /* rounded; at least one frame */
    if (frames == 0)
        frames = 1;

    printf("tendon demo: %s\n", scene.name);
    printf("  %zu joints (%zu animated by clips), %zu vertices in %zu mesh%s (palette %zu),"
           " %zu spring links, %zu morph targets on %zu vertices\n",
           scene.joint_count, scene.body_joint_count, scene.vertex_count, scene.mesh_count,
           scene.mesh_count == 1 ? "" : "es", scene.palette_count,
           demo_stage_items(&scene, DEMO_SPRINGS, NULL), scene.target_count, scene.morph_count);
    printf("  %zu frames (%.3g s at %.3g fps), %s tier; cpu: %s\n", frames, seconds, fps,
           tier == TENDON_TIER_F32 ? "float32" : "exact", tendon_cpu_name());
    cli_fpenv_line(stdout, "  ");
    if (scene.rig) {
        printf("  spring rig: %zu chains, %zu links, %zu substep grid%s (", scene.chain_count,
               tendon_spring_rig_link_count(scene.rig), tendon_spring_rig_grid_count(scene.rig),
               tendon_spring_rig_grid_count(scene.rig) == 1 ? "" : "s");
        for (size_t g = 0; g < tendon_spring_rig_grid_count(scene.rig); ++g)
            printf("%s%zu times x %zu joints", g ? ", " : "", tendon_spring_rig_grid_times(scene.rig, g),
                   tendon_spring_rig_grid_joints(scene.rig, g));
        printf(" evaluated per frame)\n");
    }
    if (scene.notes[0]) {
        printf("  notes:\n");
        for (const char *l = scene.notes; *l;) {
            const char *e = strchr(l, '\n');
            const int len = e ? (int)(e - l) : (int)strlen(l);
            printf("    - %.*s\n", len, l);
            l += len + (e != NULL);
        }
    }
    fflush(stdout);

    if (crowd) {
        const int rc = run_crowd(&scene, want, (size_t)characters, (size_t)threads, frames, fps,
                                 expect ? &golden : NULL);
        demo_scene_destroy(&scene);
        return rc;
    }
    demo_result results[TENDON_ISA_COUNT];
    size_t count = 0;
    int failed = 0;
    /* the picture: the scalar run keeps four frames' matrices and links */
    demo_capture cap;
    memset(&cap, 0, sizeof cap);
    const size_t links = scene.rig ? tendon_spring_rig_link_count(scene.rig) : 0;
    if (scene.rig) {
        const size_t want_frames[4] = {0, frames / 3, (2 * frames) / 3, frames - 1};
        for (int i = 0; i < 4; ++i) {
            if (cap.count && want_frames[i] <= cap.frame[cap.count - 1])
                continue;
            cap.frame[cap.count] = want_frames[i];
            cap.model[cap.count] = malloc(16 * scene.joint_count * sizeof(float));
            cap.links[cap.count] = malloc((3 * links + 1) * sizeof(float));
            if (!cap.model[cap.count] || !cap.links[cap.count]) {
                cli_error(C, "out of memory");
                demo_scene_destroy(&scene);
                return CLI_FAIL;
            }
            ++cap.count;
        }
    }
    for (int i = 0; i < TENDON_ISA_COUNT; ++i) {
        if (!want[i])
            continue;
        const tendon_kernels *k = tendon_kernels_for((tendon_isa)i);
        progress_state ps = {(size_t)-1, isatty(fileno(stderr))};
        const demo_run_options opt = {0.0, i == TENDON_ISA_SCALAR && cap.count ? &cap : NULL};
        if (demo_run_ex(&scene, k, frames, fps, &opt, on_progress, &ps, &results[count], why,
                        sizeof why) != 0) {
            fputc('\n', stderr);
            cli_error(C, "%s: %s", tendon_isa_name((tendon_isa)i), why);
            failed = 1;
            if (i == TENDON_ISA_SCALAR) {
                demo_scene_destroy(&scene);
                return CLI_FAIL;
            }
            continue;
        }
        ++count;
    }
    print_tables(&scene, results, count);

    int agree = 1;
    for (int st = 0; st < DEMO_STAGE_COUNT; ++st)
        agree &= demo_stage_agrees(results, count, st);
    int rc = agree && !failed ? CLI_OK : CLI_FAIL;
    if (demo_write_svg(chart, &scene, results, count) != 0) {
        cli_error(C, "cannot write the chart %s: %s", chart, strerror(errno));
        rc = CLI_FAIL;
        chart = NULL;
    } else {
        printf("\nchart: %s\n", chart);
    }
    if (cap.count) {
        if (demo_write_springs_svg(picture, &scene, &cap, fps) != 0) {
            cli_error(C, "cannot write the picture %s: %s", picture, strerror(errno));
            rc = CLI_FAIL;
        } else {
            printf("picture: %s\n", picture);
        }
        for (size_t i = 0; i < cap.count; ++i)
            free(cap.model[i]), free(cap.links[i]);
    }
    if (json_path) {
        json_t *report = demo_report_json(&scene, results, count, fps, chart);
        FILE *f = fopen(json_path, "w");
        if (!f || jx_write(f, report) != 0 || fputc('\n', f) == EOF || fclose(f) != 0) {
            cli_error(C, "cannot write %s: %s", json_path, strerror(errno));
            rc = CLI_FAIL;
        } else {
            printf("report: %s\n", json_path);
        }
        json_decref(report);
    }
    printf("%s\n", agree ? (count > 1 ? "every ISA computed the same bits at every stage"
                                      : "only scalar ran: nothing to compare")
                         : "ISAs DISAGREE: a determinism bug (see the hashes above)");
    if (expect && check_expect(&golden, &scene, results[0].hash) != 0)
        rc = CLI_FAIL;
    demo_scene_destroy(&scene);
    return rc;
}
