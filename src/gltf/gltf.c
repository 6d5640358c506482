/*
 * glTF 2.0 import (tendon/gltf.h): JSON through jansson, everything else — GLB chunks, base64
 * data: URIs, buffers, bounds-checked accessors (byteOffset, byteStride, count, componentType,
 * normalized, sparse) — here. docs/gltf.md has the decisions.
 *
 * Every index read from the file is checked against its array before use, every byte range
 * against its buffer view and buffer (overflow-safe), so a malformed file is an error with the
 * file, the object and the rule, never an out-of-bounds read.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <float.h>
#include <math.h> /* sqrt: set-up time only (matrix decomposition), not a kernel */

#include "common/fpenv.h" /* header-only over the public API: the guard of gltf_load */
#include "tendon/gltf.h"
#include "tendon/tendon.h"

/* The library's thread-local message (tendon_error_message), set through the public API, so
   the importer links over the shared core as over the static one. */
#define tendon_gltf_set_error tendon_error_set

/* ---- the model ---------------------------------------------------------------------------- */

typedef struct prim_data {
    size_t n;
    float *pos, *nrm, *weights;
    uint16_t *joints;
    size_t ntargets;
    float **targets;
    float *defw;
    float *tan; /* TANGENT: [4·n] or NULL */
} prim_data;

typedef struct mesh_data {
    size_t prim_count;
    prim_data *prims;
} mesh_data;

struct tendon_gltf {
    char *notes;
    size_t notes_len;
    tendon_skeleton *skeleton;
    size_t node_count;
    int32_t *node_joint, *joint_node, *node_mesh, *node_skin;
    char **node_names;
    size_t skin_count;
    tendon_skin_binding **skins;
    uint32_t **skin_nodes;
    char **skin_names;
    size_t anim_count;
    tendon_clip **clips;
    char **anim_names;
    tendon_gltf_channel **chans;
    size_t *chan_counts;  /* tracks imported, per animation */
    size_t *file_chans;   /* channels in the file (imported or skipped), per animation */
    size_t mesh_count;
    mesh_data *meshes;
};

static void free_strings(char **s, size_t n)
{
    if (!s)
        return;
    for (size_t i = 0; i < n; ++i)
        free(s[i]);
    free(s);
}

void tendon_gltf_destroy(tendon_gltf *g)
{
    if (!g)
        return;
    free(g->notes);
    tendon_skeleton_destroy(g->skeleton);
    free(g->node_joint);
    free(g->joint_node);
    free(g->node_mesh);
    free(g->node_skin);
    free_strings(g->node_names, g->node_count);
    /* a half-built model (an allocation failed): each array of a pair may be NULL alone */
    for (size_t i = 0; i < g->skin_count; ++i) {
        if (g->skins)
            tendon_skin_binding_destroy(g->skins[i]);
        if (g->skin_nodes)
            free(g->skin_nodes[i]);
    }
    free(g->skins);
    free(g->skin_nodes);
    free_strings(g->skin_names, g->skin_count);
    for (size_t i = 0; i < g->anim_count; ++i) {
        if (g->clips)
            tendon_clip_destroy(g->clips[i]);
        if (g->chans)
            free(g->chans[i]);
    }
    free(g->clips);
    free(g->chans);
    free(g->chan_counts);
    free(g->file_chans);
    free_strings(g->anim_names, g->anim_count);
    for (size_t m = 0; g->meshes && m < g->mesh_count; ++m) {
        for (size_t p = 0; g->meshes[m].prims && p < g->meshes[m].prim_count; ++p) {
            prim_data *d = &g->meshes[m].prims[p];
            free(d->pos);
            free(d->nrm);
            free(d->tan);
            free(d->weights);
            free(d->joints);
            for (size_t t = 0; d->targets && t < d->ntargets; ++t)
                free(d->targets[t]);
            free(d->targets);
            free(d->defw);
        }
        free(g->meshes[m].prims);
    }
    free(g->meshes);
    free(g);
}

/* ---- the loading context -------------------------------------------------------------------- */

typedef struct ctx {
    const char *file;
    const char *base_dir;
    json_t *root;
    size_t nbuf;
    unsigned char **buf;
    size_t *buf_len;
    const unsigned char *glb_bin;
    size_t glb_bin_len;
    int is_glb;
    int quantized; /* KHR_mesh_quantization is required or used: integer vertex attributes */
    tendon_gltf *g;
    /* counts of the top-level arrays */
    size_t n_nodes, n_accessors, n_views, n_meshes, n_skins;
} ctx;

/* TENDON_ERR_FORMAT: "<file>: <object>: <rule>" */
static tendon_status ferr(const ctx *c, const char *object, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static tendon_status ferr(const ctx *c, const char *object, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tendon_gltf_set_error(TENDON_ERR_FORMAT, "%s: %s: %s", c->file, object, msg);
}

static tendon_status nomem(const ctx *c)
{
    return tendon_gltf_set_error(TENDON_ERR_NOMEM, "%s: out of memory", c->file);
}

/* A line of tendon_gltf_notes; TENDON_ERR_NOMEM when it cannot be stored (a load that lost a
   note would return a model whose notes do not say what was skipped). */
static tendon_status note(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static tendon_status note(ctx *c, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return TENDON_OK;
    if ((size_t)n >= sizeof line)
        n = (int)sizeof line - 1;
    char *grown = realloc(c->g->notes, c->g->notes_len + (size_t)n + 2);
    if (!grown)
        return nomem(c);
    c->g->notes = grown;
    memcpy(grown + c->g->notes_len, line, (size_t)n);
    c->g->notes_len += (size_t)n;
    grown[c->g->notes_len++] = '\n';
    grown[c->g->notes_len] = '\0';
    return TENDON_OK;
}

static void *xcalloc(size_t n, size_t size)
{
    if (n == 0)
        n = 1;
    return calloc(n, size);
}

/* ---- JSON helpers ------------------------------------------------------------------------- */

static size_t array_len(const json_t *root, const char *key)
{
    const json_t *a = json_object_get(root, key);
    return json_is_array(a) ? json_array_size(a) : 0;
}

/* An optional array member: absent is fine (NULL), present must be an array. */
static tendon_status opt_array(const ctx *c, const json_t *obj, const char *key, const char *where,
                               json_t **out)
{
    json_t *a = json_object_get(obj, key);
    *out = NULL;
    if (a && !json_is_array(a))
        return ferr(c, where, "`%s` must be an array", key);
    *out = a;
    return TENDON_OK;
}

/*
 * The bounds of byte offsets and lengths, and of accessor counts: 2^40 and 2^32 where size_t has
 * 64 bits. A 32-bit size_t (wasm32: docs/wasm.md) cannot hold them; there they are 2^31 and
 * 2^24, so that what is computed from them stays below 2^32 (byteOffset + byteLength in
 * view_range; count × 16 components × 4 bytes of a converted accessor).
 */
#if SIZE_MAX > 0xffffffffu
#define GLTF_BYTES_LIMIT ((size_t)1 << 40)
#define GLTF_COUNT_LIMIT ((size_t)1 << 32)
#else
#define GLTF_BYTES_LIMIT ((size_t)1 << 31)
#define GLTF_COUNT_LIMIT ((size_t)1 << 24)
#endif

/* A non-negative integer member below `limit`; absent: *out = dflt (dflt SIZE_MAX = required). */
static tendon_status get_index(const ctx *c, const json_t *obj, const char *key, size_t limit,
                               size_t dflt, const char *where, size_t *out)
{
    const json_t *v = json_object_get(obj, key);
    if (!v) {
        if (dflt == SIZE_MAX)
            return ferr(c, where, "`%s` is required", key);
        *out = dflt;
        return TENDON_OK;
    }
    if (!json_is_number(v))
        return ferr(c, where, "`%s` must be a number", key);
    const double d = json_number_value(v);
    if (!(d >= 0.0) || d >= 9007199254740992.0 || d != (double)(uint64_t)d)
        return ferr(c, where, "`%s` is %g: must be a non-negative integer", key, d);
    if ((uint64_t)d >= (uint64_t)limit)
        return ferr(c, where, "`%s` is %.0f: out of range (must be below %zu)", key, d, limit);
    *out = (size_t)d;
    return TENDON_OK;
}

static tendon_status get_numbers(const ctx *c, const json_t *obj, const char *key, size_t n,
                                 const char *where, double *out, int *present)
{
    const json_t *a = json_object_get(obj, key);
    *present = 0;
    if (!a)
        return TENDON_OK;
    if (!json_is_array(a) || json_array_size(a) != n)
        return ferr(c, where, "`%s` must be an array of %zu numbers", key, n);
    for (size_t i = 0; i < n; ++i) {
        const json_t *v = json_array_get(a, i);
        if (!json_is_number(v))
            return ferr(c, where, "`%s`[%zu] is not a number", key, i);
        out[i] = json_number_value(v);
    }
    *present = 1;
    return TENDON_OK;
}

/* The object's `name` copied into *out, or NULL without one; TENDON_ERR_NOMEM when the copy
   fails (not a model whose object lost its name). */
static tendon_status dup_name(const ctx *c, const json_t *obj, char **out)
{
    const char *s = json_string_value(json_object_get(obj, "name"));
    *out = s ? strdup(s) : NULL;
    return s && !*out ? nomem(c) : TENDON_OK;
}

/* ---- buffers ------------------------------------------------------------------------------- */

static int b64_value(unsigned char ch)
{
    if (ch >= 'A' && ch <= 'Z')
        return ch - 'A';
    if (ch >= 'a' && ch <= 'z')
        return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9')
        return ch - '0' + 52;
    if (ch == '+' || ch == '-')
        return 62;
    if (ch == '/' || ch == '_')
        return 63;
    return -1;
}

/* Decode base64 (standard or URL alphabet, '=' padding optional); -1 on a bad character. */
static long b64_decode(const char *in, size_t len, unsigned char *out)
{
    uint32_t acc = 0;
    int bits = 0;
    size_t o = 0;
    for (size_t i = 0; i < len; ++i) {
        const unsigned char ch = (unsigned char)in[i];
        if (ch == '=')
            break;
        const int v = b64_value(ch);
        if (v < 0)
            return -1;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (unsigned char)(acc >> bits);
        }
    }
    return (long)o;
}

static int hexval(char h)
{
    return h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                                         : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                                : -1;
}

/*
 * The first `limit` bytes of the file at path (all of it when shorter), or, with `too_long` set,
 * an error when it holds more: a model file is read whole, to at most TENDON_GLTF_MAX_FILE (a
 * GLB's length is 32-bit); a buffer's file only to its byteLength. Either way a file that never
 * ends (a FIFO, /dev/zero) stops being read there instead of until memory runs out; a regular
 * model file longer than the limit is refused by its size, unread. *err: the errno of a failure
 * (EFBIG: longer than the limit). Where size_t is 32-bit (WebAssembly) the buffer cannot grow
 * past 2 GiB: a model between 2 GiB and the limit fails as out of memory.
 */
enum { GLTF_READ_CHUNK = 1 << 16 };
#define TENDON_GLTF_MAX_FILE ((size_t)UINT32_MAX)
/* Whether f is a regular file longer than limit bytes (a FIFO, a device or a failed stat: no,
   and the reading finds out). */
static int file_exceeds(FILE *f, size_t limit)
{
#ifdef _WIN32
    struct _stati64 sb;
    return _fstati64(_fileno(f), &sb) == 0 && (sb.st_mode & _S_IFMT) == _S_IFREG &&
           (uint64_t)sb.st_size > (uint64_t)limit;
#else
    struct stat sb;
    return fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) &&
           (uint64_t)sb.st_size > (uint64_t)limit;
#endif
}

