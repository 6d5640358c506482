/*
 * The SHA-256 interface tools/tendon/digest.c uses (nettle's names), for the wasm32 digest
 * command: the hashing is done by the host that runs the module (node's crypto, or the
 * browser's), through three imports of module "tendon_host". There is no SHA-256 of tendon's own
 * in WebAssembly, and the hash is computed by an independent implementation of the native
 * build's (nettle). One hash at a time: the context is only a placeholder.
 */
#ifndef TENDON_WASM_SHIM_NETTLE_SHA2_H
#define TENDON_WASM_SHIM_NETTLE_SHA2_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_SIZE 32

struct sha256_ctx {
    int unused;
};

__attribute__((import_module("tendon_host"), import_name("sha256_init"))) void
tendon_host_sha256_init(void);
__attribute__((import_module("tendon_host"), import_name("sha256_update"))) void
tendon_host_sha256_update(const uint8_t *data, size_t length);
__attribute__((import_module("tendon_host"), import_name("sha256_digest"))) void
tendon_host_sha256_digest(uint8_t *digest, size_t length);

static inline void sha256_init(struct sha256_ctx *ctx) { (void)ctx; tendon_host_sha256_init(); }
static inline void sha256_update(struct sha256_ctx *ctx, size_t length, const uint8_t *data)
{
    (void)ctx;
    tendon_host_sha256_update(data, length);
}
static inline void sha256_digest(struct sha256_ctx *ctx, size_t length, uint8_t *digest)
{
    (void)ctx;
    tendon_host_sha256_digest(digest, length);
}

#endif
