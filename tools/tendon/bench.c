/*
 * tendon bench: run the Google Benchmark harness `tendon-bench` (bench/), whose benchmarks are
 * named `<kernel>/<isa>/<count>` and report items_per_second, and print ns per item with the
 * speed-up over scalar. The hidden `--from-json FILE` formats results already on disk.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>
#include <tendon/tendon.h>

#include "cli.h"
#include "json.h"

const char USAGE_BENCH[] =
    "usage: tendon bench [--json FILE] [--filter REGEX] [--min-time S] [--emulated]\n"
    "\n"
    "Run the benchmark harness tendon-bench (looked for next to this executable, then at\n"
    "$TENDON_BENCH, then on PATH) and print, per kernel and count, the nanoseconds per item\n"
    "(joint, quaternion, ...) on each ISA and the speed-up over scalar. The time is CPU time:\n"
    "Google Benchmark's items_per_second, which it divides by the benchmark thread's CPU time\n"
    "(not wall time) since the harness asks for neither real nor manual time. The harness's own\n"
    "progress goes to stderr; the table to stdout.\n"
    "\n"
    "  --json FILE    keep the raw Google Benchmark JSON in FILE, unchanged (`--json -`: write it\n"
    "                 to stdout instead of the table)\n"
    "  --filter RE    run only the benchmarks whose name (`kernel/isa/count`) matches RE\n"
    "                 (passed on as --benchmark_filter; exit 2 if it is not a regular\n"
    "                 expression or matches no benchmark)\n"
    "  --min-time S   minimum seconds per benchmark (passed on as --benchmark_min_time)\n"
    "  --emulated     also run the ISAs built through SIMDe emulation (NEON on x86-64): they\n"
    "                 run, but their speed says nothing about the ISA (--tendon_emulated)\n";

/* ---- finding and running the harness ------------------------------------------------------ */

static int is_executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The harness path into out[size]; 0, or -1 after saying where it looked. */
static int find_harness(char *out, size_t size)
{
    char self[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    char next_to[PATH_MAX + 16] = "(unknown: /proc/self/exe unreadable)";
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            slash[1] = '\0';
            snprintf(next_to, sizeof next_to, "%stendon-bench", self);
            const size_t len = strlen(next_to);
            if (is_executable_file(next_to) && len < size) {
                memcpy(out, next_to, len + 1);
                return 0;
            }
        }
    }
    const char *env = getenv("TENDON_BENCH");
    if (env && *env) {
        if (is_executable_file(env) && strlen(env) < size) {
            snprintf(out, size, "%s", env);
            return 0;
        }
        cli_error("bench", "TENDON_BENCH=%s is not an executable file", env);
        return -1;
    }
    const char *path = getenv("PATH");
    for (const char *p = path ? path : ""; path && *p;) {
        const char *end = strchr(p, ':');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        char candidate[PATH_MAX];
        if (snprintf(candidate, sizeof candidate, "%.*s/tendon-bench", len ? (int)len : 1,
                     len ? p : ".") < (int)sizeof candidate &&
            is_executable_file(candidate) && strlen(candidate) < size) {
            snprintf(out, size, "%s", candidate);
            return 0;
        }
        if (!end)
            break;
        p = end + 1;
    }
    cli_error("bench",
              "cannot find the benchmark harness tendon-bench: not at %s, TENDON_BENCH is not set, "
              "and it is not on PATH. Build it (the bench/ directory, TENDON_BUILD_BENCH=ON) and "
              "install it next to tendon, or set TENDON_BENCH to its path",
              next_to);
    return -1;
}

/* "NAMEVALUE" in a new string (NULL when out of memory): an option passed on whole, however
   long its value (a fixed buffer cut a long --filter or --min-time short, silently). */
static char *option_arg(const char *name, const char *value)
{
    const size_t len = strlen(name) + strlen(value) + 1;
    char *arg = malloc(len);
    if (arg)
        snprintf(arg, len, "%s%s", name, value);
    return arg;
}

