/*
 * ext2 regular files through the whole stack on an mke2fs image: files of many sizes
 * (direct, indirect and double indirect blocks), rewrites, appends, truncates both ways,
 * holes, renames and deletion. After each workload e2fsck -fn must find nothing, debugfs
 * must dump the same bytes as the VFS reads, and deleting everything must give back
 * exactly the free blocks and inodes there were before.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cgwb/fs.h>
#include <cgwb/errno.h>
#include <cgwb/slab.h>
#include "host.h"
#include "test_ext2.h"

static void setup(void)
{
	ext2t_boot(96);
}

static void teardown(void)
{
	ext2t_shutdown();
}

TestSuite(ext2_files, .init = setup, .fini = teardown);

static const u64 file_sizes[] = {
	0,
	1,
	1000,
	1024,
	1025,
	4095,
	4096,
	4097,
	12 << 10,
	(12 << 10) + 1,
	49152,
	49153,
	65536,
	268 << 10,
	(268 << 10) + 1,
	300000,
	1 << 20,
	(4 << 20) + (48 << 10) + 1,
	5 << 20,
};
#define NR_SIZES (sizeof(file_sizes) / sizeof(file_sizes[0]))

ParameterizedTestParameters(ext2_files, sizes)
{
	static int block_sizes[] = { 1024, 2048, 4096 };

	return cr_make_param_array(int, block_sizes, 3);
}

ParameterizedTest(int *bs, ext2_files, sizes)
{
	char opts[32], path[64];
	u64 blocks0, inodes0, bfree, ffree;

	snprintf(opts, sizeof(opts), "-b %d", *bs);
	ext2t_mkfs(opts, 48 << 10);
	ext2t_disk_free(&blocks0, &inodes0);
	cr_assert_eq(ext2t_attach_mount(), 0);
	for (size_t i = 0; i < NR_SIZES; i++) {
		snprintf(path, sizeof(path), EXT2T_MNT "/f%zu", i);
		cr_assert_eq(ext2t_write_pattern(path, (u32)i, 0, file_sizes[i]), 0, "%s", path);
	}
	ksys_sync();
	for (size_t i = 0; i < NR_SIZES; i++) {
		snprintf(path, sizeof(path), EXT2T_MNT "/f%zu", i);
		cr_assert_eq(ext2t_check_pattern(path, (u32)i, file_sizes[i]), 0, "%s", path);
	}
	ext2t_umount();
	ext2t_fsck_clean();
	for (size_t i = 0; i < NR_SIZES; i++) {
		snprintf(path, sizeof(path), "/f%zu", i);
		ext2t_expect_dump_pattern(path, (u32)i, file_sizes[i]);
	}
	/* read back from a cold cache, then delete everything */
	cr_assert_eq(ext2t_mount(), 0);
	for (size_t i = 0; i < NR_SIZES; i++) {
		snprintf(path, sizeof(path), EXT2T_MNT "/f%zu", i);
		cr_assert_eq(ext2t_check_pattern(path, (u32)i, file_sizes[i]), 0, "%s", path);
		cr_assert_eq(do_unlink(path), 0);
	}
	ext2t_statfs(&bfree, &ffree);
	cr_expect_eq(bfree, blocks0);
	cr_expect_eq(ffree, inodes0);
	ext2t_umount();
	ext2t_fsck_clean();
	ext2t_disk_free(&bfree, &ffree);
	cr_expect_eq(bfree, blocks0);
	cr_expect_eq(ffree, inodes0);
}

/* A file and its expected contents, changed in step. */
struct model {
	const char *path;
	u8 *data;
	u64 size, cap;
};

static void model_grow(struct model *m, u64 size)
{
	if (size > m->cap) {
		m->data = realloc(m->data, size);
		m->cap = size;
	}
	if (size > m->size)
		memset(m->data + m->size, 0, size - m->size);
	m->size = size;
}

