/* JSON helpers of the `tendon` command: the case format's numbers, a writer, a bitwise diff. */
#define _POSIX_C_SOURCE 200809L
#include "json.h"

#include <errno.h>
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

size_t jx_utf8_char(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    if (u[0] < 0x80)
        return u[0] ? 1 : 0;
    size_t len;
    unsigned long c;
    if (u[0] >= 0xc2 && u[0] <= 0xdf)
        len = 2, c = u[0] & 0x1fu;
    else if (u[0] >= 0xe0 && u[0] <= 0xef)
        len = 3, c = u[0] & 0x0fu;
    else if (u[0] >= 0xf0 && u[0] <= 0xf4)
        len = 4, c = u[0] & 0x07u;
    else
        return 0;
    for (size_t i = 1; i < len; ++i) {
        if ((u[i] & 0xc0) != 0x80)
            return 0;
        c = c << 6 | (u[i] & 0x3fu);
    }
    if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
        (c >= 0xd800 && c <= 0xdfff))
        return 0;
    return len;
}

json_t *jx_string(const char *s)
{
    json_t *v = json_string(s);
    if (v || !s)
        return v;
    const size_t n = strlen(s);
    char *copy = malloc(3 * n + 1), *o = copy;
    if (!copy)
        return NULL;
    for (const char *p = s; *p;) {
        const size_t len = jx_utf8_char(p);
        if (len) {
            memcpy(o, p, len), o += len, p += len;
        } else {
            memcpy(o, "\xef\xbf\xbd", 3), o += 3, ++p; /* U+FFFD */
        }
    }
    *o = '\0';
    v = json_string(copy);
    free(copy);
    return v;
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

/* ---- reading: numbers too large for a double ------------------------------------------------ */

/*
 * jansson refuses a whole document for one number that overflows a double ("real number
 * overflow"). jx_load rewrites each such number, before jansson sees the text, as the string
 * PLACEHOLDER followed by an index into the table below, which keeps the number's text and
 * position. The table belongs to the last jx_load. A string of the input could spell a
 * placeholder too: jx_load checks that every placeholder it made is found exactly once and no
 * other, else it refuses the input (naming the first overflowing number).
 */
#define PLACEHOLDER "\001tendon-overflow:"
#define PLACEHOLDER_JSON "\\u0001tendon-overflow:"

typedef struct jx_overflow {
    char *text;    /* the number as the input spells it */
    size_t offset; /* where it starts in the input, in bytes */
    int line, column; /* where it starts: 1-based, the column in characters (as jansson counts) */
    int seen;      /* times found as a value in the parsed input (must end at 1) */
    int as_key;    /* times found as an object key (must end at 0) */
} jx_overflow;

static jx_overflow *overflows;
static size_t overflow_count;

static void forget_overflows(void)
{
    for (size_t i = 0; i < overflow_count; ++i)
        free(overflows[i].text);
    free(overflows);
    overflows = NULL;
    overflow_count = 0;
}

/* The entry whose placeholder is exactly s[0..len), or NULL. */
static jx_overflow *placeholder_text(const char *s, size_t len)
{
    const size_t plen = sizeof PLACEHOLDER - 1;
    if (!overflow_count || len <= plen || len > plen + 20 || strncmp(s, PLACEHOLDER, plen) != 0)
        return NULL;
    size_t i = 0;
    for (size_t k = plen; k < len; ++k) {
        if (s[k] < '0' || s[k] > '9' || (k == plen && s[k] == '0' && len > plen + 1))
            return NULL; /* digits only, no leading zero: one spelling per index */
        i = i * 10 + (size_t)(s[k] - '0');
        if (i >= overflow_count)
            return NULL;
    }
    return &overflows[i];
}

/* The placeholder's entry, or NULL when v is not one of the last load's placeholders. */
static jx_overflow *placeholder(const json_t *v)
{
    return json_is_string(v) ? placeholder_text(json_string_value(v), json_string_length(v)) : NULL;
}

int jx_read_all(FILE *f, char **text, size_t *len)
{
    size_t cap = 1 << 16, used = 0;
    char *buf = malloc(cap);
    if (!buf)
        return ENOMEM;
    for (;;) {
        if (used + 1 >= cap) {
            char *bigger = cap < ((size_t)-1) / 2 ? realloc(buf, cap * 2) : NULL;
            if (!bigger) {
                free(buf);
                return ENOMEM;
            }
            buf = bigger;
            cap *= 2;
        }
        errno = 0;
        const size_t got = fread(buf + used, 1, cap - 1 - used, f);
        used += got;
        if (got == 0) {
            if (ferror(f)) {
                const int err = errno ? errno : EIO;
                free(buf);
                return err;
            }
            break;
        }
    }
    buf[used] = '\0';
    *text = buf;
    *len = used;
    return 0;
}

/* Whether t[0..n) is a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int is_json_number(const char *t, size_t n)
{
    size_t i = 0;
    if (i < n && t[i] == '-')
        ++i;
    if (i < n && t[i] == '0')
        ++i;
    else if (i < n && t[i] >= '1' && t[i] <= '9')
        while (i < n && t[i] >= '0' && t[i] <= '9')
            ++i;
    else
        return 0;
    if (i < n && t[i] == '.') {
        const size_t start = ++i;
        while (i < n && t[i] >= '0' && t[i] <= '9')
            ++i;
        if (i == start)
            return 0;
    }
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < n && (t[i] == '+' || t[i] == '-'))
            ++i;
        const size_t start = i;
        while (i < n && t[i] >= '0' && t[i] <= '9')
            ++i;
        if (i == start)
            return 0;
    }
    return i == n;
}

/* A growing output buffer. */
typedef struct jx_buf {
    char *p;
    size_t len, cap;
    int failed;
} jx_buf;

static void buf_add(jx_buf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

/*
 * Copy text into out with every number that overflows a double replaced by a placeholder string
 * (recorded in overflows[]). Strings are skipped whole; a number is the longest run of
 * [-+.0-9eE] starting at '-' or a digit outside a string, and only a run that is a JSON number is
 * touched. Columns count characters (a UTF-8 continuation byte does not start one), as jansson's
 * do. Returns 0, or -1 out of memory.
 */
static int rewrite_overflows(const char *text, size_t len, jx_buf *out)
{
    int line = 1, column = 1;
    size_t i = 0, copied = 0;
    while (i < len) {
        const char c = text[i];
        if (c == '"') {
            ++i, ++column;
            while (i < len && text[i] != '"') {
                const size_t step = text[i] == '\\' && i + 1 < len ? 2 : 1;
                for (size_t j = 0; j < step; ++j, ++i) {
                    if (text[i] == '\n')
                        ++line, column = 1;
                    else if (((unsigned char)text[i] & 0xc0) != 0x80)
                        ++column;
                }
            }
            ++i, ++column;
            continue;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            size_t end = i;
            while (end < len && text[end] != '\0' && strchr("-+.0123456789eE", text[end]))
                ++end;
            const size_t n = end - i;
            if (is_json_number(text + i, n)) {
                char *token = malloc(n + 1);
                if (!token)
                    return -1;
                memcpy(token, text + i, n);
                token[n] = '\0';
                const double d = strtod(token, NULL);
                if (d > 1.7976931348623157e308 || d < -1.7976931348623157e308) {
                    jx_overflow *more = realloc(overflows, (overflow_count + 1) * sizeof *more);
                    if (!more) {
                        free(token);
                        return -1;
                    }
                    overflows = more;
                    overflows[overflow_count] = (jx_overflow){
                        .text = token, .offset = i, .line = line, .column = column};
                    char ph[64];
                    const int phn =
                        snprintf(ph, sizeof ph, "\"" PLACEHOLDER_JSON "%zu\"", overflow_count);
                    ++overflow_count;
                    buf_add(out, text + copied, i - copied);
                    buf_add(out, ph, (size_t)phn);
                    copied = end;
                } else {
                    free(token);
                }
            }
            column += (int)n;
            i = end;
            continue;
        }
        if (c == '\n')
            ++line, column = 1;
        else if (((unsigned char)c & 0xc0) != 0x80)
            ++column;
        ++i;
    }
    buf_add(out, text + copied, len - copied);
    return out->failed ? -1 : 0;
}

/* Count where each placeholder appears in v, as a value or as an object key. */
static void count_placeholders(const json_t *v)
{
    jx_overflow *o = placeholder(v);
    if (o) {
        ++o->seen;
    } else if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); ++i)
            count_placeholders(json_array_get(v, i));
    } else if (json_is_object(v)) {
        const char *key;
        json_t *member;
        json_object_foreach((json_t *)v, key, member) {
            if ((o = placeholder_text(key, strlen(key))))
                ++o->as_key;
            count_placeholders(member);
        }
    }
}