static tendon_status read_file(const char *path, size_t limit, int too_long, unsigned char **data,
                               size_t *len, int *err)
{
    FILE *f = fopen(path, "rb");
    *data = NULL;
    *len = 0;
    if (!f) { /* its FILE may not have been allocated: that is no I/O error */
        *err = errno;
        return errno == ENOMEM ? TENDON_ERR_NOMEM : TENDON_ERR_IO;
    }
    if (too_long && file_exceeds(f, limit)) { /* known before reading: not read at all */
        fclose(f);
        *err = EFBIG;
        return TENDON_ERR_IO;
    }
    size_t cap = GLTF_READ_CHUNK, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        const size_t room = limit - n; /* n ≤ limit throughout */
        const size_t want = cap - n < room ? cap - n : room;
        if (want == 0 && n == limit) {
            if (!too_long)
                break; /* a buffer's bytes past its byteLength are not needed, nor waited for */
            const int more = fgetc(f); /* a model at the limit: does the file hold more? */
            if (more == EOF && ferror(f)) {
                *err = errno ? errno : EIO;
                free(buf);
                fclose(f);
                return TENDON_ERR_IO;
            }
            if (more != EOF) {
                free(buf);
                fclose(f);
                *err = EFBIG;
                return TENDON_ERR_IO;
            }
            break; /* the end */
        }
        if (want == 0) { /* full, below the limit: grow */
            unsigned char *g = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!g) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = g;
            cap *= 2;
            continue;
        }
        const size_t got = fread(buf + n, 1, want, f);
        n += got;
        if (got < want) {
            if (ferror(f)) {
                *err = errno ? errno : EIO;
                free(buf);
                fclose(f);
                return TENDON_ERR_IO;
            }
            break; /* the end of the file */
        }
    }
    fclose(f);
    if (!buf) {
        *err = ENOMEM;
        return TENDON_ERR_NOMEM;
    }
    *data = buf;
    *len = n;
    return TENDON_OK;
}

static tendon_status load_buffers(ctx *c)
{
    json_t *bufs;
    tendon_status st = opt_array(c, c->root, "buffers", "buffers", &bufs);
    if (st)
        return st;
    c->nbuf = bufs ? json_array_size(bufs) : 0;
    c->buf = xcalloc(c->nbuf, sizeof *c->buf);
    c->buf_len = xcalloc(c->nbuf, sizeof *c->buf_len);
    if (!c->buf || !c->buf_len)
        return nomem(c);
    for (size_t i = 0; i < c->nbuf; ++i) {
        char where[48];
        snprintf(where, sizeof where, "buffers[%zu]", i);
        const json_t *b = json_array_get(bufs, i);
        if (!json_is_object(b))
            return ferr(c, where, "must be an object");
        size_t blen;
        if ((st = get_index(c, b, "byteLength", GLTF_BYTES_LIMIT, SIZE_MAX, where, &blen)))
            return st;
        const json_t *uri = json_object_get(b, "uri");
        if (!uri) {
            if (!c->is_glb || i != 0)
                return ferr(c, where, "has no `uri`: only the first buffer of a .glb may use the "
                                      "BIN chunk");
            if (!c->glb_bin)
                return ferr(c, where, "refers to the GLB BIN chunk, which the file does not have");
            if (c->glb_bin_len < blen)
                return ferr(c, where,
                            "byteLength %zu is larger than the GLB BIN chunk (%zu bytes): "
                            "truncated",
                            blen, c->glb_bin_len);
            c->buf[i] = malloc(blen ? blen : 1);
            if (!c->buf[i])
                return nomem(c);
            memcpy(c->buf[i], c->glb_bin, blen);
            c->buf_len[i] = blen;
            continue;
        }
        const char *u = json_string_value(uri);
        if (!u)
            return ferr(c, where, "`uri` must be a string");
        /* a NUL, as \u0000 or %00, would end the file name early: "a.bin%00.png" read a.bin */
        if (strlen(u) != json_string_length(uri) || strstr(u, "%00"))
            return ferr(c, where, "the `uri` \"%.200s\" holds a NUL character (\\u0000 or %%00)",
                        u);
        if (strncmp(u, "data:", 5) == 0) {
            const char *comma = strchr(u, ',');
            if (!comma || comma - u < 12 || strncmp(comma - 7, ";base64", 7) != 0)
                return ferr(c, where, "a data: URI must be base64 (`data:<type>;base64,…`)");
            const size_t enc = strlen(comma + 1);
            unsigned char *data = malloc(enc / 4 * 3 + 4);
            if (!data)
                return nomem(c);
            const long got = b64_decode(comma + 1, enc, data);
            if (got < 0) {
                free(data);
                return ferr(c, where, "the data: URI is not valid base64");
            }
            if ((size_t)got < blen) {
                free(data);
                return ferr(c, where, "the data: URI holds %ld bytes, byteLength says %zu: truncated",
                            got, blen);
            }
            c->buf[i] = data;
            c->buf_len[i] = blen;
            continue;
        }
        if (!c->base_dir)
            return ferr(c, where, "refers to the file \"%.200s\", and this model was loaded from "
                                  "memory with no base directory", u);
        /* a relative URI: percent-decoded, joined to the .gltf's directory */
        const size_t ul = strlen(u), bl = strlen(c->base_dir);
        char *path = malloc(bl + ul + 2);
        if (!path)
            return nomem(c);
        memcpy(path, c->base_dir, bl);
        size_t p = bl;
        if (bl > 0 && path[bl - 1] != '/'
#ifdef _WIN32
            && path[bl - 1] != '\\'
#endif
        )
            path[p++] = '/';
        for (size_t k = 0; k < ul; ++k) {
            if (u[k] == '%' && k + 2 < ul && hexval(u[k + 1]) >= 0 && hexval(u[k + 2]) >= 0) {
                path[p++] = (char)(hexval(u[k + 1]) * 16 + hexval(u[k + 2]));
                k += 2;
            } else {
                path[p++] = u[k];
            }
        }
        path[p] = '\0';
        unsigned char *data;
        size_t dlen;
        int err = 0;
        st = read_file(path, blen, 0, &data, &dlen, &err);
        if (st) {
            tendon_gltf_set_error(st, "%s: %s: cannot read \"%s\": %s", c->file, where, path,
                                  strerror(err));
            free(path);
            return st;
        }
        free(path);
        if (dlen < blen) {
            free(data);
            return ferr(c, where, "the file \"%.200s\" holds %zu bytes, byteLength says %zu: "
                                  "truncated", u, dlen, blen);
        }
        c->buf[i] = data;
        c->buf_len[i] = blen;
    }
    return TENDON_OK;
}

/* ---- accessors ---------------------------------------------------------------------------- */

enum { CT_I8 = 5120, CT_U8 = 5121, CT_I16 = 5122, CT_U16 = 5123, CT_U32 = 5125, CT_F32 = 5126 };

static size_t ct_size(int ct)
{
    switch (ct) {
    case CT_I8:
    case CT_U8: return 1;
    case CT_I16:
    case CT_U16: return 2;
    case CT_U32:
    case CT_F32: return 4;
    default: return 0;
    }
}

