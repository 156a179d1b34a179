/*
 * Helpers of the ext4 host tests (no tests here): see test_ext4.h.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cgwb/fs.h>
#include "host.h"
#include "test_ext2.h"
#include "test_ext4.h"

static const char slow_target[] = "a/target/long/enough/that/it/does/not/fit/in/the/inode/and/"
				  "needs/a/block/of/its/own/"
				  "a/target/long/enough/that/it/does/not/fit/in/the/inode/and/"
				  "needs/a/block/of/its/own";

static const u64 file_sizes[] = { 0, 1, 1023, 4096, 4097, 65536, 300000, 3u << 20 };

static void host_write(const char *path, long pos, u32 seed, size_t len)
{
	FILE *f = fopen(path, pos ? "r+b" : "wb");
	u8 *buf = malloc(len + 1);

	cr_assert_not_null(f, "%s", path);
	ext2t_fill(buf, len, seed, (u64)pos);
	cr_assert_eq(fseek(f, pos, SEEK_SET), 0);
	cr_assert_eq(fwrite(buf, 1, len, f), len);
	fclose(f);
	free(buf);
}

/* The tree mke2fs -d copies: files, a sparse file, a big directory, symlinks. */
static void make_tree(const char *root)
{
	char path[256];

	cr_assert_eq(ext2t_sh("rm -rf %s && mkdir -p %s/dir/sub %s/big", root, root, root), 0);
	for (unsigned int i = 0; i < sizeof(file_sizes) / sizeof(file_sizes[0]); i++) {
		snprintf(path, sizeof(path), "%s/f%u", root, i);
		host_write(path, 0, 100 + i, file_sizes[i]);
	}
	snprintf(path, sizeof(path), "%s/sparse", root);
	host_write(path, 0, 7, 4096);
	for (unsigned int i = 1; i < SPARSE_CHUNKS; i++)
		host_write(path, (long)i * 65536, 7, 4096);
	snprintf(path, sizeof(path), "%s/dir/sub/deep", root);
	host_write(path, 0, 9, 5000);
	for (unsigned int i = 0; i < DIR_ENTRIES; i++) {
		snprintf(path, sizeof(path), "%s/big/entry_with_a_longish_name_%04u", root, i);
		host_write(path, 0, 1000 + i, i % 7);
	}
	cr_assert_eq(ext2t_sh("ln -s f1 %s/fast && ln -s %s %s/slow", root, slow_target, root), 0);
}

void ext4t_make_image(const char *opts)
{
	char root[128];

	snprintf(root, sizeof(root), "%s/tree", ext2t_env.dir);
	make_tree(root);
	cr_assert_eq(ext2t_sh("mke2fs -q -F -t ext4 %s -d %s %s 32M > %s/mkfs.log 2>&1", opts, root,
			      ext2t_env.img, ext2t_env.dir),
		     0, "mke2fs -t ext4 %s", opts);
	cr_assert_lt(ext2t_sh("e2fsck -fyD %s > /dev/null 2>&1", ext2t_env.img), 4);
}

int ext4t_mount(unsigned long flags)
{
	ext2t_attach();
	return do_mount("/dev/vda", EXT2T_MNT, "ext4", flags, NULL);
}

static void count_entry(const char *name, int len, u64 ino, unsigned int type, void *arg)
{
	(void)name, (void)len, (void)type;
	cr_expect_neq(ino, 0);
	++*(int *)arg;
}

void ext4t_check_tree(void)
{
	char path[128], buf[512];
	int n = 0;

	for (unsigned int i = 0; i < sizeof(file_sizes) / sizeof(file_sizes[0]); i++) {
		snprintf(path, sizeof(path), EXT2T_MNT "/f%u", i);
		cr_expect_eq(ext2t_check_pattern(path, 100 + i, file_sizes[i]), 0, "%s", path);
	}
	cr_expect_eq(ext2t_check_pattern(EXT2T_MNT "/dir/sub/deep", 9, 5000), 0);
	cr_expect_eq(ext2t_readdir(EXT2T_MNT "/big", count_entry, &n), DIR_ENTRIES + 2);
	cr_expect_eq(n, DIR_ENTRIES + 2);
	for (unsigned int i = 0; i < DIR_ENTRIES; i += 37) {
		snprintf(path, sizeof(path), EXT2T_MNT "/big/entry_with_a_longish_name_%04u", i);
		cr_expect_eq(ext2t_check_pattern(path, 1000 + i, i % 7), 0, "%s", path);
	}
	cr_expect_eq(do_readlink(EXT2T_MNT "/fast", buf, sizeof(buf)), 2);
	cr_expect_eq(memcmp(buf, "f1", 2), 0);
	cr_expect_eq(do_readlink(EXT2T_MNT "/slow", buf, sizeof(buf)), (int)strlen(slow_target));
	cr_expect_eq(memcmp(buf, slow_target, strlen(slow_target)), 0);
}

void ext4t_check_sparse(void)
{
	static u8 buf[65536], want[4096];
	ssize_t got;

	cr_assert_eq(ext2t_size(EXT2T_MNT "/sparse"), (loff_t)(SPARSE_CHUNKS - 1) * 65536 + 4096);
	for (unsigned int i = 0; i < SPARSE_CHUNKS; i++) {
		cr_assert_eq(ext2t_read(EXT2T_MNT "/sparse", (loff_t)i * 65536, buf, sizeof(buf),
					&got),
			     0);
		ext2t_fill(want, sizeof(want), 7, (u64)i * 65536);
		cr_expect_eq(memcmp(buf, want, sizeof(want)), 0, "chunk %u", i);
		for (ssize_t j = 4096; j < got; j++)
			if (buf[j]) {
				cr_expect_fail("hole after chunk %u reads %#x at %zd", i, buf[j], j);
				break;
			}
	}
}

void ext4t_set_super_value(const char *field, const char *value)
{
	cr_assert_eq(ext2t_sh("debugfs -w -R 'ssv %s %s' %s > /dev/null 2>&1", field, value,
			      ext2t_env.img),
		     0);
}

unsigned long long ext4t_extents_matching(const char *path, const char *what)
{
	unsigned long long n = 0;

	ext2t_sh_number(&n,
			"debugfs -R 'ex %s' %s 2>/dev/null | awk 'NR > 1 && $1 == $2 \"/\"' | "
			"awk '%s' | wc -l",
			path, ext2t_env.img, what);
	return n;
}