static void overflow_message(const jx_overflow *o, char *what, size_t what_size)
{
    snprintf(what, what_size, "%.40s%s (line %d, column %d)", o->text,
             strlen(o->text) > 40 ? "..." : "", o->line, o->column);
}

/*
 * The input is not JSON, and may hold numbers too large for a double: say where it is wrong. Each
 * such number is blanked to "0" and spaces of its length, so jansson's line, column and position
 * are the input's own; an error at one of them names it as the input spells it.
 */
static void syntax_error(const char *text, size_t len, const char *name, char *why,
                         size_t why_size)
{
    /* Called when the placeholders did not come out exactly once each as values. */
    char *copy = malloc(len + 1);
    json_error_t jerr;
    if (!copy) {
        snprintf(why, why_size, "cannot read %s: out of memory", name);
        return;
    }
    memcpy(copy, text, len + 1);
    for (size_t i = 0; i < overflow_count; ++i) {
        memset(copy + overflows[i].offset, ' ', strlen(overflows[i].text));
        copy[overflows[i].offset] = '0';
    }
    json_t *v = json_loadb(copy, len, JSON_DECODE_INT_AS_REAL, &jerr);
    free(copy);
    if (v) {
        /* It is JSON: a string of the input spells one of the placeholders. */
        char what[128];
        json_decref(v);
        overflow_message(&overflows[0], what, sizeof what);
        snprintf(why, why_size,
                 "%s: the number %s is too large for a double, and a string of the input spells "
                 "tendon's own stand-in for such a number: cannot tell them apart",
                 name, what);
        return;
    }
    for (size_t i = 0; i < overflow_count; ++i) {
        char *near = strstr(jerr.text, "near '0'");
        if (near && (size_t)jerr.position == overflows[i].offset + 1) {
            snprintf(why, why_size, "%s is not JSON: %.*snear '%.40s' (line %d, column %d)", name,
                     (int)(near - jerr.text), jerr.text, overflows[i].text, jerr.line,
                     jerr.column);
            return;
        }
    }
    snprintf(why, why_size, "%s is not JSON: %s (line %d, column %d)", name, jerr.text, jerr.line,
             jerr.column);
}