static int type_comps(const char *t)
{
    static const struct {
        const char *name;
        int n;
    } T[] = {{"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4},
             {"MAT2", 4},   {"MAT3", 9}, {"MAT4", 16}};
    for (size_t i = 0; t && i < sizeof T / sizeof T[0]; ++i)
        if (strcmp(t, T[i].name) == 0)
            return T[i].n;
    return 0;
}

/*
 * Bytes of one element: its components, except that a matrix's columns each start on a 4-byte
 * boundary (glTF 2.0, "Data Alignment"): MAT2 of bytes takes 8, MAT3 of bytes 12, MAT3 of
 * shorts 24. Only MAT4 of floats is ever read (inverse bind matrices), which has no padding;
 * the range checks need the padded size (a MAT3 of bytes was checked as 9 bytes an element).
 */
static size_t elem_size(const char *type, int comps, size_t csz)
{
    const size_t cols = type && strcmp(type, "MAT2") == 0   ? 2
                        : type && strcmp(type, "MAT3") == 0 ? 3
                        : type && strcmp(type, "MAT4") == 0 ? 4
                                                            : 0;
    if (!cols)
        return (size_t)comps * csz;
    return cols * ((cols * csz + 3) / 4 * 4);
}

typedef struct acc_view {
    const unsigned char *base; /* first element; NULL: no bufferView (zeros) */
    size_t stride;
} acc_view;

typedef struct acc {
    size_t count;
    int comps;
    int ct;
    int normalized;
    size_t elem; /* bytes per element, matrix columns padded (elem_size) */
    acc_view v;
    const json_t *sparse;
    /* sparse (checked by acc_open: ranges against their views, indices below count and
       strictly increasing): sparse_count entries, indices of index_ct at iv, values at vv */
    size_t sparse_count;
    int index_ct;
    acc_view iv, vv;
    char where[48];
} acc;

/* A range of `count` elements of `elem` bytes, `stride` apart, at `offset` in buffer view
   `view`: checked against the view and its buffer. */
static tendon_status view_range(const ctx *c, size_t view, size_t offset, size_t count,
                                size_t elem, size_t stride_req, const char *where, acc_view *out)
{
    const json_t *bv = json_array_get(json_object_get(c->root, "bufferViews"), view);
    char vw[48];
    snprintf(vw, sizeof vw, "bufferViews[%zu]", view);
    if (!json_is_object(bv))
        return ferr(c, vw, "must be an object");
    size_t buffer, boff, blen, bstride;
    tendon_status st;
    if ((st = get_index(c, bv, "buffer", c->nbuf, SIZE_MAX, vw, &buffer)) ||
        (st = get_index(c, bv, "byteOffset", GLTF_BYTES_LIMIT, 0, vw, &boff)) ||
        (st = get_index(c, bv, "byteLength", GLTF_BYTES_LIMIT, SIZE_MAX, vw, &blen)) ||
        (st = get_index(c, bv, "byteStride", 253, 0, vw, &bstride)))
        return st;
    if (boff + blen > c->buf_len[buffer])
        return ferr(c, vw, "byteOffset %zu + byteLength %zu runs past the end of buffers[%zu] "
                           "(%zu bytes)", boff, blen, buffer, c->buf_len[buffer]);
    size_t stride = bstride ? bstride : elem;
    if (stride_req)
        stride = stride_req;
    if (bstride && bstride < elem)
        return ferr(c, vw, "byteStride %zu is smaller than the element size %zu of %s", bstride,
                    elem, where);
    if (count > 0) {
        /* offset + (count − 1)·stride + elem ≤ blen, without overflow (all below GLTF_BYTES_LIMIT) */
        if (offset > blen || count - 1 > (blen - offset) / (stride ? stride : 1) ||
            offset + (count - 1) * stride + elem > blen)
            return ferr(c, where,
                        "%zu elements of %zu bytes, %zu apart, from byte %zu run past the end of "
                        "bufferViews[%zu] (%zu bytes)",
                        count, elem, stride, offset, view, blen);
    }
    out->base = c->buf[buffer] + boff + offset;
    out->stride = stride;
    return TENDON_OK;
}

static double comp_value(const unsigned char *p, int ct, int normalized);

/*
 * Check a->sparse entirely — its count against the accessor's, the index and value ranges
 * against their buffer views (so against bytes the file has), every index below the count and
 * strictly increasing — before anything is allocated for the accessor.
 */
static tendon_status sparse_open(const ctx *c, acc *a)
{
    const json_t *s = a->sparse;
    char where[64];
    snprintf(where, sizeof where, "%s.sparse", a->where);
    if (!json_is_object(s))
        return ferr(c, where, "must be an object");
    size_t n;
    tendon_status st;
    if ((st = get_index(c, s, "count", a->count + 1, SIZE_MAX, where, &n)))
        return st;
    if (n == 0)
        return ferr(c, where, "`count` must be at least 1");
    const json_t *ix = json_object_get(s, "indices"), *vx = json_object_get(s, "values");
    if (!json_is_object(ix) || !json_is_object(vx))
        return ferr(c, where, "`indices` and `values` are required objects");
    size_t iview, ioff, ict, vview, voff;
    char wi[80], wv[80];
    snprintf(wi, sizeof wi, "%s.indices", where);
    snprintf(wv, sizeof wv, "%s.values", where);
    if ((st = get_index(c, ix, "bufferView", c->n_views, SIZE_MAX, wi, &iview)) ||
        (st = get_index(c, ix, "byteOffset", GLTF_BYTES_LIMIT, 0, wi, &ioff)) ||
        (st = get_index(c, ix, "componentType", 5126, SIZE_MAX, wi, &ict)) ||
        (st = get_index(c, vx, "bufferView", c->n_views, SIZE_MAX, wv, &vview)) ||
        (st = get_index(c, vx, "byteOffset", GLTF_BYTES_LIMIT, 0, wv, &voff)))
        return st;
    if (ict != CT_U8 && ict != CT_U16 && ict != CT_U32)
        return ferr(c, wi, "componentType %zu: indices must be 5121, 5123 or 5125", ict);
    const size_t isz = ct_size((int)ict), elem = a->elem;
    if ((st = view_range(c, iview, ioff, n, isz, isz, wi, &a->iv)) ||
        (st = view_range(c, vview, voff, n, elem, elem, wv, &a->vv)))
        return st;
    size_t prev = 0;
    for (size_t k = 0; k < n; ++k) {
        const size_t i = (size_t)comp_value(a->iv.base + k * isz, (int)ict, 0);
        if (i >= a->count)
            return ferr(c, wi, "index %zu (entry %zu) is not below the accessor's count %zu", i, k,
                        a->count);
        if (k > 0 && i <= prev)
            return ferr(c, wi, "indices must be strictly increasing (entry %zu)", k);
        prev = i;
    }
    a->sparse_count = n;
    a->index_ct = (int)ict;
    return TENDON_OK;
}

/* Everything about accessor `index` that can be checked without allocating: its fields, its
   range in its buffer view, and its sparse part. */
static tendon_status acc_open(const ctx *c, size_t index, acc *a)
{
    snprintf(a->where, sizeof a->where, "accessors[%zu]", index);
    const json_t *o = json_array_get(json_object_get(c->root, "accessors"), index);
    if (!json_is_object(o))
        return ferr(c, a->where, "must be an object");
    size_t ct, count, off, view;
    tendon_status st;
    if ((st = get_index(c, o, "componentType", 5127, SIZE_MAX, a->where, &ct)) ||
        (st = get_index(c, o, "count", GLTF_COUNT_LIMIT, SIZE_MAX, a->where, &count)) ||
        (st = get_index(c, o, "byteOffset", GLTF_BYTES_LIMIT, 0, a->where, &off)) ||
        (st = get_index(c, o, "bufferView", c->n_views, SIZE_MAX - 1, a->where, &view)))
        return st;
    if (!ct_size((int)ct))
        return ferr(c, a->where, "componentType %zu is not one of 5120 5121 5122 5123 5125 5126", ct);
    a->ct = (int)ct;
    const char *type = json_string_value(json_object_get(o, "type"));
    a->comps = type_comps(type);
    if (!a->comps)
        return ferr(c, a->where, "`type` must be SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3 or MAT4");
    a->elem = elem_size(type, a->comps, ct_size(a->ct));
    if (count == 0)
        return ferr(c, a->where, "`count` must be at least 1");
    const json_t *norm = json_object_get(o, "normalized");
    a->normalized = json_is_true(norm);
    if (norm && !json_is_boolean(norm))
        return ferr(c, a->where, "`normalized` must be a boolean");
    if (a->normalized && (a->ct == CT_F32 || a->ct == CT_U32))
        return ferr(c, a->where, "`normalized` is only for byte and short components");
    a->count = count;
    a->sparse = json_object_get(o, "sparse");
    a->sparse_count = 0;
    a->v.base = NULL;
    a->v.stride = 0;
    if (view != SIZE_MAX - 1) {
        const size_t elem = a->elem;
        if ((st = view_range(c, view, off, count, elem, 0, a->where, &a->v)))
            return st;
    } else if (!a->sparse) {
        return ferr(c, a->where, "has neither a bufferView nor sparse values");
    }
    if (a->sparse && (st = sparse_open(c, a)))
        return st;
    return TENDON_OK;
}

/*
 * Every buffer view and every accessor, read or not: a file whose unused accessor runs past its
 * view, or whose unused view runs past its buffer, breaks the specification's rules and is
 * malformed (the glTF validator reports it), so it is refused at load as a used one would be.
 * Costs what acc_open costs: a few comparisons per accessor, and a pass over each sparse
 * accessor's indices; nothing is allocated or converted. What depends on a use (the component
 * count and type an attribute or a channel needs) is checked where it is used.
 */
static tendon_status check_every_accessor(const ctx *c)
{
    tendon_status st;
    for (size_t v = 0; v < c->n_views; ++v) {
        char vw[48];
        acc_view unused;
        snprintf(vw, sizeof vw, "bufferViews[%zu]", v);
        if ((st = view_range(c, v, 0, 0, 1, 0, vw, &unused)))
            return st;
    }
    for (size_t i = 0; i < c->n_accessors; ++i) {
        acc a;
        if ((st = acc_open(c, i, &a)))
            return st;
    }
    return TENDON_OK;
}

static double comp_value(const unsigned char *p, int ct, int normalized)
{
    switch (ct) {
    case CT_I8: {
        const double v = (double)*(const int8_t *)p;
        return normalized ? (v / 127.0 < -1.0 ? -1.0 : v / 127.0) : v;
    }
    case CT_U8: return normalized ? (double)*p / 255.0 : (double)*p;
    case CT_I16: {
        int16_t x;
        memcpy(&x, p, 2);
        return normalized ? ((double)x / 32767.0 < -1.0 ? -1.0 : (double)x / 32767.0) : (double)x;
    }
    case CT_U16: {
        uint16_t x;
        memcpy(&x, p, 2);
        return normalized ? (double)x / 65535.0 : (double)x;
    }
    case CT_U32: {
        uint32_t x;
        memcpy(&x, p, 4);
        return (double)x;
    }
    default: {
        float x;
        memcpy(&x, p, 4);
        return (double)x;
    }
    }
}

/*
 * Apply a checked a->sparse to the first `keep` elements of out[keep·comps] (the entries at
 * indices ≥ keep are not stored: indices increase, so they are the last ones).
 */
static void apply_sparse(const acc *a, size_t keep, float *outf, uint16_t *outu)
{
    const size_t isz = ct_size(a->index_ct), elem = a->elem;
    for (size_t k = 0; k < a->sparse_count; ++k) {
        const size_t i = (size_t)comp_value(a->iv.base + k * isz, a->index_ct, 0);
        if (i >= keep)
            break;
        for (int e = 0; e < a->comps; ++e) {
            const double v = comp_value(a->vv.base + k * elem + (size_t)e * ct_size(a->ct), a->ct,
                                        a->normalized);
            if (outf)
                outf[i * (size_t)a->comps + (size_t)e] = (float)v;
            else
                outu[i * (size_t)a->comps + (size_t)e] = (uint16_t)v;
        }
    }
}

/*
 * Accessor `index`, opened to be read as floats: its type must have `comps` components (0: any),
 * its component type be float, or a normalised integer when allow_norm has ALLOW_NORM, or any
 * 8- or 16-bit integer, normalised or not, when it has ALLOW_INT (KHR_mesh_quantization). Allocates nothing: a caller
 * compares a->count with what it needs (another attribute's count, the key count, the joint
 * count) before read_floats_of claims count·comps floats — a sparse accessor without a buffer
 * view can claim up to 2^32 elements in a few bytes of JSON.
 */
enum { ALLOW_NORM = 1, ALLOW_INT = 2 };

static tendon_status open_floats(const ctx *c, size_t index, int comps, int allow_norm,
                                 const char *what, acc *a)
{
    tendon_status st = acc_open(c, index, a);
    if (st)
        return st;
    if (comps && a->comps != comps)
        return ferr(c, a->where, "%s needs %d components per element, the accessor has %d", what,
                    comps, a->comps);
    if (a->ct != CT_F32 && !((allow_norm & ALLOW_NORM) && a->normalized) &&
        !((allow_norm & ALLOW_INT) && a->ct != CT_U32))
        return ferr(c, a->where, "%s must be float%s (componentType %d%s)%s", what,
                    allow_norm & ALLOW_INT   ? " or 8- or 16-bit integers"
                    : allow_norm & ALLOW_NORM ? " or normalised integers"
                                              : "",
                    a->ct, a->normalized ? "" : ", not normalised",
                    c->quantized ? "" : "; integer vertex attributes need KHR_mesh_quantization");
    return TENDON_OK;
}

/* The first `keep` (≤ a->count) elements of an opened accessor. *out: malloc'd [keep·comps]. */
static tendon_status read_floats_of(const ctx *c, const acc *a, size_t keep, float **out)
{
    *out = NULL;
    float *f = xcalloc(keep * (size_t)a->comps, sizeof(float));
    if (!f)
        return nomem(c);
    const size_t csz = ct_size(a->ct);
    if (a->v.base)
        for (size_t i = 0; i < keep; ++i)
            for (int e = 0; e < a->comps; ++e)
                f[i * (size_t)a->comps + (size_t)e] =
                    (float)comp_value(a->v.base + i * a->v.stride + (size_t)e * csz, a->ct,
                                      a->normalized);
    if (a->sparse)
        apply_sparse(a, keep, f, NULL);
    /* a float that is NaN or infinite is malformed data (the glTF validator's
       ACCESSOR_INVALID_FLOAT), not a value to animate or skin with; integers always convert to
       finite values */
    for (size_t i = 0; a->ct == CT_F32 && i < keep * (size_t)a->comps; ++i)
        if (!(f[i] - f[i] == 0.0f)) {
            const double bad = (double)f[i];
            free(f);
            return ferr(c, a->where, "element %zu, component %zu is %g: float values must be "
                                     "finite", i / (size_t)a->comps, i % (size_t)a->comps, bad);
        }
    *out = f;
    return TENDON_OK;
}

/* JOINTS_0, opened: VEC4 of unsigned byte or short, not normalised. Allocates nothing. */
static tendon_status open_joints(const ctx *c, size_t index, acc *a)
{
    tendon_status st = acc_open(c, index, a);
    if (st)
        return st;
    if (a->comps != 4 || (a->ct != CT_U8 && a->ct != CT_U16) || a->normalized)
        return ferr(c, a->where, "JOINTS_0 must be VEC4 of unsigned byte or unsigned short");
    return TENDON_OK;
}

/* An opened JOINTS_0 accessor → uint16. *out: malloc'd [count·4]. */
static tendon_status read_joints_of(const ctx *c, const acc *a, uint16_t **out)
{
    *out = NULL;
    uint16_t *u = xcalloc(a->count * 4, sizeof(uint16_t));
    if (!u)
        return nomem(c);
    const size_t csz = ct_size(a->ct);
    if (a->v.base)
        for (size_t i = 0; i < a->count; ++i)
            for (size_t e = 0; e < 4; ++e)
                u[i * 4 + e] =
                    (uint16_t)comp_value(a->v.base + i * a->v.stride + e * csz, a->ct, 0);
    if (a->sparse)
        apply_sparse(a, a->count, NULL, u);
    *out = u;
    return TENDON_OK;
}

/* A mesh attribute's count must be the primitive's vertex count (POSITION's); checked before the
   attribute is read. */
static tendon_status check_vertices(const ctx *c, const char *object, const char *what,
                                    const acc *a, size_t n, size_t position_acc)
{
    if (a->count == n)
        return TENDON_OK;
    char pos[48];
    if (position_acc == SIZE_MAX - 1)
        snprintf(pos, sizeof pos, "the primitive (no POSITION)");
    else
        snprintf(pos, sizeof pos, "POSITION (accessors[%zu])", position_acc);
    return ferr(c, object, "%s (%s) has %zu vertices, %s %zu; they must be equal", what,
                a->where, a->count, pos, n);
}

/* ---- nodes → skeleton --------------------------------------------------------------------------- */

/* three.js Matrix4.decompose, in double: T, S (column lengths, sx negated when det < 0), R. */
static void decompose(const double m[16], double t[3], double q[4], double s[3])
{
    double sx = 0, sy = 0, sz = 0;
    for (int r = 0; r < 3; ++r) {
        sx += m[r] * m[r];
        sy += m[4 + r] * m[4 + r];
        sz += m[8 + r] * m[8 + r];
    }
    sx = sqrt(sx), sy = sqrt(sy), sz = sqrt(sz);
    const double det = m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) +
                       m[8] * (m[1] * m[6] - m[5] * m[2]);
    if (det < 0)
        sx = -sx;
    t[0] = m[12], t[1] = m[13], t[2] = m[14];
    s[0] = sx, s[1] = sy, s[2] = sz;
    const double ix = sx != 0 ? 1 / sx : 0, iy = sy != 0 ? 1 / sy : 0, iz = sz != 0 ? 1 / sz : 0;
    /* rotation matrix rows/cols: r[row][col] */
    const double m11 = m[0] * ix, m21 = m[1] * ix, m31 = m[2] * ix;
    const double m12 = m[4] * iy, m22 = m[5] * iy, m32 = m[6] * iy;
    const double m13 = m[8] * iz, m23 = m[9] * iz, m33 = m[10] * iz;
    const double trace = m11 + m22 + m33;
    if (trace > 0) {
        const double k = 0.5 / sqrt(trace + 1.0);
        q[3] = 0.25 / k, q[0] = (m32 - m23) * k, q[1] = (m13 - m31) * k, q[2] = (m21 - m12) * k;
    } else if (m11 > m22 && m11 > m33) {
        const double k = 2.0 * sqrt(1.0 + m11 - m22 - m33);
        q[3] = (m32 - m23) / k, q[0] = 0.25 * k, q[1] = (m12 + m21) / k, q[2] = (m13 + m31) / k;
    } else if (m22 > m33) {
        const double k = 2.0 * sqrt(1.0 + m22 - m11 - m33);
        q[3] = (m13 - m31) / k, q[0] = (m12 + m21) / k, q[1] = 0.25 * k, q[2] = (m23 + m32) / k;
    } else {
        const double k = 2.0 * sqrt(1.0 + m33 - m11 - m22);
        q[3] = (m21 - m12) / k, q[0] = (m13 + m31) / k, q[1] = (m23 + m32) / k, q[2] = 0.25 * k;
    }
}


