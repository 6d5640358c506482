/* JSON helpers of the `tendon` command: the case format's numbers, a writer, a bitwise diff. */
#define _POSIX_C_SOURCE 200809L
#include "json.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int is_nan(double d) { return d != d; }

json_t *jx_number(double d)
{
    if (is_nan(d))
        return json_string("NaN");
    if (d > 1.7976931348623157e308)
        return json_string("Infinity");
    if (d < -1.7976931348623157e308)
        return json_string("-Infinity");
    return json_real(d);
}

json_t *jx_float_array(const float *v, size_t n)
{
    json_t *a = json_array();
    if (!a)
        return NULL;
    for (size_t i = 0; i < n; ++i) {
        if (json_array_append_new(a, jx_number((double)v[i])) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

int jx_get_double(const json_t *v, double *out)
{
    if (json_is_real(v)) {
        *out = json_real_value(v);
        return 0;
    }
    if (json_is_integer(v)) {
        *out = (double)json_integer_value(v);
        return 0;
    }
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        if (strcmp(s, "NaN") == 0) {
            *out = (double)__builtin_nan("");
            return 0;
        }
        if (strcmp(s, "Infinity") == 0) {
            *out = __builtin_inf();
            return 0;
        }
        if (strcmp(s, "-Infinity") == 0) {
            *out = -__builtin_inf();
            return 0;
        }
    }
    return -1;
}

int jx_get_floats(const json_t *v, float *out, size_t n, char *why, size_t why_size)
{
    if (!json_is_array(v)) {
        snprintf(why, why_size, "is not an array");
        return -1;
    }
    const size_t have = json_array_size(v);
    if (n != (size_t)-1 && have != n) {
        snprintf(why, why_size, "has %zu elements, expected %zu", have, n);
        return -1;
    }
    for (size_t i = 0; i < have; ++i) {
        double d;
        if (jx_get_double(json_array_get(v, i), &d) != 0) {
            snprintf(why, why_size,
                     "[%zu] is not a number (nor \"NaN\", \"Infinity\", \"-Infinity\")", i);
            return -1;
        }
        out[i] = (float)d;
    }
    return 0;
}

void jx_format_double(double d, char *buf, size_t size)
{
    for (int precision = 1; precision <= 17; ++precision) {
        snprintf(buf, size, "%.*g", precision, d);
        double back = strtod(buf, NULL);
        if (memcmp(&back, &d, sizeof d) == 0)
            return;
    }
    snprintf(buf, size, "%.17g", d); /* reached only for values no precision round-trips */
}

static int write_string(FILE *f, const char *s, size_t len)
{
    if (fputc('"', f) == EOF)
        return -1;
    for (size_t i = 0; i < len; ++i) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        default:
            if (c < 0x20)
                fprintf(f, "\\u%04x", c);
            else
                fputc(c, f);
        }
    }
    return fputc('"', f) == EOF ? -1 : 0;
}

int jx_write(FILE *f, const json_t *v)
{
    char buf[64];
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const char *key;
        json_t *member;
        int first = 1;
        fputc('{', f);
        /* jansson (2.8 and later) iterates an object's members in insertion order. */
        json_object_foreach((json_t *)v, key, member) {
            if (!first)
                fputc(',', f);
            first = 0;
            write_string(f, key, strlen(key));
            fputc(':', f);
            if (jx_write(f, member) != 0)
                return -1;
        }
        fputc('}', f);
        return 0;
    }
    case JSON_ARRAY: {
        fputc('[', f);
        for (size_t i = 0; i < json_array_size(v); ++i) {
            if (i)
                fputc(',', f);
            if (jx_write(f, json_array_get(v, i)) != 0)
                return -1;
        }
        fputc(']', f);
        return 0;
    }
    case JSON_STRING: return write_string(f, json_string_value(v), json_string_length(v));
    case JSON_INTEGER: fprintf(f, "%" JSON_INTEGER_FORMAT, json_integer_value(v)); return 0;
    case JSON_REAL:
        jx_format_double(json_real_value(v), buf, sizeof buf);
        fputs(buf, f);
        return 0;
    case JSON_TRUE: fputs("true", f); return 0;
    case JSON_FALSE: fputs("false", f); return 0;
    case JSON_NULL: fputs("null", f); return 0;
    }
    return -1;
}

