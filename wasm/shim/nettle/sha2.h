/*
 * The SHA-256 interface tools/tendon/digest.c and demo_core.c use (nettle's names and calling
 * convention), for the wasm32 builds, where Debian's nettle is not available: implemented in
 * wasm/src/sha256.c from FIPS 180-4. Its output is checked by the golden digest itself (the
 * golden hashes were made by nettle natively) and against node's crypto
 * (wasm/test/digest.test.mjs).
 */
#ifndef TENDON_WASM_SHIM_NETTLE_SHA2_H
#define TENDON_WASM_SHIM_NETTLE_SHA2_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_SIZE 32

struct sha256_ctx {
    uint32_t state[8];
    uint64_t count; /* bytes hashed */
    uint8_t block[64];
    unsigned index; /* bytes in block */
};

void sha256_init(struct sha256_ctx *ctx);
void sha256_update(struct sha256_ctx *ctx, size_t length, const uint8_t *data);
/* Writes min(length, 32) bytes of the digest and starts ctx over (as nettle does). */
void sha256_digest(struct sha256_ctx *ctx, size_t length, uint8_t *digest);

#endif