/* A set of joint names (open addressing, FNV-1a) with, per name, the next #k to try when it is
   met again: naming n joints costs O(n) however many share a name. */
typedef struct name_slot {
    const char *key;
    unsigned next;
} name_slot;
typedef struct name_set {
    name_slot *slots;
    size_t mask;
} name_set;

static int name_set_init(name_set *s, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n + 2)
        cap *= 2;
    s->slots = calloc(cap, sizeof *s->slots);
    s->mask = cap - 1;
    return s->slots != NULL;
}

static name_slot *name_set_find(name_set *s, const char *key)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (const unsigned char *p = (const unsigned char *)key; *p; ++p)
        h = (h ^ *p) * 0x100000001b3u;
    for (size_t at = (size_t)h & s->mask;; at = (at + 1) & s->mask)
        if (!s->slots[at].key || strcmp(s->slots[at].key, key) == 0)
            return &s->slots[at];
}
static tendon_status load_nodes(ctx *c)
{
    tendon_gltf *g = c->g;
    json_t *nodes;
    tendon_status st = opt_array(c, c->root, "nodes", "nodes", &nodes);
    if (st)
        return st;
    const size_t n = c->n_nodes;
    if (n > (size_t)INT32_MAX / 2)
        return ferr(c, "nodes", "%zu nodes: too many", n);
    g->node_count = n;
    g->node_joint = xcalloc(n, sizeof(int32_t));
    g->joint_node = xcalloc(n, sizeof(int32_t));
    g->node_mesh = xcalloc(n, sizeof(int32_t));
    g->node_skin = xcalloc(n, sizeof(int32_t));
    g->node_names = xcalloc(n, sizeof(char *));
    int32_t *parent = xcalloc(n, sizeof(int32_t));
    int32_t *jparents = xcalloc(n, sizeof(int32_t));
    size_t *stack = xcalloc(n, sizeof(size_t));
    tendon_pose rest = {0};
    if (!g->node_joint || !g->joint_node || !g->node_mesh || !g->node_skin || !g->node_names ||
        !parent || !jparents || !stack || tendon_pose_create(n, &rest) != TENDON_OK) {
        st = nomem(c);
        goto done;
    }
    for (size_t i = 0; i < n; ++i)
        parent[i] = -1, g->node_joint[i] = -1, g->node_mesh[i] = -1, g->node_skin[i] = -1;
    for (size_t i = 0; i < n; ++i) {
        char where[32];
        snprintf(where, sizeof where, "nodes[%zu]", i);
        const json_t *nd = json_array_get(nodes, i);
        if (!json_is_object(nd)) {
            st = ferr(c, where, "must be an object");
            goto done;
        }
        json_t *children;
        if ((st = dup_name(c, nd, &g->node_names[i])) ||
            (st = opt_array(c, nd, "children", where, &children)))
            goto done;
        for (size_t k = 0; children && k < json_array_size(children); ++k) {
            const json_t *ch = json_array_get(children, k);
            const double d = json_is_number(ch) ? json_number_value(ch) : -1;
            if (!(d >= 0) || d >= (double)n || d != (double)(size_t)d) {
                st = ferr(c, where, "children[%zu] is not a node index below %zu", k, n);
                goto done;
            }
            const size_t child = (size_t)d;
            if (child == i) {
                st = ferr(c, where, "lists itself as a child: a cycle in the node graph");
                goto done;
            }
            if (parent[child] >= 0) {
                st = ferr(c, where,
                          "child node %zu already has parent node %d: a node has at most one "
                          "parent",
                          child, parent[child]);
                goto done;
            }
            parent[child] = (int32_t)i;
        }
        size_t mesh, skin;
        if ((st = get_index(c, nd, "mesh", c->n_meshes, SIZE_MAX - 1, where, &mesh)) ||
            (st = get_index(c, nd, "skin", c->n_skins, SIZE_MAX - 1, where, &skin)))
            goto done;
        g->node_mesh[i] = mesh == SIZE_MAX - 1 ? -1 : (int32_t)mesh;
        g->node_skin[i] = skin == SIZE_MAX - 1 ? -1 : (int32_t)skin;
        double m[16], t[3] = {0, 0, 0}, r[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
        int has_m, has_t, has_r, has_s;
        if ((st = get_numbers(c, nd, "matrix", 16, where, m, &has_m)) ||
            (st = get_numbers(c, nd, "translation", 3, where, t, &has_t)) ||
            (st = get_numbers(c, nd, "rotation", 4, where, r, &has_r)) ||
            (st = get_numbers(c, nd, "scale", 3, where, s, &has_s)))
            goto done;
        if (has_m)
            decompose(m, t, r, s);
        /* stored by node index for now; permuted into joint order below */
        for (int e = 0; e < 3; ++e)
            rest.translation[3 * i + (size_t)e] = (float)t[e], rest.scale[3 * i + (size_t)e] = (float)s[e];
        for (int e = 0; e < 4; ++e)
            rest.rotation[4 * i + (size_t)e] = (float)r[e];
        /* a number past the float range (1e39) would be an infinite rest transform, and a
           matrix holding one decomposes to NaN */
        for (int e = 0; e < 10; ++e) {
            const float *v = e < 3   ? &rest.translation[3 * i + (size_t)e]
                             : e < 7 ? &rest.rotation[4 * i + (size_t)(e - 3)]
                                     : &rest.scale[3 * i + (size_t)(e - 7)];
            const double src = e < 3 ? t[e] : e < 7 ? r[e - 3] : s[e - 7];
            const char *prop = e < 3 ? "translation" : e < 7 ? "rotation" : "scale";
            const int k = e < 3 ? e : e < 7 ? e - 3 : e - 7;
            if (!(*v - *v == 0.0f)) {
                if (has_m)
                    st = ferr(c, where, "`matrix` decomposes to %s[%d] = %g: not a finite float",
                              prop, k, src);
                else
                    st = ferr(c, where, "%s[%d] is %g: not a finite float (at most %g)", prop,
                              k, src, (double)FLT_MAX);
                goto done;
            }
        }
    }
    /* DFS pre-order: the scene's roots, then every other parentless node */
    size_t order = 0;
    /* `scene` below the scene count, so not there without scenes (glTF: it must not be); a
       `scenes` that is not an array, or a `scene` with none, was ignored (review 34) */
    json_t *scenes;
    if ((st = opt_array(c, c->root, "scenes", "scenes", &scenes)))
        goto done;
    const size_t nscenes = scenes ? json_array_size(scenes) : 0;
    size_t scene = SIZE_MAX;
    if ((st = get_index(c, c->root, "scene", nscenes, nscenes ? 0 : SIZE_MAX - 1, "scene",
                        &scene)))
        goto done;
    if (scene == SIZE_MAX - 1)
        scene = SIZE_MAX;
    json_t *roots = NULL;
    if (scene != SIZE_MAX) {
        char where[32];
        snprintf(where, sizeof where, "scenes[%zu]", scene);
        const json_t *sc = json_array_get(scenes, scene);
        if (!json_is_object(sc)) {
            st = ferr(c, where, "must be an object");
            goto done;
        }
        if ((st = opt_array(c, sc, "nodes", where, &roots)))
            goto done;
    }
    const size_t nroots = roots ? json_array_size(roots) : 0;
    for (size_t pass = 0; pass < 2; ++pass) {
        const size_t lim = pass == 0 ? nroots : n;
        for (size_t k = 0; k < lim; ++k) {
            size_t rnode = k;
            if (pass == 0) {
                const json_t *v = json_array_get(roots, k);
                const double d = json_is_number(v) ? json_number_value(v) : -1;
                if (!(d >= 0) || d >= (double)n || d != (double)(size_t)d) {
                    st = ferr(c, "scene", "nodes[%zu] is not a node index below %zu", k, n);
                    goto done;
                }
                rnode = (size_t)d;
                if (parent[rnode] >= 0) {
                    st = ferr(c, "scene", "node %zu is listed as a root but is a child of node %d",
                              rnode, parent[rnode]);
                    goto done;
                }
                if (g->node_joint[rnode] >= 0) {
                    st = ferr(c, "scene", "node %zu is listed twice", rnode);
                    goto done;
                }
            } else if (parent[rnode] >= 0 || g->node_joint[rnode] >= 0) {
                continue;
            }
            size_t sp = 0;
            stack[sp++] = rnode;
            while (sp > 0) {
                const size_t x = stack[--sp];
                g->node_joint[x] = (int32_t)order;
                g->joint_node[order] = (int32_t)x;
                jparents[order] = parent[x] < 0 ? -1 : g->node_joint[parent[x]];
                ++order;
                const json_t *ch = json_object_get(json_array_get(nodes, x), "children");
                for (size_t m = json_array_size(ch); m-- > 0;) {
                    const size_t child = (size_t)json_number_value(json_array_get(ch, m));
                    if (sp >= n) { /* cannot happen with one parent per node; guard anyway */
                        st = ferr(c, "nodes", "the node graph is not a forest");
                        goto done;
                    }
                    stack[sp++] = child;
                }
            }
        }
    }
    if (order != n) {
        for (size_t i = 0; i < n; ++i)
            if (g->node_joint[i] < 0) {
                char where[32];
                snprintf(where, sizeof where, "nodes[%zu]", i);
                st = ferr(c, where, "is on a cycle in the node graph (no root above it)");
                goto done;
            }
    }
    {
        tendon_pose jr = {0};
        if (tendon_pose_create(n, &jr) != TENDON_OK) {
            st = nomem(c);
            goto done;
        }
        for (size_t j = 0; j < n; ++j) {
            const size_t i = (size_t)g->joint_node[j];
            memcpy(jr.translation + 3 * j, rest.translation + 3 * i, 12);
            memcpy(jr.rotation + 4 * j, rest.rotation + 4 * i, 16);
            memcpy(jr.scale + 3 * j, rest.scale + 3 * i, 12);
        }
        /* joint names from the nodes (docs/gltf.md, "Joint names"): the node's name, or
           node<index> without one; a name met again, in joint (DFS) order, gets #2, #3, … */
        char **names = xcalloc(n ? n : 1, sizeof *names);
        name_set set = {NULL, 0};
        if (!names || !name_set_init(&set, n)) {
            free(names);
            free(set.slots);
            tendon_pose_destroy(&jr);
            st = nomem(c);
            goto done;
        }
        for (size_t j = 0; j < n && st == TENDON_OK; ++j) {
            const size_t i = (size_t)g->joint_node[j];
            char base[64];
            const char *nm = g->node_names[i];
            if (!nm || !*nm) {
                snprintf(base, sizeof base, "node%zu", i);
                nm = base;
            }
            const size_t len = strlen(nm);
            if (!(names[j] = malloc(len + 24))) {
                st = nomem(c);
                break;
            }
            memcpy(names[j], nm, len + 1);
            name_slot *seen = name_set_find(&set, names[j]);
            if (seen->key) { /* a repeat: the base's next free suffix */
                unsigned k = seen->next;
                do
                    snprintf(names[j] + len, 24, "#%u", k++);
                while (name_set_find(&set, names[j])->key);
                seen->next = k;
            }
            name_slot *slot = name_set_find(&set, names[j]);
            slot->key = names[j];
            slot->next = 2;
        }
        free(set.slots);
        if (st == TENDON_OK) {
            tendon_skeleton_desc d = {n, jparents, (const char *const *)names, &jr};
            st = tendon_skeleton_create(&d, &g->skeleton);
        }
        for (size_t j = 0; j < n; ++j)
            free(names[j]);
        free(names);
        tendon_pose_destroy(&jr);
    }
done:
    tendon_pose_destroy(&rest);
    free(parent);
    free(jparents);
    free(stack);
    return st;
}

/* ---- skins ----------------------------------------------------------------------------------- */

static tendon_status load_skins(ctx *c)
{
    tendon_gltf *g = c->g;
    const json_t *skins = json_object_get(c->root, "skins");
    g->skin_count = c->n_skins;
    g->skins = xcalloc(c->n_skins, sizeof *g->skins);
    g->skin_nodes = xcalloc(c->n_skins, sizeof *g->skin_nodes);
    g->skin_names = xcalloc(c->n_skins, sizeof *g->skin_names);
    if (!g->skins || !g->skin_nodes || !g->skin_names)
        return nomem(c);
    for (size_t s = 0; s < c->n_skins; ++s) {
        char where[32];
        snprintf(where, sizeof where, "skins[%zu]", s);
        const json_t *sk = json_array_get(skins, s);
        if (!json_is_object(sk))
            return ferr(c, where, "must be an object");
        tendon_status st = dup_name(c, sk, &g->skin_names[s]);
        if (st)
            return st;
        const json_t *joints = json_object_get(sk, "joints");
        if (!json_is_array(joints) || json_array_size(joints) == 0)
            return ferr(c, where, "`joints` must be a non-empty array of node indices");
        const size_t nj = json_array_size(joints);
        uint32_t *jof = xcalloc(nj, sizeof(uint32_t));
        g->skin_nodes[s] = xcalloc(nj, sizeof(uint32_t));
        if (!jof || !g->skin_nodes[s]) {
            free(jof);
            return nomem(c);
        }
        for (size_t k = 0; k < nj; ++k) {
            const json_t *v = json_array_get(joints, k);
            const double d = json_is_number(v) ? json_number_value(v) : -1;
            if (!(d >= 0) || d >= (double)c->n_nodes || d != (double)(size_t)d) {
                free(jof);
                return ferr(c, where, "joints[%zu] is not a node index below %zu", k, c->n_nodes);
            }
            g->skin_nodes[s][k] = (uint32_t)d;
            jof[k] = (uint32_t)g->node_joint[(size_t)d];
        }
        size_t ibm_acc;
        float *ibm = NULL;
        st = get_index(c, sk, "inverseBindMatrices", c->n_accessors, SIZE_MAX - 1, where,
                       &ibm_acc);
        if (!st && ibm_acc != SIZE_MAX - 1) {
            /* at least one matrix per joint; only the first nj are used, so only they are read */
            acc ia;
            st = open_floats(c, ibm_acc, 16, 0, "inverseBindMatrices", &ia);
            if (!st && ia.count < nj)
                st = ferr(c, where, "inverseBindMatrices (%s) has %zu matrices for %zu joints",
                          ia.where, ia.count, nj);
            if (!st)
                st = read_floats_of(c, &ia, nj, &ibm);
        } else if (!st) {
            ibm = xcalloc(16 * nj, sizeof(float));
            if (!ibm)
                st = nomem(c);
            for (size_t k = 0; ibm && k < nj; ++k)
                ibm[16 * k] = ibm[16 * k + 5] = ibm[16 * k + 10] = ibm[16 * k + 15] = 1.0f;
        }
        if (!st) {
            st = tendon_skin_binding_create(g->skeleton, jof, ibm, nj, &g->skins[s]);
            if (st) {
                char msg[512];
                snprintf(msg, sizeof msg, "%s", tendon_error_message());
                st = tendon_gltf_set_error(st, "%s: %s: %s", c->file, where, msg);
            }
        }
        free(ibm);
        free(jof);
        if (st)
            return st;
    }
    return TENDON_OK;
}

/* ---- animations ------------------------------------------------------------------------------- */

static tendon_status load_animations(ctx *c)
{
    tendon_gltf *g = c->g;
    json_t *anims;
    tendon_status st = opt_array(c, c->root, "animations", "animations", &anims);
    if (st)
        return st;
    const size_t na = anims ? json_array_size(anims) : 0;
    g->anim_count = na;
    g->clips = xcalloc(na, sizeof *g->clips);
    g->anim_names = xcalloc(na, sizeof *g->anim_names);
    g->chans = xcalloc(na, sizeof *g->chans);
    g->chan_counts = xcalloc(na, sizeof *g->chan_counts);
    g->file_chans = xcalloc(na, sizeof *g->file_chans);
    /* accessors read once per animation: inputs at [i], outputs at [n + i] (an accessor may
       serve as both, with different rules), with the components an output was read with */
    const size_t na2 = 2 * c->n_accessors;
    float **cache = xcalloc(na2, sizeof(float *));
    size_t *cache_n = xcalloc(na2, sizeof(size_t));
    int *cache_comps = xcalloc(na2, sizeof(int));
    /* per (node, path): the animation (a + 1) whose channel `target_chan` targets it, so that a
       second channel on one target is refused naming both channels and the node (the clip's
       own message would name its tracks and skeleton joints, not the file's channels and nodes) */
    size_t *target_anim = xcalloc(4 * c->n_nodes, sizeof(size_t));
    size_t *target_chan = xcalloc(4 * c->n_nodes, sizeof(size_t));
    if (!g->clips || !g->anim_names || !g->chans || !g->chan_counts || !g->file_chans || !cache ||
        !cache_n || !cache_comps || !target_anim || !target_chan) {
        free(cache);
        free(cache_n);
        free(cache_comps);
        free(target_anim);
        free(target_chan);
        return nomem(c);
    }
    tendon_track_desc *tracks = NULL;
    for (size_t a = 0; a < na && !st; ++a) {
        char where[48];
        snprintf(where, sizeof where, "animations[%zu]", a);
        const json_t *an = json_array_get(anims, a);
        if (!json_is_object(an)) {
            st = ferr(c, where, "must be an object");
            break;
        }
        if ((st = dup_name(c, an, &g->anim_names[a])))
            break;
        const json_t *channels = json_object_get(an, "channels");
        const json_t *samplers = json_object_get(an, "samplers");
        if (!json_is_array(channels) || !json_is_array(samplers)) {
            st = ferr(c, where, "`channels` and `samplers` must be arrays");
            break;
        }
        const size_t nc = json_array_size(channels), ns = json_array_size(samplers);
        g->file_chans[a] = nc;
        free(tracks);
        tracks = xcalloc(nc, sizeof *tracks);
        g->chans[a] = xcalloc(nc, sizeof(tendon_gltf_channel));
        if (!tracks || !g->chans[a]) {
            st = nomem(c);
            break;
        }
        size_t nt = 0;
        for (size_t k = 0; k < nc && !st; ++k) {
            char cw[80];
            snprintf(cw, sizeof cw, "%s.channels[%zu]", where, k);
            const json_t *ch = json_array_get(channels, k);
            const json_t *target = json_object_get(ch, "target");
            if (!json_is_object(ch) || !json_is_object(target)) {
                st = ferr(c, cw, "must be an object with a `target` object");
                break;
            }
            size_t sampler, node;
            if ((st = get_index(c, ch, "sampler", ns, SIZE_MAX, cw, &sampler)) ||
                (st = get_index(c, target, "node", c->n_nodes, SIZE_MAX - 1, cw, &node)))
                break;
            const char *path = json_string_value(json_object_get(target, "path"));
            if (!path) {
                st = ferr(c, cw, "target.path is required");
                break;
            }
            tendon_track_path tp;
            if (strcmp(path, "translation") == 0)
                tp = TENDON_PATH_TRANSLATION;
            else if (strcmp(path, "rotation") == 0)
                tp = TENDON_PATH_ROTATION;
            else if (strcmp(path, "scale") == 0)
                tp = TENDON_PATH_SCALE;
            else if (strcmp(path, "weights") == 0)
                tp = TENDON_PATH_WEIGHTS;
            else {
                if ((st = note(c, "%s: %s: target.path \"%.40s\" is not animated here: skipped",
                               c->file, cw, path)))
                    break;
                continue;
            }
            if (node == SIZE_MAX - 1) {
                if ((st = note(c, "%s: %s: no target node: skipped", c->file, cw)))
                    break;
                continue;
            }
            const size_t slot = 4 * node + (size_t)tp;
            if (target_anim[slot] == a + 1) {
                st = ferr(c, cw, "channels[%zu] already targets the %s of nodes[%zu]: one "
                                 "channel per node and path in an animation",
                          target_chan[slot], path, node);
                break;
            }
            target_anim[slot] = a + 1;
            target_chan[slot] = k;
            char sw[80];
            snprintf(sw, sizeof sw, "%s.samplers[%zu]", where, sampler);
            const json_t *sm = json_array_get(samplers, sampler);
            if (!json_is_object(sm)) {
                st = ferr(c, sw, "must be an object");
                break;
            }
            size_t in_acc, out_acc;
            if ((st = get_index(c, sm, "input", c->n_accessors, SIZE_MAX, sw, &in_acc)) ||
                (st = get_index(c, sm, "output", c->n_accessors, SIZE_MAX, sw, &out_acc)))
                break;
            const json_t *ij = json_object_get(sm, "interpolation");
            const char *interp = ij ? json_string_value(ij) : "LINEAR";
            tendon_interpolation ti;
            if (interp && strcmp(interp, "LINEAR") == 0)
                ti = TENDON_INTERP_LINEAR;
            else if (interp && strcmp(interp, "STEP") == 0)
                ti = TENDON_INTERP_STEP;
            else if (interp && strcmp(interp, "CUBICSPLINE") == 0)
                ti = TENDON_INTERP_CUBICSPLINE;
            else {
                st = ferr(c, sw, "interpolation must be LINEAR, STEP or CUBICSPLINE");
                break;
            }
            if (!cache[in_acc]) {
                acc ia;
                if ((st = open_floats(c, in_acc, 1, 0, "an animation input", &ia)))
                    break;
                /* No bufferView: every time sparse.indices does not name is 0, and times must
                   be strictly increasing — so at most one may be left (checked before the
                   count·4 bytes are claimed). */
                if (!ia.v.base && ia.count - ia.sparse_count > 1) {
                    st = ferr(c, ia.where, "an animation input without a bufferView has %zu of "
                                           "its %zu times at 0 (not named by sparse.indices); "
                                           "times must be strictly increasing",
                              ia.count - ia.sparse_count, ia.count);
                    break;
                }
                if ((st = read_floats_of(c, &ia, ia.count, &cache[in_acc])))
                    break;
                cache_n[in_acc] = ia.count;
                /* strictly increasing, checked here so that the message names the accessor and
                   the sampler (the clip's would name its track, which is not the channel once
                   one was skipped) */
                const float *tm = cache[in_acc];
                for (size_t i = 1; i < ia.count && !st; ++i)
                    if (!(tm[i] > tm[i - 1]))
                        st = ferr(c, ia.where, "time %zu (%.9g s) is not after time %zu (%.9g s): "
                                               "the input of %s must be strictly increasing",
                                  i, (double)tm[i], i - 1, (double)tm[i - 1], sw);
                if (st)
                    break;
            }
            const int comps = tp == TENDON_PATH_ROTATION ? 4 : tp == TENDON_PATH_WEIGHTS ? 1 : 3;
            /* outputs are cached by accessor; a rotation needs VEC4, T/S VEC3, weights SCALAR */
            out_acc += c->n_accessors;
            if (cache[out_acc] && cache_comps[out_acc] != comps) {
                char aw[48];
                snprintf(aw, sizeof aw, "accessors[%zu]", out_acc - c->n_accessors);
                st = ferr(c, aw, "this channel's output needs %d components per element, the "
                                 "accessor has %d", comps, cache_comps[out_acc]);
                break;
            }
            /* The output's count against the key count before it is read (not cached yet). */
            acc oa;
            size_t out_n = cache_n[out_acc];
            if (!cache[out_acc]) {
                if ((st = open_floats(c, out_acc - c->n_accessors, comps,
                                      tp == TENDON_PATH_ROTATION || tp == TENDON_PATH_WEIGHTS,
                                      "this channel's output", &oa)))
                    break;
                out_n = oa.count;
            }
            const size_t keys = cache_n[in_acc], per = ti == TENDON_INTERP_CUBICSPLINE ? 3 : 1;
            size_t width = (size_t)comps;
            if (tp == TENDON_PATH_WEIGHTS) {
                if (out_n % (keys * per) != 0) {
                    st = ferr(c, sw, "output (accessors[%zu]) has %zu values, not a multiple of "
                                     "%zu keys%s",
                              out_acc - c->n_accessors, out_n, keys, per == 3 ? " × 3" : "");
                    break;
                }
                width = out_n / (keys * per);
                /* the clip's bound on a weights track (tendon_clip_create), checked here so that
                   the refusal names this channel, not the clip's track index */
                if (width > 65536) {
                    st = ferr(c, cw, "output (accessors[%zu]) has %zu weights per key (%zu values, "
                                     "%zu keys%s): at most 65536 morph targets are animated",
                              out_acc - c->n_accessors, width, out_n, keys,
                              per == 3 ? " × 3" : "");
                    break;
                }
            } else if (out_n != keys * per) {
                st = ferr(c, sw, "output (accessors[%zu]) has %zu elements, expected %zu (%zu "
                                 "keys%s)",
                          out_acc - c->n_accessors, out_n, keys * per, keys,
                          per == 3 ? " × 3" : "");
                break;
            }
            if (!cache[out_acc]) {
                if ((st = read_floats_of(c, &oa, oa.count, &cache[out_acc])))
                    break;
                cache_n[out_acc] = oa.count;
            }
            cache_comps[out_acc] = comps;
            tendon_track_desc *t = &tracks[nt];
            t->joint = tp == TENDON_PATH_WEIGHTS ? (uint32_t)node : (uint32_t)g->node_joint[node];
            t->path = tp;
            t->interpolation = ti;
            t->width = width;
            t->key_count = keys;
            t->times = cache[in_acc];
            t->values = cache[out_acc];
            g->chans[a][nt].channel = k;
            g->chans[a][nt].node = node;
            g->chans[a][nt].path = tp;
            ++nt;
        }
        if (st)
            break;
        g->chan_counts[a] = nt;
        tendon_clip_desc d = {c->n_nodes, nt, tracks};
        st = tendon_clip_create(&d, &g->clips[a]);
        if (st) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", tendon_error_message());
            st = tendon_gltf_set_error(st == TENDON_ERR_NOMEM ? st : TENDON_ERR_FORMAT,
                                       "%s: %s: %s", c->file, where, msg);
        }
        for (size_t i = 0; i < na2; ++i) {
            free(cache[i]);
            cache[i] = NULL;
        }
    }
    for (size_t i = 0; i < na2; ++i)
        free(cache[i]);
    free(cache);
    free(cache_n);
    free(cache_comps);
    free(target_anim);
    free(target_chan);
    free(tracks);
    return st;
}