/* Run the harness writing JSON to json_path; its console output goes to our stderr. */
static int run_harness(const char *harness, const char *json_path, const char *filter,
                       const char *min_time, int emulated)
{
    char *out_arg = option_arg("--benchmark_out=", json_path);
    char *filter_arg = filter ? option_arg("--benchmark_filter=", filter) : NULL;
    char *time_arg = min_time ? option_arg("--benchmark_min_time=", min_time) : NULL;
    char *args[8];
    int n = 0;
    if (!out_arg || (filter && !filter_arg) || (min_time && !time_arg)) {
        free(out_arg), free(filter_arg), free(time_arg);
        cli_error("bench", "out of memory");
        return -1;
    }
    args[n++] = (char *)harness;
    args[n++] = out_arg;
    args[n++] = "--benchmark_out_format=json";
    if (filter)
        args[n++] = filter_arg;
    if (min_time)
        args[n++] = time_arg;
    if (emulated)
        args[n++] = "--tendon_emulated";
    args[n] = NULL;

    fflush(stdout);
    fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) {
        cli_error("bench", "cannot start %s: %s", harness, strerror(errno));
        free(out_arg), free(filter_arg), free(time_arg);
        return -1;
    }
    if (pid == 0) {
        dup2(STDERR_FILENO, STDOUT_FILENO); /* progress to stderr, the table is ours */
        execv(harness, args);
        fprintf(stderr, "tendon bench: cannot execute %s: %s\n", harness, strerror(errno));
        _exit(127);
    }
    free(out_arg), free(filter_arg), free(time_arg);
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            cli_error("bench", "waiting for %s: %s", harness, strerror(errno));
            return -1;
        }
    }
    if (WIFSIGNALED(status)) {
        cli_error("bench", "%s was killed by signal %d", harness, WTERMSIG(status));
        return -1;
    }
    if (WEXITSTATUS(status) != 0) {
        cli_error("bench", "%s exited with status %d", harness, WEXITSTATUS(status));
        return -1;
    }
    return 0;
}

/* ---- reading the results ------------------------------------------------------------------ */

enum { MAX_ISAS = 16, MAX_ROWS = 1024 };

typedef struct bench_cell {
    double ns_sum; /* ns per item, summed over the entries of the best priority seen */
    int ns_n;
    int priority;  /* 0 none, 1 an iteration run, 2 the mean aggregate, 3 the median aggregate */
    int error;     /* the harness reported an error for it (e.g. skipped) */
} bench_cell;

typedef struct bench_row {
    char kernel[64];
    long long count;
    char item[24];
    bench_cell cell[MAX_ISAS];
} bench_row;

typedef struct bench_table {
    char isa[MAX_ISAS][24];
    int isa_count;
    bench_row rows[MAX_ROWS];
    int row_count;
    int kernel_order[MAX_ROWS]; /* first appearance of the row's kernel, for sorting */
    int skipped;                /* entries whose name is not kernel/isa/count */
} bench_table;

static int find_isa_column(const bench_table *t, const char *isa)
{
    for (int i = 0; i < t->isa_count; ++i)
        if (strcmp(t->isa[i], isa) == 0)
            return i;
    return -1;
}

/* The column of `isa`, added if new; -1 when there is no room. */
static int isa_column(bench_table *t, const char *isa)
{
    const int found = find_isa_column(t, isa);
    if (found >= 0)
        return found;
    if (t->isa_count == MAX_ISAS)
        return -1;
    snprintf(t->isa[t->isa_count], sizeof t->isa[0], "%s", isa);
    return t->isa_count++;
}

static bench_row *find_row(bench_table *t, const char *kernel, long long count)
{
    for (int i = 0; i < t->row_count; ++i)
        if (t->rows[i].count == count && strcmp(t->rows[i].kernel, kernel) == 0)
            return &t->rows[i];
    if (t->row_count == MAX_ROWS)
        return NULL;
    bench_row *r = &t->rows[t->row_count];
    memset(r, 0, sizeof *r);
    snprintf(r->kernel, sizeof r->kernel, "%s", kernel);
    r->count = count;
    int order = t->row_count;
    for (int i = 0; i < t->row_count; ++i) {
        if (strcmp(t->rows[i].kernel, kernel) == 0) {
            order = t->kernel_order[i];
            break;
        }
    }
    t->kernel_order[t->row_count++] = order;
    return r;
}

static double time_unit_ns(const char *unit)
{
    if (!unit || strcmp(unit, "ns") == 0)
        return 1.0;
    if (strcmp(unit, "us") == 0)
        return 1e3;
    if (strcmp(unit, "ms") == 0)
        return 1e6;
    if (strcmp(unit, "s") == 0)
        return 1e9;
    return 1.0;
}

