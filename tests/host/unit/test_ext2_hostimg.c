/*
 * Images whose files were written by the host tools read back through the driver: a tree
 * copied in by mke2fs -d (files of many sizes, fast and slow symlinks, a directory with
 * many entries, deep nesting), files added by debugfs -w, and sparse files reaching the
 * double and triple indirect blocks, where debugfs bmap says which disk block each
 * logical block must map to.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cgwb/fs.h>
#include <cgwb/errno.h>
#include "host.h"
#include "test_ext2.h"

static void setup(void)
{
	ext2t_boot(64);
}

static void teardown(void)
{
	ext2t_shutdown();
}

TestSuite(ext2_hostimg, .init = setup, .fini = teardown);

/* The host file at ext2t_env.dir/src/rel, whole. */
static u8 *host_file(const char *rel, size_t *len)
{
	char path[256];
	FILE *f;
	u8 *buf;

	snprintf(path, sizeof(path), "%s/src/%s", ext2t_env.dir, rel);
	f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(*len + 1);
	cr_assert_eq(fread(buf, 1, *len, f), *len);
	fclose(f);
	return buf;
}

static void expect_same_file(const char *rel)
{
	char path[256];
	size_t len;
	u8 *want = host_file(rel, &len), *got = malloc(len + 1);
	ssize_t n;

	struct kstat st;

	snprintf(path, sizeof(path), EXT2T_MNT "/%s", rel);
	cr_assert_eq(vfs_stat(path, &st), 0, "%s", path);
	cr_assert_eq(st.size, (loff_t)len, "%s", path);
	cr_assert_eq(ext2t_read(path, 0, got, len + 1, &n), 0, "%s", path);
	cr_assert_eq(n, (ssize_t)len, "%s", path);
	cr_assert(!memcmp(want, got, len), "%s: contents differ", path);
	free(want);
	free(got);
}

static void make_source_tree(void)
{
	cr_assert_eq(ext2t_sh("set -e; cd %s; mkdir -p src/deep/a/b/c/d src/many; cd src;"
			      ": > empty; printf x > one; head -c 5000 /dev/urandom > small;"
			      "head -c 102400 /dev/urandom > medium; head -c 3145728 /dev/urandom "
			      "> large;"
			      "head -c 777 /dev/urandom > deep/a/b/c/d/leaf;"
			      "ln -s small fastlink; ln -s $(printf 'p%%.0s' $(seq 300)) slowlink;"
			      "for i in $(seq 300); do echo $i > many/entry-$i; done",
			      ext2t_env.dir),
		     0);
}

ParameterizedTestParameters(ext2_hostimg, mkfs_d)
{
	static int block_sizes[] = { 1024, 2048, 4096 };

	return cr_make_param_array(int, block_sizes, 3);
}