/* ---- meshes ---------------------------------------------------------------------------------- */

static tendon_status load_meshes(ctx *c)
{
    tendon_gltf *g = c->g;
    const json_t *meshes = json_object_get(c->root, "meshes");
    g->mesh_count = c->n_meshes;
    g->meshes = xcalloc(c->n_meshes, sizeof *g->meshes);
    if (!g->meshes)
        return nomem(c);
    tendon_status st = TENDON_OK;
    for (size_t m = 0; m < c->n_meshes; ++m) {
        char where[32];
        snprintf(where, sizeof where, "meshes[%zu]", m);
        const json_t *me = json_array_get(meshes, m);
        const json_t *prims = json_object_get(me, "primitives");
        if (!json_is_object(me) || !json_is_array(prims))
            return ferr(c, where, "must be an object with a `primitives` array");
        const size_t np = json_array_size(prims);
        g->meshes[m].prims = xcalloc(np, sizeof(prim_data));
        if (!g->meshes[m].prims)
            return nomem(c);
        g->meshes[m].prim_count = np;
        const json_t *mw = json_object_get(me, "weights");
        for (size_t p = 0; p < np; ++p) {
            char pw[96];
            snprintf(pw, sizeof pw, "%s.primitives[%zu]", where, p);
            prim_data *d = &g->meshes[m].prims[p];
            const json_t *pr = json_array_get(prims, p);
            const json_t *attrs = json_object_get(pr, "attributes");
            if (!json_is_object(pr) || !json_is_object(attrs))
                return ferr(c, pw, "must be an object with an `attributes` object");
            /* Every attribute's count is checked against POSITION's before it is read. */
            size_t ai, pos_ai, n = 0;
            acc aa;
            if ((st = get_index(c, attrs, "POSITION", c->n_accessors, SIZE_MAX - 1, pw, &pos_ai)))
                return st;
            if (pos_ai != SIZE_MAX - 1) {
                if ((st = open_floats(c, pos_ai, 3, c->quantized ? ALLOW_NORM | ALLOW_INT : 0,
                                      "POSITION", &aa)) ||
                    (st = read_floats_of(c, &aa, aa.count, &d->pos)))
                    return st;
                n = aa.count;
            }
            d->n = n;
            if ((st = get_index(c, attrs, "NORMAL", c->n_accessors, SIZE_MAX - 1, pw, &ai)))
                return st;
            if (ai != SIZE_MAX - 1 &&
                ((st = open_floats(c, ai, 3, c->quantized ? ALLOW_NORM : 0, "NORMAL", &aa)) ||
                 (st = check_vertices(c, pw, "NORMAL", &aa, n, pos_ai)) ||
                 (st = read_floats_of(c, &aa, aa.count, &d->nrm))))
                return st;
            if ((st = get_index(c, attrs, "TANGENT", c->n_accessors, SIZE_MAX - 1, pw, &ai)))
                return st;
            if (ai != SIZE_MAX - 1 &&
                ((st = open_floats(c, ai, 4, c->quantized ? ALLOW_NORM : 0, "TANGENT", &aa)) ||
                 (st = check_vertices(c, pw, "TANGENT", &aa, n, pos_ai)) ||
                 (st = read_floats_of(c, &aa, aa.count, &d->tan))))
                return st;
            if ((st = get_index(c, attrs, "JOINTS_0", c->n_accessors, SIZE_MAX - 1, pw, &ai)))
                return st;
            if (ai != SIZE_MAX - 1 &&
                ((st = open_joints(c, ai, &aa)) ||
                 (st = check_vertices(c, pw, "JOINTS_0", &aa, n, pos_ai)) ||
                 (st = read_joints_of(c, &aa, &d->joints))))
                return st;
            if ((st = get_index(c, attrs, "WEIGHTS_0", c->n_accessors, SIZE_MAX - 1, pw, &ai)))
                return st;
            if (ai != SIZE_MAX - 1 &&
                ((st = open_floats(c, ai, 4, 1, "WEIGHTS_0", &aa)) ||
                 (st = check_vertices(c, pw, "WEIGHTS_0", &aa, n, pos_ai)) ||
                 (st = read_floats_of(c, &aa, aa.count, &d->weights))))
                return st;
            json_t *targets;
            if ((st = opt_array(c, pr, "targets", pw, &targets)))
                return st;
            d->ntargets = targets ? json_array_size(targets) : 0;
            /* mesh.weights: one number per morph target of each primitive (the glTF rule); a
               wrong count or type was read as zeros, silently */
            if (mw && !json_is_array(mw))
                return ferr(c, where, "`weights` must be an array of numbers");
            if (mw && json_array_size(mw) != d->ntargets)
                return ferr(c, pw, "the mesh's `weights` has %zu entries and this primitive %zu "
                                   "morph targets: they must be equal",
                            json_array_size(mw), d->ntargets);
            d->targets = xcalloc(d->ntargets, sizeof(float *));
            d->defw = xcalloc(d->ntargets, sizeof(float));
            if (!d->targets || !d->defw)
                return nomem(c);
            for (size_t t = 0; t < d->ntargets; ++t) {
                char tw[128];
                snprintf(tw, sizeof tw, "%s.targets[%zu]", pw, t);
                const json_t *tg = json_array_get(targets, t);
                if (!json_is_object(tg))
                    return ferr(c, tw, "must be an object");
                if ((st = get_index(c, tg, "POSITION", c->n_accessors, SIZE_MAX - 1, tw, &ai)))
                    return st;
                if (ai != SIZE_MAX - 1 &&
                    ((st = open_floats(c, ai, 3,
                                       c->quantized ? ALLOW_NORM | ALLOW_INT : ALLOW_NORM,
                                       "a morph target POSITION", &aa)) ||
                     (st = check_vertices(c, tw, "this target's POSITION", &aa, n, pos_ai)) ||
                     (st = read_floats_of(c, &aa, aa.count, &d->targets[t]))))
                    return st;
                if (mw) {
                    const json_t *w = json_array_get(mw, t);
                    d->defw[t] = (float)json_number_value(w);
                    if (!json_is_number(w) || !(d->defw[t] - d->defw[t] == 0.0f))
                        return ferr(c, where, "`weights`[%zu] %s", t,
                                    json_is_number(w) ? "is past the float range"
                                                      : "is not a number");
                }
            }
        }
    }
    return TENDON_OK;
}