/* Split "kernel/isa/count[/...]"; 0 on success. */
static int parse_name(const char *name, char *kernel, size_t ksize, char *isa, size_t isize,
                      long long *count)
{
    const char *s1 = strchr(name, '/');
    if (!s1)
        return -1;
    const char *s2 = strchr(s1 + 1, '/');
    if (!s2 || (size_t)(s1 - name) >= ksize || (size_t)(s2 - s1 - 1) >= isize || s1 == name ||
        s2 == s1 + 1)
        return -1;
    snprintf(kernel, ksize, "%.*s", (int)(s1 - name), name);
    snprintf(isa, isize, "%.*s", (int)(s2 - s1 - 1), s1 + 1);
    char *end;
    errno = 0;
    const long long c = strtoll(s2 + 1, &end, 10);
    if (errno || end == s2 + 1 || (*end != '\0' && *end != '/') || c <= 0)
        return -1;
    *count = c;
    return 0;
}

static int load_results(const json_t *doc, bench_table *t, const char *source)
{
    const json_t *list = json_object_get(doc, "benchmarks");
    if (!json_is_array(list)) {
        cli_error("bench", "%s has no \"benchmarks\" array: not Google Benchmark JSON", source);
        return -1;
    }
    /* Columns in tendon's own ISA order first, whatever order the harness ran them in; ISA
     * names tendon does not know follow in order of appearance. */
    for (int k = 0; k < TENDON_ISA_COUNT; ++k) {
        const char *isa = tendon_isa_name((tendon_isa)k);
        for (size_t i = 0; i < json_array_size(list); ++i) {
            const json_t *b = json_array_get(list, i);
            const char *name = json_string_value(json_object_get(b, "run_name"));
            if (!name)
                name = json_string_value(json_object_get(b, "name"));
            char kernel[64], bisa[24];
            long long count;
            if (name && parse_name(name, kernel, sizeof kernel, bisa, sizeof bisa, &count) == 0 &&
                strcmp(bisa, isa) == 0) {
                isa_column(t, isa);
                break;
            }
        }
    }

    for (size_t i = 0; i < json_array_size(list); ++i) {
        const json_t *b = json_array_get(list, i);
        const char *name = json_string_value(json_object_get(b, "run_name"));
        if (!name)
            name = json_string_value(json_object_get(b, "name"));
        char kernel[64], isa[24];
        long long count;
        if (!name || parse_name(name, kernel, sizeof kernel, isa, sizeof isa, &count) != 0) {
            ++t->skipped;
            continue;
        }
        int priority = 1;
        const char *run_type = json_string_value(json_object_get(b, "run_type"));
        if (run_type && strcmp(run_type, "aggregate") == 0) {
            const char *agg = json_string_value(json_object_get(b, "aggregate_name"));
            if (agg && strcmp(agg, "median") == 0)
                priority = 3;
            else if (agg && strcmp(agg, "mean") == 0)
                priority = 2;
            else
                continue; /* stddev, cv: not a time per item */
        }
        const int col = isa_column(t, isa);
        bench_row *row = find_row(t, kernel, count);
        if (col < 0 || !row) {
            cli_error("bench", "%s: too many ISAs or rows; the table is cut short", source);
            return -1;
        }
        const char *label = json_string_value(json_object_get(b, "label"));
        if (label && !row->item[0])
            snprintf(row->item, sizeof row->item, "%s", label);
        bench_cell *cell = &row->cell[col];
        if (json_is_true(json_object_get(b, "error_occurred"))) {
            if (cell->priority == 0)
                cell->error = 1;
            continue;
        }
        double ns = -1.0;
        const json_t *ips = json_object_get(b, "items_per_second");
        if (json_is_number(ips) && json_number_value(ips) > 0.0) {
            ns = 1e9 / json_number_value(ips);
        } else {
            const json_t *cpu = json_object_get(b, "cpu_time");
            if (json_is_number(cpu))
                ns = json_number_value(cpu) *
                     time_unit_ns(json_string_value(json_object_get(b, "time_unit"))) /
                     (double)count;
        }
        if (!(ns >= 0.0))
            continue;
        if (priority > cell->priority) {
            cell->priority = priority;
            cell->ns_sum = 0.0;
            cell->ns_n = 0;
            cell->error = 0;
        }
        if (priority == cell->priority) {
            cell->ns_sum += ns;
            cell->ns_n += 1;
        }
    }
    return 0;
}

/* ---- printing the table ------------------------------------------------------------------- */

static void format_ns(double ns, char *buf, size_t size)
{
    if (ns >= 100.0)
        snprintf(buf, size, "%.0f", ns);
    else if (ns >= 10.0)
        snprintf(buf, size, "%.1f", ns);
    else if (ns >= 0.01)
        snprintf(buf, size, "%.2f", ns);
    else
        snprintf(buf, size, "%.2g", ns);
}