ParameterizedTest(int *bs, ext2_hostimg, mkfs_d)
{
	static const char *const files[] = {
		"empty",        "one",
		"small",        "medium",
		"large",        "deep/a/b/c/d/leaf",
		"many/entry-1", "many/entry-300",
	};
	char opts[128], target[400];

	make_source_tree();
	snprintf(opts, sizeof(opts), "-b %d -d %s/src", *bs, ext2t_env.dir);
	ext2t_mkfs(opts, 16 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		expect_same_file(files[i]);
	cr_expect_eq(ext2t_count_entries(EXT2T_MNT "/many"), 302);
	cr_assert_eq(do_readlink(EXT2T_MNT "/fastlink", target, sizeof(target)), 5);
	cr_expect_str_eq(target, "small");
	cr_assert_eq(do_readlink(EXT2T_MNT "/slowlink", target, sizeof(target)), 300);
	cr_expect_eq(target[299], 'p');
	expect_same_file("fastlink"); /* followed */
	ext2t_umount();
	ext2t_fsck_clean();
}

/* The disk block debugfs says logical block lblk of path maps to (0: a hole). */
static u64 debugfs_bmap(const char *path, u64 lblk)
{
	unsigned long long v;

	ext2t_sh_number(&v, "debugfs -R 'bmap %s %llu' %s 2>/dev/null", path,
			(unsigned long long)lblk, ext2t_env.img);
	return v;
}

/* Logical block lblk of path, as the driver reads it, equals that disk block of the image. */
static void expect_block_at(const char *path, u64 lblk, unsigned int bs, u32 seed)
{
	char mpath[128];
	u8 *disk = malloc(bs), *file = malloc(bs), *want = malloc(bs);
	u64 pblk = debugfs_bmap(path, lblk);
	ssize_t got;

	cr_assert_neq(pblk, 0, "%s: block %llu is a hole for debugfs", path,
		      (unsigned long long)lblk);
	ext2t_peek((long)(pblk * bs), disk, bs);
	ext2t_fill(want, bs, seed, lblk * bs);
	cr_expect(!memcmp(disk, want, bs), "%s: disk block %llu does not hold logical block %llu",
		  path, (unsigned long long)pblk, (unsigned long long)lblk);
	snprintf(mpath, sizeof(mpath), EXT2T_MNT "%s", path);
	cr_assert_eq(ext2t_mount(), 0);
	cr_assert_eq(ext2t_read(mpath, (loff_t)(lblk * bs), file, bs, &got), 0);
	cr_assert_eq(got, (ssize_t)bs);
	cr_expect(!memcmp(file, want, bs), "%s: block %llu reads wrong", mpath,
		  (unsigned long long)lblk);
	ext2t_umount();
	free(disk);
	free(file);
	free(want);
}

static void expect_zeros(const char *mpath, loff_t pos, size_t len)
{
	u8 *buf = malloc(len);
	ssize_t got;

	cr_assert_eq(ext2t_read(mpath, pos, buf, len, &got), 0);
	cr_assert_eq(got, (ssize_t)len);
	for (size_t i = 0; i < len; i++)
		cr_assert_eq(buf[i], 0, "%s: byte %lld of a hole is %#x", mpath,
			     (long long)pos + (long long)i, buf[i]);
	free(buf);
}

/*
 * A sparse file written by debugfs with data past 70 MiB: with 1 KiB blocks that is beyond
 * the double indirect range (64.26 MiB), so it maps through the triple indirect block.
 */
Test(ext2_hostimg, debugfs_sparse_triple_indirect)
{
	const u64 off = 70ULL << 20;
	const unsigned int len = 8192;
	u8 *buf = malloc(len);
	char host[160];
	FILE *f;

	ext2t_mkfs("-b 1024", 8 << 10);
	snprintf(host, sizeof(host), "%s/sparse", ext2t_env.dir);
	f = fopen(host, "wb");
	cr_assert_not_null(f);
	ext2t_fill(buf, len, 42, off);
	fseek(f, (long)off, SEEK_SET);
	fwrite(buf, 1, len, f);
	fclose(f);
	cr_assert_eq(ext2t_sh("debugfs -w -R 'write %s /sparse' %s > /dev/null 2>&1", host,
			      ext2t_env.img),
		     0);
	cr_assert_eq(ext2t_sh("debugfs -w -R 'mkdir /dir' %s > /dev/null 2>&1", ext2t_env.img), 0);
	cr_assert_eq(ext2t_sh("debugfs -w -R 'symlink /dir/link ../sparse' %s > /dev/null 2>&1",
			      ext2t_env.img),
		     0);
	ext2t_fsck_clean();
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(ext2t_size(EXT2T_MNT "/sparse"), (loff_t)(off + len));
	expect_zeros(EXT2T_MNT "/sparse", 0, 4096);
	expect_zeros(EXT2T_MNT "/sparse", 40 << 20, 4096);
	u8 *got = malloc(len);
	ssize_t n;
	cr_assert_eq(ext2t_read(EXT2T_MNT "/dir/link", (loff_t)off, got, len, &n), 0);
	cr_assert_eq(n, (ssize_t)len);
	cr_assert(!memcmp(got, buf, len), "the data past 70 MiB reads wrong");
	ext2t_umount();
	for (u64 b = off / 1024; b < (off + len) / 1024; b++)
		expect_block_at("/sparse", b, 1024, 42);
	free(buf);
	free(got);
}

/* Our own writes at the edges of each mapping level land where debugfs says they are. */
ParameterizedTestParameters(ext2_hostimg, mapping_levels)
{
	static int block_sizes[] = { 1024, 4096 };

	return cr_make_param_array(int, block_sizes, 2);
}

ParameterizedTest(int *bs, ext2_hostimg, mapping_levels)
{
	u64 ptrs = (u64)*bs / 4;
	u64 edges[] = {
		0,
		11,
		12,
		12 + ptrs - 1,
		12 + ptrs,
		12 + ptrs + ptrs * ptrs - 1,
		12 + ptrs + ptrs * ptrs,
		12 + ptrs + ptrs * ptrs + 5 * ptrs + 3,
	};
	char opts[32];

	snprintf(opts, sizeof(opts), "-b %d", *bs);
	ext2t_mkfs(opts, 16 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/edges", 9,
						 (loff_t)(edges[i] * (u64)*bs), (u64)*bs),
			     0, "block %llu", (unsigned long long)edges[i]);
	ext2t_umount();
	ext2t_fsck_clean();
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		expect_block_at("/edges", edges[i], (unsigned int)*bs, 9);
	cr_expect_eq(debugfs_bmap("/edges", 13), 0, "a hole must stay a hole");
	cr_assert_eq(ext2t_mount(), 0);
	expect_zeros(EXT2T_MNT "/edges", 13 * *bs, (size_t)*bs);
	cr_assert_eq(do_unlink(EXT2T_MNT "/edges"), 0);
	ext2t_umount();
	ext2t_fsck_clean();
}