/* ---- entry points ----------------------------------------------------------------------------- */

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static tendon_status load_impl(ctx *c, const unsigned char *data, size_t size)
{
    const unsigned char *json = data;
    size_t json_len = size;
    if (size >= 4 && le32(data) == 0x46546C67u) { /* "glTF" */
        c->is_glb = 1;
        if (size < 20)
            return ferr(c, "GLB header", "the file is %zu bytes: truncated (a header and a chunk "
                                         "header need 20)", size);
        const uint32_t version = le32(data + 4), length = le32(data + 8);
        if (version != 2)
            return ferr(c, "GLB header", "version %u: only glTF 2 is read", version);
        if (length > size)
            return ferr(c, "GLB header", "declares %u bytes, the file has %zu: truncated", length,
                        size);
        if (length < 20) /* the chunk bounds below are taken against it, unsigned */
            return ferr(c, "GLB header", "declares %u bytes: a GLB needs at least 20 (its header "
                                         "and the JSON chunk's header)", length);
        const uint32_t clen = le32(data + 12), ctype = le32(data + 16);
        if (ctype != 0x4E4F534Au)
            return ferr(c, "GLB chunk 0", "must be the JSON chunk (type 0x4E4F534A)");
        if (clen > length - 20)
            return ferr(c, "GLB chunk 0", "%u bytes run past the end of the file (%u bytes)", clen,
                        length);
        json = data + 20;
        json_len = clen;
        const size_t next = 20 + (size_t)clen;
        if (next + 8 <= length) {
            const uint32_t blen = le32(data + next), btype = le32(data + next + 4);
            if (btype == 0x004E4942u) {
                if (blen > length - next - 8)
                    return ferr(c, "GLB chunk 1", "%u bytes run past the end of the file (%u "
                                                  "bytes): truncated", blen, length);
                c->glb_bin = data + next + 8;
                c->glb_bin_len = blen;
            }
        }
    }
    json_error_t jerr;
    c->root = json_loadb((const char *)json, json_len, JSON_DECODE_INT_AS_REAL | JSON_REJECT_DUPLICATES
                         | JSON_ALLOW_NUL, &jerr);
    /* jansson out of memory: its code says so, or (its lexer's buffer not allocated) it returns
       with no message at all — every parse error has one */
    if (!c->root && (json_error_code(&jerr) == json_error_out_of_memory || !jerr.text[0]))
        return tendon_gltf_set_error(TENDON_ERR_NOMEM, "%s: JSON: out of memory while parsing",
                                     c->file);
    if (!c->root)
        return ferr(c, "JSON", "%s (line %d, column %d)", jerr.text, jerr.line, jerr.column);
    if (!json_is_object(c->root))
        return ferr(c, "JSON", "the top level must be an object");
    const json_t *asset = json_object_get(c->root, "asset");
    const char *ver = json_string_value(json_object_get(asset, "version"));
    if (!ver || strncmp(ver, "2.", 2) != 0)
        return ferr(c, "asset", "`asset.version` must be \"2.x\"");
    /* glTF 2.0: a file that requires an extension the loader does not implement must not be
       loaded (its data may be compressed or otherwise unreadable without it). This importer
       implements KHR_mesh_quantization only; any other required extension is refused by name,
       used-only ones are ignored. */
    static const char QUANTIZATION[] = "KHR_mesh_quantization";
    const json_t *required = json_object_get(c->root, "extensionsRequired");
    if (required && !json_is_array(required))
        return ferr(c, "extensionsRequired", "must be an array of extension names");
    for (size_t i = 0; i < json_array_size(required); ++i) {
        const char *ext = json_string_value(json_array_get(required, i));
        char where[48];
        snprintf(where, sizeof where, "extensionsRequired[%zu]", i);
        if (!ext)
            return ferr(c, where, "must be a string (an extension name)");
        /* jansson keeps a \u0000 (JSON_ALLOW_NUL); C strings end there, so
           "KHR_mesh_quantization\u0000EXT_meshopt_compression" read as the one implemented */
        if (strlen(ext) != json_string_length(json_array_get(required, i)))
            return ferr(c, where, "the extension name \"%s…\" holds a NUL character (\\u0000)",
                        ext);
        if (strcmp(ext, QUANTIZATION) == 0) {
            c->quantized = 1;
            continue;
        }
        return ferr(c, where, "the file requires the extension \"%s\", which this importer does "
                              "not implement (it implements only %s): not loaded, as the glTF "
                              "specification requires", ext, QUANTIZATION);
    }
    const json_t *used = json_object_get(c->root, "extensionsUsed");
    for (size_t i = 0; json_is_array(used) && i < json_array_size(used); ++i) {
        const char *ext = json_string_value(json_array_get(used, i));
        if (ext && strcmp(ext, QUANTIZATION) == 0)
            c->quantized = 1;
    }
    c->n_nodes = array_len(c->root, "nodes");
    c->n_accessors = array_len(c->root, "accessors");
    c->n_views = array_len(c->root, "bufferViews");
    c->n_meshes = array_len(c->root, "meshes");
    c->n_skins = array_len(c->root, "skins");
    c->g = calloc(1, sizeof(tendon_gltf));
    if (!c->g)
        return nomem(c);
    tendon_status st;
    if ((st = load_buffers(c)) || (st = check_every_accessor(c)) || (st = load_nodes(c)) ||
        (st = load_skins(c)) ||
        (st = load_animations(c)) || (st = load_meshes(c)))
        return st;
    return TENDON_OK;
}