static int compare_rows(const void *x, const void *y, const bench_table *t)
{
    const bench_row *a = x, *b = y;
    const int ka = t->kernel_order[a - t->rows], kb = t->kernel_order[b - t->rows];
    if (ka != kb)
        return ka < kb ? -1 : 1;
    return a->count < b->count ? -1 : a->count > b->count;
}

static void print_context(const json_t *doc)
{
    const json_t *ctx = json_object_get(doc, "context");
    if (!json_is_object(ctx))
        return;
    const char *host = json_string_value(json_object_get(ctx, "host_name"));
    const char *date = json_string_value(json_object_get(ctx, "date"));
    const json_t *cpus = json_object_get(ctx, "num_cpus");
    const json_t *mhz = json_object_get(ctx, "mhz_per_cpu");
    printf("# %s%s%s", host ? host : "", host && date ? ", " : "", date ? date : "");
    if (json_is_number(cpus))
        printf(", %.0f CPUs", json_number_value(cpus));
    if (json_is_number(mhz))
        printf(" at %.0f MHz", json_number_value(mhz));
    putchar('\n');
    /* What tendon-bench adds to the context (bench/main.cc). */
    const char *cpu = json_string_value(json_object_get(ctx, "tendon_cpu"));
    const char *active = json_string_value(json_object_get(ctx, "tendon_active_isa"));
    const char *skipped = json_string_value(json_object_get(ctx, "tendon_emulated_skipped"));
    if (cpu || active)
        printf("# cpu %s, dispatch picks %s\n", cpu ? cpu : "?", active ? active : "?");
    if (skipped && *skipped)
        printf("# emulated ISAs not run: %s\n", skipped);
    const char *build = json_string_value(json_object_get(ctx, "library_build_type"));
    if (build && strcmp(build, "debug") == 0)
        printf("# warning: the Google Benchmark library was built as debug\n");
    if (json_is_true(json_object_get(ctx, "cpu_scaling_enabled")))
        printf("# warning: CPU frequency scaling is enabled; timings are noisy\n");
}

static int print_table(const json_t *doc, const char *source)
{
    static bench_table t;
    memset(&t, 0, sizeof t);
    if (load_results(doc, &t, source) != 0)
        return -1;
    if (t.row_count == 0) {
        cli_error("bench", "%s holds no benchmark named kernel/isa/count%s", source,
                  t.skipped ? " (every entry has another name)" : "");
        return -1;
    }
    /* Stable sort by (kernel first appearance, count): insertion sort keeps it simple. */
    static bench_row sorted[MAX_ROWS];
    int order[MAX_ROWS];
    for (int i = 0; i < t.row_count; ++i)
        order[i] = i;
    for (int i = 1; i < t.row_count; ++i) {
        const int v = order[i];
        int j = i - 1;
        while (j >= 0 && compare_rows(&t.rows[order[j]], &t.rows[v], &t) > 0) {
            order[j + 1] = order[j];
            --j;
        }
        order[j + 1] = v;
    }
    for (int i = 0; i < t.row_count; ++i)
        sorted[i] = t.rows[order[i]];

    const int scalar = find_isa_column(&t, "scalar");
    /* Cells as text, then column widths. */
    enum { FIXED = 3 };
    const int columns = FIXED + t.isa_count;
    static char text[MAX_ROWS + 1][FIXED + MAX_ISAS][48];
    snprintf(text[0][0], 48, "kernel");
    snprintf(text[0][1], 48, "count");
    snprintf(text[0][2], 48, "item");
    for (int c = 0; c < t.isa_count; ++c)
        snprintf(text[0][FIXED + c], 48, "%s", t.isa[c]);
    for (int r = 0; r < t.row_count; ++r) {
        const bench_row *row = &sorted[r];
        snprintf(text[r + 1][0], 48, "%.47s", row->kernel);
        snprintf(text[r + 1][1], 48, "%lld", row->count);
        snprintf(text[r + 1][2], 48, "%s", row->item[0] ? row->item : "item");
        const bench_cell *base = scalar >= 0 && row->cell[scalar].ns_n ? &row->cell[scalar] : NULL;
        const double base_ns = base ? base->ns_sum / base->ns_n : 0.0;
        for (int c = 0; c < t.isa_count; ++c) {
            const bench_cell *cell = &row->cell[c];
            char ns[32];
            if (cell->ns_n == 0) {
                snprintf(text[r + 1][FIXED + c], 48, "%s", cell->error ? "error" : "-");
                continue;
            }
            const double v = cell->ns_sum / cell->ns_n;
            format_ns(v, ns, sizeof ns);
            if (base && c != scalar && v > 0.0)
                snprintf(text[r + 1][FIXED + c], 48, "%s %5.2fx", ns, base_ns / v);
            else
                snprintf(text[r + 1][FIXED + c], 48, "%s", ns);
        }
    }
    int width[FIXED + MAX_ISAS] = {0};
    for (int r = 0; r <= t.row_count; ++r)
        for (int c = 0; c < columns; ++c) {
            const int len = (int)strlen(text[r][c]);
            if (len > width[c])
                width[c] = len;
        }

    print_context(doc);
    printf("# ns per item of CPU time (Google Benchmark's items_per_second: the thread's CPU "
           "clock, not wall time) on each ISA; after it, the speed-up over scalar\n");
    for (int r = 0; r <= t.row_count; ++r) {
        for (int c = 0; c < columns; ++c) {
            const int left = c == 0 || c == 2;
            if (c)
                fputs(c >= FIXED ? "   " : "  ", stdout);
            if (c == columns - 1 && left)
                fputs(text[r][c], stdout);
            else
                printf(left ? "%-*s" : "%*s", width[c], text[r][c]);
        }
        putchar('\n');
    }
    if (t.skipped)
        printf("# %d benchmark%s not named kernel/isa/count left out\n", t.skipped,
               t.skipped == 1 ? "" : "s");
    return 0;
}