json_t *jx_load(FILE *f, const char *name, char *why, size_t why_size)
{
    forget_overflows();
    char *text;
    size_t len;
    const int err = jx_read_all(f, &text, &len);
    if (err) {
        snprintf(why, why_size, "cannot read %s: %s", name, strerror(err));
        return NULL;
    }
    jx_buf rewritten = {0};
    if (rewrite_overflows(text, len, &rewritten) != 0) {
        snprintf(why, why_size, "cannot read %s: out of memory", name);
        free(text);
        free(rewritten.p);
        return NULL;
    }
    json_error_t jerr;
    json_t *v = json_loadb(rewritten.p ? rewritten.p : "", rewritten.len, JSON_DECODE_INT_AS_REAL,
                           &jerr);
    int exactly_once = 1;
    if (v) {
        count_placeholders(v);
        for (size_t i = 0; i < overflow_count; ++i)
            exactly_once &= overflows[i].seen == 1 && overflows[i].as_key == 0;
    }
    /* A placeholder that is not exactly one value: the input used a number as a key (not JSON),
     * or one of its strings spells a placeholder; syntax_error tells which. */
    if (!v || !exactly_once) {
        json_decref(v);
        v = NULL;
        syntax_error(text, len, name, why, why_size);
    }
    free(text);
    free(rewritten.p);
    return v;
}

