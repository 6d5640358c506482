/*
 * JSON helpers of the `tendon` command, on top of jansson.
 *
 * Numbers follow the case files' convention (tests/data/CASES-README.md): a finite number is a
 * JSON number, written as JavaScript's Number.prototype.toString writes it (jx_format_double),
 * except that `-0` keeps its sign; NaN and the infinities are the strings "NaN", "Infinity",
 * "-Infinity". Input is parsed with JSON_DECODE_INT_AS_REAL, so every number is a double and
 * "-0" stays a negative zero.
 */
#ifndef TENDON_CLI_JSON_H
#define TENDON_CLI_JSON_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Read all of f and parse it as JSON (JSON_DECODE_INT_AS_REAL; `name` names f in messages, e.g.
 * "stdin"). A JSON number too large for a double (1e400, or an integer of 400 digits), which
 * jansson refuses, is kept instead as a placeholder value that remembers its text and position:
 * jx_find_overflow finds it, jx_write writes its text back unchanged, and jx_get_double refuses
 * it. Returns the value, or NULL with the reason in why[why_size] ("cannot read stdin: …",
 * "stdin is not JSON: … (line L, column C)"). Not thread-safe: the placeholders of the last
 * load live in this file until the next load.
 */
json_t *jx_load(FILE *f, const char *name, char *why, size_t why_size);

/*
 * The first placeholder (a number too large for a double) inside v, depth first. Returns 0 when
 * there is none; else 1, with what[what_size] naming it: its path inside v, its text and its
 * line and column in the input, e.g. `"a.translation[2]" is 1e400 (line 3, column 41)`.
 */
int jx_find_overflow(const json_t *v, char *what, size_t what_size);

/*
 * Read a file whole into a malloc'd, NUL-terminated buffer (*text, *len). Returns 0, or an errno
 * value (EISDIR for a directory) with nothing allocated.
 */
int jx_read_all(FILE *f, char **text, size_t *len);

/* A number as the case format spells it: a JSON real when finite, else "NaN" / "±Infinity". */
json_t *jx_number(double d);

/*
 * The length of the UTF-8 character at s (1 to 4), or 0 when the bytes there are not one (a
 * stray continuation byte, a Latin-1 byte, an overlong form, a surrogate, beyond U+10FFFF, a
 * sequence cut short): what jansson refuses in a string.
 */
size_t jx_utf8_char(const char *s);

/* A JSON string of s (text from outside: a path, the environment), each byte that is not UTF-8
   replaced by U+FFFD, so the member is never left out: json_string is NULL for such text. */
json_t *jx_string(const char *s);

/* An array of n floats, each widened to double exactly, then as jx_number. */
json_t *jx_float_array(const float *v, size_t n);

/*
 * Read a number in the case format: a JSON number, or one of the strings "NaN", "Infinity",
 * "-Infinity". Returns 0 on success, -1 if v is anything else (including NULL).
 */
int jx_get_double(const json_t *v, double *out);

/*
 * Read an array of exactly n numbers (when n != (size_t)-1) into out as float32, each double
 * rounded to the nearest float (as strtof rounds the same decimal, barring double rounding of
 * values that are not float32 already). Returns 0, or -1 with a reason in why[why_size].
 */
int jx_get_floats(const json_t *v, float *out, size_t n, char *why, size_t why_size);

/*
 * Write v in compact JSON with the number rule above. Object members keep their order.
 * Returns 0, or -1 on a value jansson cannot hold (never for values built here).
 */
int jx_write(FILE *f, const json_t *v);

/* Write an array one element per line: "[\n" e0 ",\n" e1 … "\n]\n". */
int jx_write_lines(FILE *f, const json_t *array);

/*
 * Compare two values, numbers bit for bit (so 0 and -0 differ) and "NaN" strings equal whatever
 * NaN they came from. Returns 0 when equal; otherwise 1, with the path of the first difference
 * (e.g. "out.rotation[5]") and both values in what[what_size].
 */
int jx_diff(const json_t *a, const json_t *b, char *what, size_t what_size);

/*
 * A double as JavaScript's Number.prototype.toString (ECMA-262 Number::toString) writes it: the
 * shortest decimal digits that read back as the same double (if several of that length do, the
 * closest to the double, an even last digit on a tie), then plain notation when the decimal
 * exponent is in [-7, 20] (100, 0.000001, 123456789012345680000) and exponent notation outside
 * it, with a sign and no padding (1e+21, 1e-7, 1.5e-7, 5e-324, 1.7976931348623157e+308).
 * One deviation: a negative zero is "-0" (JavaScript says "0"), so the sign survives the round
 * trip. NaN and the infinities give "NaN", "Infinity", "-Infinity". size >= 32 always suffices
 * (the longest is 25 characters and the NUL).
 */
void jx_format_double(double d, char *buf, size_t size);

#endif
