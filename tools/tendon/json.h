/*
 * JSON helpers of the `tendon` command, on top of jansson.
 *
 * Numbers follow the case files' convention (tests/data/CASES-README.md): a finite number is a
 * JSON number, written in the fewest significant digits that read back as the same double (so a
 * float32 value prints as JavaScript prints it, and `-0` keeps its sign); NaN and the infinities
 * are the strings "NaN", "Infinity", "-Infinity". Input is parsed with JSON_DECODE_INT_AS_REAL,
 * so every number is a double and "-0" stays a negative zero.
 */
#ifndef TENDON_CLI_JSON_H
#define TENDON_CLI_JSON_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* A number as the case format spells it: a JSON real when finite, else "NaN" / "±Infinity". */
json_t *jx_number(double d);

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

/* The fewest-digit decimal of a finite double that reads back as the same double ("%.*g"). */
void jx_format_double(double d, char *buf, size_t size);

#endif