/* Depth-first search for a placeholder, building its path in path[]. */
static const jx_overflow *find_overflow(const json_t *v, char *path, size_t path_len,
                                        size_t path_size)
{
    const jx_overflow *o = placeholder(v);
    if (o || (!json_is_array(v) && !json_is_object(v)))
        return o;
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); ++i) {
            int n = snprintf(path + path_len, path_size - path_len, "[%zu]", i);
            size_t len = path_len + (n > 0 ? (size_t)n : 0);
            if (len >= path_size)
                len = path_size - 1;
            if ((o = find_overflow(json_array_get(v, i), path, len, path_size)))
                return o;
        }
    } else {
        const char *key;
        json_t *member;
        json_object_foreach((json_t *)v, key, member) {
            int n = snprintf(path + path_len, path_size - path_len, "%s%s", path_len ? "." : "",
                             key);
            size_t len = path_len + (n > 0 ? (size_t)n : 0);
            if (len >= path_size)
                len = path_size - 1;
            if ((o = find_overflow(member, path, len, path_size)))
                return o;
        }
    }
    path[path_len] = '\0';
    return NULL;
}

int jx_find_overflow(const json_t *v, char *what, size_t what_size)
{
    if (!overflow_count)
        return 0;
    char path[256] = "";
    const jx_overflow *o = find_overflow(v, path, 0, sizeof path);
    if (!o)
        return 0;
    char where[128];
    overflow_message(o, where, sizeof where);
    if (path[0])
        snprintf(what, what_size, "\"%s\" is %s", path, where);
    else
        snprintf(what, what_size, "the number %s", where);
    return 1;
}

/* ---- printing a double as JavaScript does ------------------------------------------------ */

/* Whether s × 10^e reads back (strtod, correctly rounded) as exactly x. */
static int reads_back(uint64_t s, int e, double x)
{
    char text[48];
    snprintf(text, sizeof text, "%" PRIu64 "e%d", s, e);
    const double back = strtod(text, NULL);
    return memcmp(&back, &x, sizeof x) == 0;
}

/*
 * The shortest digits of a finite x > 0, as Number::toString picks them: *s has *k digits (no
 * trailing zero) and x is s × 10^(*n − *k), k as small as possible, then s closest to x.
 *
 * For each k, glibc's "%.*e" gives the k-digit decimal nearest x (exactly rounded, ties to even).
 * If it does not read back as x, the only other k-digit candidate is its neighbour on the other
 * side of x (anything further is further than the nearest one, on the side where the nearest is
 * already outside x's rounding interval, or beyond that neighbour): near a power of two the
 * interval is lopsided and that neighbour can be inside when the nearest is not.
 */