/* Where the results come from: what went wrong is the user's (exit 2) or the harness's (1). */
typedef enum { FROM_USER, FROM_HARNESS } bench_source;

/*
 * Print the table of the results in path; returns the exit status. --from-json FILE (FROM_USER):
 * a file that cannot be read, is not JSON or holds no kernel/isa/count benchmark is unusable
 * input, exit 2. The harness's own output (FROM_HARNESS): when it ran nothing — Google Benchmark
 * then writes no JSON at all — the filter matched no benchmark (exit 2, `filter` is what the
 * user asked for); anything else wrong with it is a harness failure (exit 1).
 */
static int format_file(const char *path, bench_source from, const char *filter)
{
    const int bad_input = from == FROM_USER ? CLI_USAGE : CLI_FAIL;
    FILE *f = fopen(path, "r");
    char *text = NULL;
    size_t len = 0;
    const int err = f ? jx_read_all(f, &text, &len) : errno;
    if (f)
        fclose(f);
    if (err) {
        cli_error("bench", "cannot read %s: %s", path, strerror(err));
        return bad_input;
    }
    json_error_t jerr;
    json_t *doc = NULL;
    const json_t *list = NULL;
    int nothing_ran = 0;
    if (from == FROM_HARNESS) {
        size_t i = 0;
        while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t' || text[i] == '\r'))
            ++i;
        nothing_ran = i == len;
    }
    if (!nothing_ran) {
        doc = json_loadb(text, len, 0, &jerr);
        if (!doc) {
            cli_error("bench", "%s is not JSON: %s (line %d, column %d)", path, jerr.text,
                      jerr.line, jerr.column);
            free(text);
            return bad_input;
        }
        list = json_object_get(doc, "benchmarks");
        nothing_ran = from == FROM_HARNESS && json_is_array(list) && json_array_size(list) == 0;
    }
    free(text);
    if (nothing_ran) {
        json_decref(doc);
        if (filter) {
            cli_error("bench", "no benchmark ran: none matched --filter \"%s\" (or the harness "
                      "could not compile it: see its message above); the names are "
                      "kernel/isa/count, e.g. pose_blend/avx2/1024", filter);
            return CLI_USAGE;
        }
        cli_error("bench", "the harness ran no benchmark");
        return CLI_FAIL;
    }
    const int rc = print_table(doc, path) == 0 ? CLI_OK : bad_input;
    json_decref(doc);
    return rc;
}

/*
 * Check a --filter regular expression before the harness sees it: Google Benchmark (1.7.1)
 * reports one it cannot compile only on its console, then runs nothing and exits 0. It compiles
 * the filter with std::regex in the POSIX extended grammar (a leading '-', its "all but" prefix,
 * is a plain character there, so need not be dropped); regcomp(REG_EXTENDED) checks the same
 * grammar. The two differ at the edges (glibc takes `\d` as `d`, std::regex refuses it): what
 * passes here and fails there ends as "no benchmark ran", with the harness's message above it.
 */
