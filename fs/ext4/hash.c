/*
 * The hashes of hashed (htree) directories: a name's 32-bit hash decides which leaf block
 * holds it. Three functions (the legacy one, half MD4, TEA), each in a signed and an
 * unsigned variant: the bytes of a name were once read as `char`, whose sign depends on
 * the machine that made the directory, so the superblock records which (s_flags). The
 * low bit of a hash is left 0: in an index entry it marks a collision run continuing from
 * the previous block.
 */
#include "ext4.h"
#include <cgwb/errno.h>

#define TEA_DELTA 0x9E3779B9u

static u32 rol32(u32 v, unsigned int s)
{
	return v << s | v >> (32 - s);
}

/* A name byte, as the directory's creator read it. */
static int name_byte(const char *p, bool unsigned_chars)
{
	return unsigned_chars ? (int)(unsigned char)*p : (int)(signed char)*p;
}

static u32 dx_hack_hash(const char *name, int len, bool unsigned_chars)
{
	u32 hash0 = 0x12a3fe2d, hash1 = 0x37abe8f9;

	while (len--) {
		u32 hash = hash1 + (hash0 ^ (u32)(name_byte(name++, unsigned_chars) * 7152373));

		if (hash & 0x80000000u)
			hash -= 0x7fffffff;
		hash1 = hash0;
		hash0 = hash;
	}
	return hash0 << 1;
}

/* num words of input from the name, padded with its length in every byte. */
static void str2hashbuf(const char *msg, int len, u32 *buf, int num, bool unsigned_chars)
{
	u32 pad = (u32)len | (u32)len << 8, val;

	pad |= pad << 16;
	val = pad;
	if (len > num * 4)
		len = num * 4;
	for (int i = 0; i < len; i++) {
		if (i % 4 == 0)
			val = pad;
		val = (u32)name_byte(msg + i, unsigned_chars) + (val << 8);
		if (i % 4 == 3) {
			*buf++ = val;
			val = pad;
			num--;
		}
	}
	if (--num >= 0)
		*buf++ = val;
	while (--num >= 0)
		*buf++ = pad;
}

static void tea_transform(u32 buf[4], const u32 in[4])
{
	u32 sum = 0, b0 = buf[0], b1 = buf[1];

	for (int n = 0; n < 16; n++) {
		sum += TEA_DELTA;
		b0 += ((b1 << 4) + in[0]) ^ (b1 + sum) ^ ((b1 >> 5) + in[1]);
		b1 += ((b0 << 4) + in[2]) ^ (b0 + sum) ^ ((b0 >> 5) + in[3]);
	}
	buf[0] += b0;
	buf[1] += b1;
}

/* MD4's three rounds, cut down to eight input words (Linux's half_md4_transform). */
static u32 md4_f(u32 x, u32 y, u32 z)
{
	return z ^ (x & (y ^ z)); /* selection */
}

static u32 md4_g(u32 x, u32 y, u32 z)
{
	return (x & y) + ((x ^ y) & z); /* majority */
}

static u32 md4_h(u32 x, u32 y, u32 z)
{
	return x ^ y ^ z; /* parity */
}

/*
 * Eight steps; step i updates MD4's a, d, c, b in turn (word (4 - i) % 4) from the three
 * after it, with input word order[i] and rotation shift[i % 4].
 */
static void md4_round(u32 v[4], const u32 in[8], const u8 order[8], const u8 shift[4], u32 k,
		      u32 (*f)(u32, u32, u32))
{
	for (unsigned int i = 0; i < 8; i++) {
		unsigned int t = (4 - i % 4) % 4;
		u32 x = v[t] + f(v[(t + 1) % 4], v[(t + 2) % 4], v[(t + 3) % 4]) + in[order[i]] + k;

		v[t] = rol32(x, shift[i % 4]);
	}
}

static void half_md4_transform(u32 buf[4], const u32 in[8])
{
	static const u8 o1[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, o2[8] = { 1, 3, 5, 7, 0, 2, 4, 6 },
			o3[8] = { 3, 7, 2, 6, 1, 5, 0, 4 };
	static const u8 s1[4] = { 3, 7, 11, 19 }, s2[4] = { 3, 5, 9, 13 }, s3[4] = { 3, 9, 11, 15 };
	u32 v[4] = { buf[0], buf[1], buf[2], buf[3] };

	md4_round(v, in, o1, s1, 0, md4_f);
	md4_round(v, in, o2, s2, 013240474631u, md4_g);
	md4_round(v, in, o3, s3, 015666365641u, md4_h);
	for (int i = 0; i < 4; i++)
		buf[i] += v[i];
}

int ext4fs_dirhash(const char *name, int len, unsigned int version, const u32 seed[4], u32 *hash)
{
	u32 buf[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 }, in[8], h;
	bool uns = version >= DX_HASH_LEGACY_UNSIGNED;

	if (seed && (seed[0] | seed[1] | seed[2] | seed[3]))
		for (int i = 0; i < 4; i++)
			buf[i] = seed[i];
	switch (version) {
	case DX_HASH_LEGACY:
	case DX_HASH_LEGACY_UNSIGNED:
		h = dx_hack_hash(name, len, uns);
		break;
	case DX_HASH_HALF_MD4:
	case DX_HASH_HALF_MD4_UNSIGNED:
		for (const char *p = name; len > 0; len -= 32, p += 32) {
			str2hashbuf(p, len, in, 8, uns);
			half_md4_transform(buf, in);
		}
		h = buf[1];
		break;
	case DX_HASH_TEA:
	case DX_HASH_TEA_UNSIGNED:
		for (const char *p = name; len > 0; len -= 16, p += 16) {
			str2hashbuf(p, len, in, 4, uns);
			tea_transform(buf, in);
		}
		h = buf[0];
		break;
	default:
		return -EINVAL;
	}
	h &= ~1u;
	if (h == EXT4_HTREE_EOF_32BIT << 1)
		h = (EXT4_HTREE_EOF_32BIT - 1) << 1;
	*hash = h;
	return 0;
}
