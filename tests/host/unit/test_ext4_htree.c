/*
 * Lookups through htree indexes: a directory of 5000 names on 1 KiB blocks has a root and
 * a level of index nodes (e2fsck -D builds it); every name looked up is found and a name
 * not there is not. That the index is what finds them shows when a leaf is corrupt: the
 * lookups that do not hash to it still succeed, where a scan of the blocks would fail at
 * it. An index that cannot be followed (an unknown hash version) falls back to the scan.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <cgwb/fs.h>
#include <cgwb/errno.h>
#include "host.h"
#include "test_ext2.h"
#include "test_ext4.h"

#define BS 1024
#define NAMES 5000

static void setup(void)
{
	ext2t_boot(64);
}

static void teardown(void)
{
	ext2t_shutdown();
}

TestSuite(ext4_htree, .init = setup, .fini = teardown);

static void name_of(unsigned int i, char *buf, size_t size)
{
	snprintf(buf, size, "name-%05u-with-some-padding", i);
}

/* /huge with NAMES empty files, indexed; fixed uuid and hash seed: the same layout always. */
static void make_huge(const char *opts)
{
	char path[256];

	cr_assert_eq(ext2t_sh("mkdir -p %s/t/huge", ext2t_env.dir), 0);
	for (unsigned int i = 0; i < NAMES; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/t/huge/", ext2t_env.dir);
		name_of(i, path + strlen(path), sizeof(path) - strlen(path));
		f = fopen(path, "w");
		cr_assert_not_null(f);
		fclose(f);
	}
	cr_assert_eq(ext2t_sh("mke2fs -q -F -t ext4 -b 1024 %s -U "
			      "01234567-89ab-cdef-0123-456789abcdef "
			      "-E hash_seed=01234567-89ab-cdef-0123-456789abcdef -d %s/t %s 32M "
			      "> /dev/null 2>&1",
			      opts, ext2t_env.dir, ext2t_env.img),
		     0);
	cr_assert_lt(ext2t_sh("e2fsck -fyD %s > /dev/null 2>&1", ext2t_env.img), 4);
	cr_assert_eq(ext2t_sh("debugfs -R 'htree /huge' %s 2>/dev/null | "
			      "grep -q 'Indirect levels: 1'",
			      ext2t_env.img),
		     0, "/huge has no level of index nodes");
}

/* How many of every 7th name a lookup finds (all of them must at least not crash). */
static unsigned int lookups_found(void)
{
	char path[128];
	unsigned int found = 0;

	for (unsigned int i = 0; i < NAMES; i += 7) {
		strcpy(path, EXT2T_MNT "/huge/");
		name_of(i, path + strlen(path), sizeof(path) - strlen(path));
		found += ext2t_size(path) == 0;
	}
	return found;
}

Test(ext4_htree, two_levels)
{
	make_huge("");
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_expect_eq(lookups_found(), (NAMES + 6) / 7);
	cr_expect_eq(ext2t_size(EXT2T_MNT "/huge/name-05000-with-some-padding"), -ENOENT);
	cr_expect_eq(ext2t_size(EXT2T_MNT "/huge/x"), -ENOENT);
	cr_expect_eq(ext2t_count_entries(EXT2T_MNT "/huge"), NAMES + 2);
	ext2t_umount();
}

Test(ext4_htree, index_skips_a_corrupt_leaf)
{
	unsigned long long leaf;
	u8 b;

	make_huge("");
	cr_assert(ext2t_sh_number(&leaf, "debugfs -R 'bmap /huge 1' %s 2>/dev/null", ext2t_env.img));
	ext2t_peek((long)leaf * BS + 500, &b, 1);
	b ^= 0xff;
	ext2t_poke((long)leaf * BS + 500, &b, 1);
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_expect_geq(lookups_found(), (NAMES + 6) / 7 * 9 / 10, "%s", host_log());
	ext2t_umount();
}

Test(ext4_htree, unknown_hash_version_falls_back)
{
	unsigned long long root;
	u8 v = 7;

	make_huge("-O ^metadata_csum");
	cr_assert(ext2t_sh_number(&root, "debugfs -R 'bmap /huge 0' %s 2>/dev/null", ext2t_env.img));
	ext2t_poke((long)root * BS + 28, &v, 1); /* dx_root_info.hash_version */
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_expect_eq(lookups_found(), (NAMES + 6) / 7);
	cr_expect(host_log_contains("htree index: unrecognised hash version (7); searching it "
				    "linearly"),
		  "%s", host_log());
	ext2t_umount();
}