static int check_filter(const char *filter)
{
    regex_t re;
    const int rc = regcomp(&re, filter, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char why[256];
        regerror(rc, &re, why, sizeof why);
        return cli_usage_error("bench", USAGE_BENCH,
                               "--filter \"%s\" is not a valid regular expression: %s", filter,
                               why);
    }
    regfree(&re);
    return 0;
}

/*
 * `--json -`: the harness's JSON, byte for byte, on stdout. An empty file means nothing ran
 * (Google Benchmark writes none then): said as format_file says it.
 */
static int copy_to_stdout(const char *path, const char *filter)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    size_t len = 0;
    const int err = f ? jx_read_all(f, &text, &len) : errno;
    if (f)
        fclose(f);
    if (err) {
        cli_error("bench", "cannot read the harness's results %s: %s", path, strerror(err));
        return CLI_FAIL;
    }
    if (len == 0) {
        free(text);
        return format_file(path, FROM_HARNESS, filter);
    }
    const int ok = fwrite(text, 1, len, stdout) == len;
    free(text);
    return ok ? CLI_OK : CLI_FAIL;
}

/* ---- the command -------------------------------------------------------------------------- */

int cmd_bench(int argc, char **argv)
{
    const char *json_out = NULL, *filter = NULL, *min_time = NULL, *from_json = NULL;
    int emulated = 0;
    for (int i = 1; i < argc; ++i) {
        const char *value;
        int m = 0;
        if (cli_is_help(argv[i])) {
            fputs(USAGE_BENCH, stdout);
            return CLI_OK;
        }
        if (strcmp(argv[i], "--emulated") == 0) {
            emulated = 1;
            continue;
        }
        const char **slot = NULL;
        static const char *const NAMES[] = {"--json", "--filter", "--min-time", "--from-json"};
        const char **slots[] = {&json_out, &filter, &min_time, &from_json};
        for (int k = 0; k < 4 && !slot; ++k) {
            if ((m = cli_opt_value(argc, argv, &i, NAMES[k], &value)) != 0) {
                if (m < 0)
                    return cli_usage_error("bench", USAGE_BENCH, "%s needs a value", NAMES[k]);
                slot = slots[k];
            }
        }
        if (!slot)
            return cli_usage_error("bench", USAGE_BENCH, "unknown argument \"%s\"", argv[i]);
        *slot = value;
    }
    if (min_time) {
        char *end;
        const double s = strtod(min_time, &end);
        if (end == min_time || *end != '\0' || !(s > 0.0 && s < 1e6))
            return cli_usage_error("bench", USAGE_BENCH,
                                   "--min-time must be a positive number of seconds, not \"%s\"",
                                   min_time);
    }
    if (from_json) {
        if (json_out || filter || min_time || emulated)
            return cli_usage_error("bench", USAGE_BENCH,
                                   "--from-json formats existing results: it takes no other option");
        return format_file(from_json, FROM_USER, NULL);
    }
    if (filter && check_filter(filter) != 0)
        return CLI_USAGE;

    char harness[PATH_MAX];
    if (find_harness(harness, sizeof harness) != 0)
        return CLI_FAIL;
    cli_isa_env_warn("bench", "each ISA's kernels are benchmarked by name; the api_* benchmarks, "
                              "which call the public API on the active ISA, do not run");

    char tmp[PATH_MAX] = "";
    const int json_stdout = json_out && strcmp(json_out, "-") == 0;
    const char *path = json_stdout ? NULL : json_out;
    if (!path) {
        const char *dir = getenv("TMPDIR");
        snprintf(tmp, sizeof tmp, "%s/tendon-bench-XXXXXX", dir && *dir ? dir : "/tmp");
        const int fd = mkstemp(tmp);
        if (fd < 0) {
            cli_error("bench", "cannot create a temporary file in %s: %s",
                      dir && *dir ? dir : "/tmp", strerror(errno));
            return CLI_FAIL;
        }
        close(fd);
        path = tmp;
    }
    int rc = run_harness(harness, path, filter, min_time, emulated) == 0 ? CLI_OK : CLI_FAIL;
    if (rc == CLI_OK && json_stdout)
        rc = copy_to_stdout(path, filter);
    else if (rc == CLI_OK)
        rc = format_file(path, FROM_HARNESS, filter);
    if (tmp[0])
        unlink(tmp);
    return rc;
}