static tendon_status load_common(const unsigned char *data, size_t size, const char *name,
                                 const char *base_dir, tendon_gltf **out)
{
    ctx c;
    memset(&c, 0, sizeof c);
    c.file = name ? name : "(memory)";
    c.base_dir = base_dir;
    tendon_status st = load_impl(&c, data, size);
    if (c.root)
        json_decref(c.root);
    for (size_t i = 0; c.buf && i < c.nbuf; ++i)
        free(c.buf[i]);
    free(c.buf);
    free(c.buf_len);
    if (st) {
        tendon_gltf_destroy(c.g);
        return st;
    }
    *out = c.g;
    return TENDON_OK;
}

tendon_status tendon_gltf_load_memory(const void *data, size_t size, const char *name,
                                      const char *base_dir, tendon_gltf **out)
{
    TENDON_FPENV_GUARD_OUT(out); /* a refusal sets *out to NULL too */
    if (!out)
        return tendon_gltf_set_error(TENDON_ERR_NULL, "tendon_gltf_load_memory: out is NULL");
    *out = NULL;
    if (!data && size > 0)
        return tendon_gltf_set_error(TENDON_ERR_NULL, "tendon_gltf_load_memory: data is NULL");
    return load_common(data, size, name, base_dir, out);
}

tendon_status tendon_gltf_load(const char *path, tendon_gltf **out)
{
    TENDON_FPENV_GUARD_OUT(out); /* a refusal sets *out to NULL too */
    if (!out)
        return tendon_gltf_set_error(TENDON_ERR_NULL, "tendon_gltf_load: out is NULL");
    *out = NULL;
    if (!path)
        return tendon_gltf_set_error(TENDON_ERR_NULL, "tendon_gltf_load: path is NULL");
    unsigned char *data;
    size_t size;
    int err = 0;
    tendon_status st = read_file(path, TENDON_GLTF_MAX_FILE, 1, &data, &size, &err);
    if (st == TENDON_ERR_IO && err == EFBIG)
        return tendon_gltf_set_error(TENDON_ERR_FORMAT, "%s: longer than %zu bytes (4 GiB − 1, a "
                                     "GLB's largest length): not read further",
                                     path, TENDON_GLTF_MAX_FILE);
    if (st)
        return tendon_gltf_set_error(st, "%s: cannot read: %s", path, strerror(err));
    char *dir = strdup(path);
    if (!dir) {
        free(data);
        return tendon_gltf_set_error(TENDON_ERR_NOMEM, "%s: out of memory", path);
    }
    char *slash = strrchr(dir, '/');
#ifdef _WIN32
    /* a Windows path's own separator: without it, C:\\models\\fox.gltf looked for its buffers
       in the working directory (review 34) */
    char *bslash = strrchr(dir, '\\');
    if (bslash && (!slash || bslash > slash))
        slash = bslash;
#endif
    if (slash)
        slash[1] = '\0';
    else
        strcpy(dir, ".");
    st = load_common(data, size, path, dir, out);
    free(dir);
    free(data);
    return st;
}

