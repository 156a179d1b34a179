/*
 * The htree hashes against e2fsprogs' (debugfs dx_hash), for names short and long (past
 * one 16- and 32-byte block of input), ASCII and not, with and without a seed; the
 * unsigned variants agree with the signed ones on ASCII names and differ on others.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "../../../fs/ext4/ext4.h"
#include "host.h"

static const char *const names[] = {
	"a",
	"hello",
	"exactly-16-bytes",
	"a-name-of-exactly-thirty-two-by!",
	"h\xc3\xa9llo-w\xc3\xb6rld-a-rather-long-name-beyond-32-bytes-and-then-some",
	"entry_with_a_longish_name_0042",
};

#define SEED_UUID "01234567-89ab-cdef-0123-456789abcdef"
/* the uuid's bytes as the superblock's four little-endian words */
static const u32 seed[4] = { 0x67452301, 0xefcdab89, 0x67452301, 0xefcdab89 };

static u32 debugfs_hash(const char *alg, const char *name, bool seeded)
{
	char cmd[512];
	unsigned int h = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd),
		 "debugfs -R \"dx_hash -h %s %s %s\" /dev/null 2>/dev/null | "
		 "sed -n 's/.* is 0x\\([0-9a-f]*\\) .*/\\1/p'",
		 alg, seeded ? "-s " SEED_UUID : "", name);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	cr_assert_eq(fscanf(p, "%x", &h), 1, "debugfs dx_hash %s %s", alg, name);
	pclose(p);
	return h;
}

static void expect_version(const char *alg, unsigned int version)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		for (int seeded = 0; seeded < 2; seeded++) {
			u32 h;

			cr_assert_eq(ext4fs_dirhash(names[i], (int)strlen(names[i]), version,
						    seeded ? seed : NULL, &h),
				     0);
			cr_expect_eq(h, debugfs_hash(alg, names[i], seeded), "%s(%s)%s: %#x", alg,
				     names[i], seeded ? " seeded" : "", h);
		}
}

Test(ext4_hash, legacy)
{
	expect_version("legacy", DX_HASH_LEGACY);
}

Test(ext4_hash, half_md4)
{
	expect_version("half_md4", DX_HASH_HALF_MD4);
}

Test(ext4_hash, tea)
{
	expect_version("tea", DX_HASH_TEA);
}

Test(ext4_hash, unsigned_variants)
{
	for (unsigned int v = DX_HASH_LEGACY; v <= DX_HASH_TEA; v++) {
		u32 s, u;

		ext4fs_dirhash(names[1], 5, v, seed, &s);
		ext4fs_dirhash(names[1], 5, v + 3, seed, &u);
		cr_expect_eq(s, u, "version %u: ASCII hashes differ", v);
		ext4fs_dirhash(names[4], (int)strlen(names[4]), v, seed, &s);
		ext4fs_dirhash(names[4], (int)strlen(names[4]), v + 3, seed, &u);
		cr_expect_neq(s, u, "version %u: signedness changes nothing", v);
	}
	cr_expect_eq(ext4fs_dirhash("x", 1, 6, NULL, &(u32){ 0 }), -EINVAL);
}