static void model_write(struct model *m, u32 seed, u64 pos, u64 len)
{
	u8 *buf = malloc(len);

	ext2t_fill(buf, len, seed, pos);
	cr_assert_eq(ext2t_write(m->path, 0, (loff_t)pos, buf, len), 0, "write %llu+%llu",
		     (unsigned long long)pos, (unsigned long long)len);
	if (pos + len > m->size)
		model_grow(m, pos + len);
	memcpy(m->data + pos, buf, len);
	free(buf);
}

static void model_truncate(struct model *m, u64 size)
{
	cr_assert_eq(do_truncate(m->path, (loff_t)size), 0, "truncate to %llu",
		     (unsigned long long)size);
	if (size > m->size)
		model_grow(m, size);
	m->size = size;
}

static void model_check(struct model *m)
{
	u8 *buf = malloc(m->size + 1);
	ssize_t got;

	cr_assert_eq(ext2t_size(m->path), (loff_t)m->size);
	cr_assert_eq(ext2t_read(m->path, 0, buf, m->size + 1, &got), 0);
	cr_assert_eq(got, (ssize_t)m->size);
	cr_assert(!memcmp(buf, m->data, m->size), "%s: contents differ", m->path);
	free(buf);
}

ParameterizedTestParameters(ext2_files, rewrite_truncate)
{
	static int block_sizes[] = { 1024, 4096 };

	return cr_make_param_array(int, block_sizes, 2);
}

ParameterizedTest(int *bs, ext2_files, rewrite_truncate)
{
	struct model m = { .path = EXT2T_MNT "/file" };
	char opts[32];
	u64 blocks0, inodes0, bfree, ffree;

	snprintf(opts, sizeof(opts), "-b %d", *bs);
	ext2t_mkfs(opts, 32 << 10);
	ext2t_disk_free(&blocks0, &inodes0);
	cr_assert_eq(ext2t_attach_mount(), 0);
	model_write(&m, 1, 0, 300000);
	model_write(&m, 2, 1000, 4000);    /* inside, unaligned */
	model_write(&m, 3, 4096, 8192);    /* page aligned */
	model_write(&m, 4, 299990, 20000); /* across the end */
	model_truncate(&m, 150001);        /* down, mid-block */
	ksys_sync();
	model_truncate(&m, 200000);        /* up: a hole after the old end */
	model_write(&m, 5, 1 << 20, 5000); /* far past the end: a hole */
	model_write(&m, 6, 150000, 10);    /* across the old end of file */
	model_check(&m);
	ksys_sync();
	model_truncate(&m, 12289); /* back into the direct blocks */
	model_write(&m, 7, 70000, 1);
	model_truncate(&m, 3 << 20); /* a long hole at the end */
	model_write(&m, 8, (3 << 20) - 100, 100);
	model_check(&m);
	ext2t_umount();
	ext2t_fsck_clean();
	ext2t_expect_dump("/file", m.data, m.size);
	cr_assert_eq(ext2t_mount(), 0);
	model_check(&m);
	model_truncate(&m, 0);
	model_check(&m);
	ext2t_statfs(&bfree, &ffree);
	cr_expect_eq(bfree, blocks0 - 0, "a file of size 0 owns no block");
	cr_assert_eq(do_unlink(m.path), 0);
	ext2t_statfs(&bfree, &ffree);
	cr_expect_eq(bfree, blocks0);
	cr_expect_eq(ffree, inodes0);
	ext2t_umount();
	ext2t_fsck_clean();
	free(m.data);
}