/* ---- accessors of the model ------------------------------------------------------------------- */

const char *tendon_gltf_notes(const tendon_gltf *g) { return g && g->notes ? g->notes : ""; }
const tendon_skeleton *tendon_gltf_skeleton(const tendon_gltf *g) { return g ? g->skeleton : NULL; }
size_t tendon_gltf_node_count(const tendon_gltf *g) { return g ? g->node_count : 0; }
int32_t tendon_gltf_node_joint(const tendon_gltf *g, size_t node)
{
    return g && node < g->node_count ? g->node_joint[node] : -1;
}
int32_t tendon_gltf_joint_node(const tendon_gltf *g, size_t joint)
{
    return g && joint < g->node_count ? g->joint_node[joint] : -1;
}
const char *tendon_gltf_node_name(const tendon_gltf *g, size_t node)
{
    return g && node < g->node_count ? g->node_names[node] : NULL;
}
int32_t tendon_gltf_node_mesh(const tendon_gltf *g, size_t node)
{
    return g && node < g->node_count ? g->node_mesh[node] : -1;
}
int32_t tendon_gltf_node_skin(const tendon_gltf *g, size_t node)
{
    return g && node < g->node_count ? g->node_skin[node] : -1;
}
size_t tendon_gltf_skin_count(const tendon_gltf *g) { return g ? g->skin_count : 0; }
const tendon_skin_binding *tendon_gltf_skin(const tendon_gltf *g, size_t s)
{
    return g && s < g->skin_count ? g->skins[s] : NULL;
}
const uint32_t *tendon_gltf_skin_nodes(const tendon_gltf *g, size_t s)
{
    return g && s < g->skin_count ? g->skin_nodes[s] : NULL;
}
const char *tendon_gltf_skin_name(const tendon_gltf *g, size_t s)
{
    return g && s < g->skin_count ? g->skin_names[s] : NULL;
}
size_t tendon_gltf_animation_count(const tendon_gltf *g) { return g ? g->anim_count : 0; }
const tendon_clip *tendon_gltf_animation(const tendon_gltf *g, size_t i)
{
    return g && i < g->anim_count ? g->clips[i] : NULL;
}
const char *tendon_gltf_animation_name(const tendon_gltf *g, size_t i)
{
    return g && i < g->anim_count ? g->anim_names[i] : NULL;
}

tendon_status tendon_gltf_find_animation(const tendon_gltf *g, const char *name, size_t *out)
{
    if (!g || !name || !out)
        return tendon_gltf_set_error(TENDON_ERR_NULL, "tendon_gltf_find_animation: %s is NULL",
                                     !g ? "gltf" : !name ? "name" : "out");
    for (size_t i = 0; i < g->anim_count; ++i)
        if (g->anim_names[i] && strcmp(g->anim_names[i], name) == 0) {
            *out = i;
            return TENDON_OK;
        }
    return tendon_gltf_set_error(TENDON_ERR_NOT_FOUND,
                                 "tendon_gltf_find_animation: no animation is named \"%.200s\"",
                                 name);
}

tendon_status tendon_gltf_animation_channel(const tendon_gltf *g, size_t anim, size_t track,
                                            tendon_gltf_channel *out)
{
    if (!g || !out)
        return tendon_gltf_set_error(TENDON_ERR_NULL, "tendon_gltf_animation_channel: %s is NULL",
                                     !g ? "gltf" : "out");
    if (anim >= g->anim_count)
        return tendon_gltf_set_error(TENDON_ERR_RANGE,
                                     "tendon_gltf_animation_channel: animation %zu is out of "
                                     "range (%zu animations)",
                                     anim, g->anim_count);
    if (track >= g->chan_counts[anim]) /* the bound that was exceeded, not the animations' */
        return tendon_gltf_set_error(TENDON_ERR_RANGE,
                                     "tendon_gltf_animation_channel: track %zu of animation %zu "
                                     "is out of range (%zu tracks)",
                                     track, anim, g->chan_counts[anim]);
    *out = g->chans[anim][track];
    return TENDON_OK;
}

size_t tendon_gltf_animation_channel_count(const tendon_gltf *g, size_t anim)
{
    return g && anim < g->anim_count ? g->file_chans[anim] : 0;
}

size_t tendon_gltf_mesh_count(const tendon_gltf *g) { return g ? g->mesh_count : 0; }
size_t tendon_gltf_primitive_count(const tendon_gltf *g, size_t mesh)
{
    return g && mesh < g->mesh_count ? g->meshes[mesh].prim_count : 0;
}

tendon_status tendon_gltf_get_primitive(const tendon_gltf *g, size_t mesh, size_t primitive,
                                        tendon_gltf_primitive *out)
{
    if (!g || !out)
        return tendon_gltf_set_error(TENDON_ERR_NULL, "tendon_gltf_get_primitive: %s is NULL",
                                     !g ? "gltf" : "out");
    if (mesh >= g->mesh_count)
        return tendon_gltf_set_error(TENDON_ERR_RANGE,
                                     "tendon_gltf_get_primitive: mesh %zu (primitive %zu) is out "
                                     "of range (%zu meshes)",
                                     mesh, primitive, g->mesh_count);
    if (primitive >= g->meshes[mesh].prim_count) /* the bound that was exceeded */
        return tendon_gltf_set_error(TENDON_ERR_RANGE,
                                     "tendon_gltf_get_primitive: primitive %zu of mesh %zu is out "
                                     "of range (%zu primitives)",
                                     primitive, mesh, g->meshes[mesh].prim_count);
    const prim_data *d = &g->meshes[mesh].prims[primitive];
    out->vertex_count = d->n;
    out->positions = d->pos;
    out->normals = d->nrm;
    out->joints = d->joints;
    out->weights = d->weights;
    out->target_count = d->ntargets;
    out->target_positions = (const float *const *)d->targets;
    out->default_weights = d->defw;
    out->tangents = d->tan;
    return TENDON_OK;
}
