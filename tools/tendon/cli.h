/*
 * The `tendon` command line: what the command files share.
 *
 * One file per command (info.c, replay.c, digest.c, bench.c), dispatched by main.c; json.c holds
 * the JSON helpers. Exit codes, for every command (docs/cli.md):
 *   0  done, and everything agreed
 *   1  ran, and found a problem: ISAs that disagree, a hash that is not the golden one, an
 *      unusable TENDON_ISA, a benchmark harness that is missing or failed
 *   2  could not do what was asked: a usage error, unreadable or malformed input
 */
#ifndef TENDON_CLI_H
#define TENDON_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

int cmd_info(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_digest(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_sample(int argc, char **argv); /* sample.c, built with the glTF importer */
int cmd_demo(int argc, char **argv);   /* demo.c, demo_core.c */

/* Usage texts, printed by `tendon <cmd> --help` (stdout) and on a usage error (stderr). */
extern const char USAGE_INFO[];
extern const char USAGE_REPLAY[];
extern const char USAGE_DIGEST[];
extern const char USAGE_BENCH[];
extern const char USAGE_SAMPLE[];
extern const char USAGE_DEMO[];

/*
 * Report a usage error on stderr: one line, "tendon <cmd>: <message>", and a hint naming
 * `tendon <cmd> --help` (the usage itself is --help's). Returns CLI_USAGE, so a command can
 * `return cli_usage_error(...)`.
 */
int cli_usage_error(const char *cmd, const char *usage, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Print "tendon <cmd>: <message>" on stderr. */
void cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Match argv[*i] against an option that takes a value, spelled "--name VALUE" or "--name=VALUE".
 * Returns 1 and sets *value (advancing *i past a separate value) on a match; 0 if argv[*i] is
 * another argument; -1 if it is this option without a value (the caller reports a usage error).
 */
int cli_opt_value(int argc, char **argv, int *i, const char *name, const char **value);

/*
 * For a command (or mode) that does not use dispatch — it runs the ISAs' kernel tables by name —
 * warn on stderr when TENDON_ISA names no ISA or one that cannot run here: "tendon <cmd>:
 * warning: <the library's message, naming the value and the valid names> (ignored: <why>)".
 * The library refuses such a TENDON_ISA at the first dispatched call; a command that dispatches
 * reports that error instead (info: exit 1, replay: exit 2).
 */
void cli_isa_env_warn(const char *cmd, const char *why_unused);

/* Whether argv[i] is "--help" or "-h". */
int cli_is_help(const char *arg);

/* fpenv_cli.c: print "<prefix>fp environment: MXCSR 0x1f80 (round to nearest, FTZ off, DAZ off);
   library mode guard" — the calling thread's control bits now — on f. On x86-64 the MXCSR's
   sticky exception flags (bits 0-5) are masked out: they record what ran before, not the
   environment, and vary from run to run. */
void cli_fpenv_line(FILE *f, const char *prefix);
/* The control register's control bits (tendon_fpenv_read, x86-64's flags bits 0-5 cleared), and
   their description (tendon_fpenv_describe of that) into buf[size]: what info --json prints. */
uint64_t cli_fpenv_control(void);
void cli_fpenv_describe(char *buf, size_t size);
/* Set the tool's thread to a mode named by CLI_FPENV_MODES (default, ftz, daz, ftz+daz, down,
   up, zero); -1 for another name. */
int cli_fpenv_set(const char *mode);
extern const char CLI_FPENV_MODES[];

/*
 * Find one of the tools' data files (data.c): `name` (e.g. "golden.digest") in $TENDON_DATA_DIR
 * when it is set (and not empty) — then only there: an explicit directory that lacks the file is
 * not fallen back from —, else in share/tendon beside this executable's directory (<prefix>/bin
 * → <prefix>/share/tendon; the build tree's build/tools → build/share/tendon), else in the
 * configured install datadir. Writes the path of the first that is a regular file into
 * out[size]: 0, or -1 if none is.
 */
int cli_data_file(const char *name, char *out, size_t size);

/* Print the places cli_data_file looks for `name`, comma-separated, to f (for messages). */
void cli_data_searched(FILE *f, const char *name);

/* Why cli_data_file found no `name`, to f, no newline: "no NAME in <places>", or what is wrong
   with $TENDON_DATA_DIR (does not exist, not a directory, has no NAME), naming the path. */
void cli_data_missing(FILE *f, const char *name);

#endif