int jx_write_lines(FILE *f, const json_t *array)
{
    fputs("[\n", f);
    for (size_t i = 0; i < json_array_size(array); ++i) {
        if (i)
            fputs(",\n", f);
        if (jx_write(f, json_array_get(array, i)) != 0)
            return -1;
    }
    fputs(json_array_size(array) ? "\n]\n" : "]\n", f);
    return ferror(f) ? -1 : 0;
}

static void describe(const json_t *v, char *buf, size_t size)
{
    char num[64];
    switch (json_typeof(v)) {
    case JSON_REAL: {
        double d = json_real_value(v);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        jx_format_double(d, num, sizeof num);
        float f = (float)d;
        if ((double)f == d) {
            uint32_t fbits;
            memcpy(&fbits, &f, sizeof fbits);
            snprintf(buf, size, "%s (float 0x%08" PRIx32 ")", num, fbits);
        } else {
            snprintf(buf, size, "%s (double 0x%016" PRIx64 ")", num, bits);
        }
        return;
    }
    case JSON_STRING: snprintf(buf, size, "\"%.40s\"", json_string_value(v)); return;
    case JSON_INTEGER: snprintf(buf, size, "%" JSON_INTEGER_FORMAT, json_integer_value(v)); return;
    case JSON_OBJECT: snprintf(buf, size, "an object"); return;
    case JSON_ARRAY: snprintf(buf, size, "an array of %zu", json_array_size(v)); return;
    case JSON_TRUE: snprintf(buf, size, "true"); return;
    case JSON_FALSE: snprintf(buf, size, "false"); return;
    case JSON_NULL: snprintf(buf, size, "null"); return;
    }
    snprintf(buf, size, "?");
}

static int diff_at(const json_t *a, const json_t *b, char *path, size_t path_len, size_t path_size,
                   char *what, size_t what_size)
{
    int differ = 0;
    if (json_typeof(a) != json_typeof(b)) {
        differ = 1;
    } else if (json_is_real(a)) {
        double x = json_real_value(a), y = json_real_value(b);
        differ = memcmp(&x, &y, sizeof x) != 0;
    } else if (json_is_integer(a)) {
        differ = json_integer_value(a) != json_integer_value(b);
    } else if (json_is_string(a)) {
        differ = strcmp(json_string_value(a), json_string_value(b)) != 0;
    } else if (json_is_array(a)) {
        if (json_array_size(a) != json_array_size(b)) {
            differ = 1;
        } else {
            for (size_t i = 0; i < json_array_size(a); ++i) {
                int n = snprintf(path + path_len, path_size - path_len, "[%zu]", i);
                size_t len = path_len + (n > 0 ? (size_t)n : 0);
                if (len >= path_size)
                    len = path_size - 1;
                if (diff_at(json_array_get(a, i), json_array_get(b, i), path, len, path_size, what,
                            what_size))
                    return 1;
            }
            path[path_len] = '\0';
        }
    } else if (json_is_object(a)) {
        const char *key;
        json_t *member;
        if (json_object_size(a) != json_object_size(b))
            differ = 1;
        json_object_foreach((json_t *)a, key, member) {
            if (differ)
                break;
            json_t *other = json_object_get(b, key);
            int n = snprintf(path + path_len, path_size - path_len, "%s%s", path_len ? "." : "", key);
            size_t len = path_len + (n > 0 ? (size_t)n : 0);
            if (len >= path_size)
                len = path_size - 1;
            if (!other) {
                snprintf(what, what_size, "at %s: present on one side only", path);
                path[path_len] = '\0';
                return 1;
            }
            if (diff_at(member, other, path, len, path_size, what, what_size))
                return 1;
        }
        path[path_len] = '\0';
    }
    if (differ) {
        char da[96], db[96];
        describe(a, da, sizeof da);
        describe(b, db, sizeof db);
        snprintf(what, what_size, "at %s: %s vs %s", path_len ? path : "(top)", da, db);
    }
    return differ;
}

int jx_diff(const json_t *a, const json_t *b, char *what, size_t what_size)
{
    char path[256] = "";
    if (what_size)
        what[0] = '\0';
    return diff_at(a, b, path, 0, sizeof path, what, what_size);
}