Test(ext2_files, rename)
{
	u64 blocks0, inodes0, bfree, ffree;

	ext2t_mkfs("-b 1024", 16 << 10);
	ext2t_disk_free(&blocks0, &inodes0);
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(do_mkdir(EXT2T_MNT "/a", 0755), 0);
	cr_assert_eq(do_mkdir(EXT2T_MNT "/b", 0755), 0);
	cr_assert_eq(do_mkdir(EXT2T_MNT "/a/sub", 0755), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/a/x", 1, 0, 50000), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/b/y", 2, 0, 70000), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/a/sub/z", 3, 0, 3000), 0);
	cr_assert_eq(do_rename(EXT2T_MNT "/a/x", EXT2T_MNT "/a/x2"), 0);     /* same dir */
	cr_assert_eq(do_rename(EXT2T_MNT "/a/x2", EXT2T_MNT "/b/x3"), 0);    /* across */
	cr_assert_eq(do_rename(EXT2T_MNT "/b/x3", EXT2T_MNT "/b/y"), 0);     /* over a file */
	cr_assert_eq(do_rename(EXT2T_MNT "/a/sub", EXT2T_MNT "/b/sub2"), 0); /* a directory */
	cr_assert_eq(do_rename(EXT2T_MNT "/b", EXT2T_MNT "/b/sub2/in"), -EINVAL);
	cr_assert_eq(do_mkdir(EXT2T_MNT "/empty", 0755), 0);
	cr_assert_eq(do_rename(EXT2T_MNT "/empty", EXT2T_MNT "/a"), 0); /* over an empty dir */
	cr_assert_eq(ext2t_check_pattern(EXT2T_MNT "/b/y", 1, 50000), 0);
	cr_assert_eq(ext2t_check_pattern(EXT2T_MNT "/b/sub2/z", 3, 3000), 0);
	cr_assert_eq(ext2t_size(EXT2T_MNT "/a/x"), -ENOENT);
	ext2t_umount();
	ext2t_fsck_clean();
	ext2t_expect_dump_pattern("/b/y", 1, 50000);
	ext2t_expect_dump_pattern("/b/sub2/z", 3, 3000);
	cr_assert_eq(ext2t_mount(), 0);
	cr_assert_eq(do_unlink(EXT2T_MNT "/b/y"), 0);
	cr_assert_eq(do_unlink(EXT2T_MNT "/b/sub2/z"), 0);
	cr_assert_eq(do_rmdir(EXT2T_MNT "/b/sub2"), 0);
	cr_assert_eq(do_rmdir(EXT2T_MNT "/b"), 0);
	cr_assert_eq(do_rmdir(EXT2T_MNT "/a"), 0);
	ext2t_statfs(&bfree, &ffree);
	cr_expect_eq(bfree, blocks0);
	cr_expect_eq(ffree, inodes0);
	ext2t_umount();
	ext2t_fsck_clean();
}

/* Many files, created and deleted in an interleaved order, then all gone. */
Test(ext2_files, churn)
{
	enum { N = 120 };
	u64 blocks0, inodes0, bfree, ffree, sizes[N];
	char path[64];

	ext2t_mkfs("-b 1024", 32 << 10);
	ext2t_disk_free(&blocks0, &inodes0);
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(do_mkdir(EXT2T_MNT "/d", 0755), 0);
	for (int i = 0; i < N; i++) {
		sizes[i] = (u64)ext2t_pattern(99, (u64)i) * 997 + (u64)(i % 7) * 70000;
		snprintf(path, sizeof(path), EXT2T_MNT "/d/file-%03d", i);
		cr_assert_eq(ext2t_write_pattern(path, (u32)i, 0, sizes[i]), 0);
		if (i % 3 == 2) {
			snprintf(path, sizeof(path), EXT2T_MNT "/d/file-%03d", i - 1);
			cr_assert_eq(do_unlink(path), 0);
		}
	}
	ksys_sync();
	ext2t_umount();
	ext2t_fsck_clean();
	cr_assert_eq(ext2t_mount(), 0);
	cr_expect_eq(ext2t_count_entries(EXT2T_MNT "/d"), 2 + N - N / 3);
	for (int i = 0; i < N; i++) {
		if (i % 3 == 1)
			continue;
		snprintf(path, sizeof(path), EXT2T_MNT "/d/file-%03d", i);
		cr_assert_eq(ext2t_check_pattern(path, (u32)i, sizes[i]), 0);
		cr_assert_eq(do_unlink(path), 0);
	}
	cr_assert_eq(do_rmdir(EXT2T_MNT "/d"), 0);
	ext2t_statfs(&bfree, &ffree);
	cr_expect_eq(bfree, blocks0);
	cr_expect_eq(ffree, inodes0);
	ext2t_umount();
	ext2t_fsck_clean();
	ext2t_disk_free(&bfree, &ffree);
	cr_expect_eq(bfree, blocks0);
	cr_expect_eq(ffree, inodes0);
}