static void shortest_digits(double x, uint64_t *s_out, int *k_out, int *n_out)
{
    for (int k = 1; k <= 17; ++k) {
        char text[48];
        snprintf(text, sizeof text, "%.*e", k - 1, x); /* d.ddde±XX */
        uint64_t s = 0;
        const char *p = text;
        for (; *p && *p != 'e'; ++p)
            if (*p >= '0' && *p <= '9')
                s = s * 10 + (uint64_t)(*p - '0');
        const int e10 = atoi(p + 1); /* x ≈ d.ddd × 10^e10 */
        uint64_t pow_k1 = 1;         /* 10^(k−1) */
        for (int i = 1; i < k; ++i)
            pow_k1 *= 10;
        uint64_t pick = 0;
        int pick_e10 = 0, found = 0;
        if (reads_back(s, e10 - (k - 1), x)) {
            pick = s, pick_e10 = e10, found = 1;
        } else {
            /* s + 1, carried into the next power of ten: 9.99e4 + 1 → 1.00e5 */
            uint64_t up = s + 1;
            int up_e10 = e10;
            if (up == pow_k1 * 10)
                up = pow_k1, up_e10 = e10 + 1;
            /* s − 1, borrowed from the power of ten: 1.00e5 − 1 → 9.99e4 */
            uint64_t down = s - 1;
            int down_e10 = e10;
            if (s == pow_k1)
                down = pow_k1 * 10 - 1, down_e10 = e10 - 1;
            if (reads_back(up, up_e10 - (k - 1), x))
                pick = up, pick_e10 = up_e10, found = 1;
            else if (down > 0 && reads_back(down, down_e10 - (k - 1), x))
                pick = down, pick_e10 = down_e10, found = 1;
        }
        if (found) {
            int digits = k;
            while (digits > 1 && pick % 10 == 0)
                pick /= 10, --digits;
            *s_out = pick;
            *k_out = digits;
            *n_out = pick_e10 + 1;
            return;
        }
    }
    /* Unreachable: 17 significant digits always read back. */
    *s_out = 0;
    *k_out = 1;
    *n_out = 1;
}

void jx_format_double(double d, char *buf, size_t size)
{
    if (d != d) {
        snprintf(buf, size, "NaN");
        return;
    }
    if (d > 1.7976931348623157e308 || d < -1.7976931348623157e308) {
        snprintf(buf, size, d > 0 ? "Infinity" : "-Infinity");
        return;
    }
    if (d == 0.0) {
        /* JavaScript writes -0 as "0"; the case format keeps the sign. */
        snprintf(buf, size, "%s", 1.0 / d < 0 ? "-0" : "0");
        return;
    }
    char out[48], digits[24];
    size_t len = 0;
    if (d < 0) {
        out[len++] = '-';
        d = -d;
    }
    uint64_t s;
    int k, n;
    shortest_digits(d, &s, &k, &n);
    snprintf(digits, sizeof digits, "%0*" PRIu64, k, s);
    if (k <= n && n <= 21) {
        /* digits, then n − k zeros: 100, 9007199254740992, 123456789012345680000 */
        memcpy(out + len, digits, (size_t)k);
        len += (size_t)k;
        for (int i = 0; i < n - k; ++i)
            out[len++] = '0';
    } else if (0 < n && n <= 21) {
        /* the point inside the digits: 1.5, 0.1 is not this case */
        memcpy(out + len, digits, (size_t)n);
        len += (size_t)n;
        out[len++] = '.';
        memcpy(out + len, digits + n, (size_t)(k - n));
        len += (size_t)(k - n);
    } else if (-6 < n && n <= 0) {
        /* "0." and −n zeros before the digits: 0.1, 0.000001 */
        out[len++] = '0';
        out[len++] = '.';
        for (int i = 0; i < -n; ++i)
            out[len++] = '0';
        memcpy(out + len, digits, (size_t)k);
        len += (size_t)k;
    } else {
        /* d[.ddd]e±X, the exponent n − 1 unpadded: 1e+21, 1.5e-7 */
        out[len++] = digits[0];
        if (k > 1) {
            out[len++] = '.';
            memcpy(out + len, digits + 1, (size_t)(k - 1));
            len += (size_t)(k - 1);
        }
        len += (size_t)snprintf(out + len, sizeof out - len, "e%c%d", n - 1 < 0 ? '-' : '+',
                                n - 1 < 0 ? 1 - n : n - 1);
    }
    out[len] = '\0';
    snprintf(buf, size, "%s", out);
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
    case JSON_STRING: {
        const jx_overflow *o = placeholder(v);
        if (o) { /* a number too large for a double, written back as the input spelled it */
            fputs(o->text, f);
            return 0;
        }
        return write_string(f, json_string_value(v), json_string_length(v));
    }
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
    case JSON_STRING:
        if (placeholder(v))
            snprintf(buf, size, "%.40s", placeholder(v)->text);
        else
            snprintf(buf, size, "\"%.40s\"", json_string_value(v));
        return;
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
