/* SHA-256 (FIPS 180-4), incremental. */
#ifndef CGWB_SHA256_H
#define CGWB_SHA256_H

#include <cgwb/types.h>

#define SHA256_DIGEST_SIZE 32
#define SHA256_BLOCK_SIZE 64

struct sha256_state {
	u32 h[8];
	u64 count;                 /* bytes hashed so far */
	u8 buf[SHA256_BLOCK_SIZE]; /* a partial block */
};

/**
 * sha256_init() - start a SHA-256 digest
 * @s: the state
 *
 * Context: any context.
 */
void sha256_init(struct sha256_state *s);
/**
 * sha256_update() - hash more bytes
 * @s: the state
 * @data: the bytes
 * @len: how many
 *
 * Context: any context.
 */
void sha256_update(struct sha256_state *s, const void *data, size_t len);
/**
 * sha256_final() - end a digest
 * @s: the state (padded here: start again with sha256_init())
 * @out: set to the digest
 *
 * Context: any context.
 */
void sha256_final(struct sha256_state *s, u8 out[SHA256_DIGEST_SIZE]);
/* One call: digest of data. */
void sha256(const void *data, size_t len, u8 out[SHA256_DIGEST_SIZE]);
/**
 * sha256_hex() - a digest in hex
 * @digest: the digest
 * @hex: set to its 64 lowercase hex digits and a NUL
 *
 * Context: any context.
 */
void sha256_hex(const u8 digest[SHA256_DIGEST_SIZE], char hex[2 * SHA256_DIGEST_SIZE + 1]);

#endif
