/*
 * Direct IO and fallocate on ext4 (fs/ext2/direct.c, fs/ext2/fallocate.c), on Debian
 * `mke2fs -t ext4` images with their journal, judged by e2fsck and debugfs: an O_DIRECT
 * write leaves no page in the cache and its holes end as written extents; a direct write
 * into a fallocated range converts exactly what it wrote and the rest stays unwritten; a
 * transfer off the sectors is -EINVAL, one on them but off the blocks goes through the page
 * cache and lands all the same.
 */
#include <criterion/criterion.h>
#include <string.h>
#include <cgwb/fs.h>
#include <cgwb/file.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include "host.h"
#include "test_ext2.h"
#include "test_ext4.h"

static void setup(void)
{
	ext2t_boot(64);
}

static void teardown(void)
{
	ext2t_shutdown();
}

TestSuite(ext4_direct, .init = setup, .fini = teardown);

static void mount_ext4(void)
{
	ext4t_make_image("-b 4096");
	ext2t_attach();
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext4", 0, "delalloc"), 0, "%s", host_log());
}

/* len bytes of seed's pattern from pos, in a buffer on whole pages (kmalloc's large sizes) */
static char *pattern_buf(u32 seed, loff_t pos, size_t len)
{
	char *buf = kmalloc(len, GFP_KERNEL);

	cr_assert_not_null(buf);
	cr_assert_eq((uintptr_t)buf & 511, 0, "the test's buffer is not on sectors");
	ext2t_fill(buf, len, seed, (u64)pos);
	return buf;
}

Test(ext4_direct, write_into_holes_bypasses_the_cache)
{
	char *buf = pattern_buf(5, 0, 1 << 20);
	struct file *f;

	mount_ext4();
	cr_assert_eq(ext2t_write(EXT2T_MNT "/d", O_DIRECT, 0, buf, 1 << 20), 0, "%s", host_log());
	f = filp_open(EXT2T_MNT "/d", O_RDONLY, 0);
	cr_assert(!IS_ERR(f));
	cr_expect_eq(f->f_mapping->nrpages, 0, "a direct write left %lu pages cached",
		     f->f_mapping->nrpages);
	fput(f);
	cr_expect_eq(ext2t_check_pattern(EXT2T_MNT "/d", 5, 1 << 20), 0);
	ext2t_umount();
	ext2t_fsck_clean();
	ext2t_expect_dump_pattern("/d", 5, 1 << 20);
	cr_expect_eq(ext4t_extents_matching("/d", "/Uninit/"), 0, "an extent left unwritten");
	kfree(buf);
}

Test(ext4_direct, write_into_fallocated_range_converts_what_it_wrote)
{
	char *buf = pattern_buf(6, 0, 256 << 10), *want;
	struct file *f;

	mount_ext4();
	f = filp_open(EXT2T_MNT "/fa", O_RDWR | O_CREAT, 0644);
	cr_assert(!IS_ERR(f));
	cr_assert_eq(vfs_fallocate(f, 0, 0, 1 << 20), 0, "%s", host_log());
	cr_expect_eq(f->f_mapping->host->i_size, 1 << 20);
	fput(f);
	cr_assert_eq(ext2t_write(EXT2T_MNT "/fa", O_DIRECT, 0, buf, 256 << 10), 0, "%s", host_log());
	ext2t_umount();
	ext2t_fsck_clean();
	want = kzalloc(1 << 20, GFP_KERNEL); /* the pattern, then the allocated zeros */
	cr_assert_not_null(want);
	memcpy(want, buf, 256 << 10);
	ext2t_expect_dump("/fa", want, 1 << 20);
	kfree(want);
	cr_expect_geq(ext4t_extents_matching("/fa", "/Uninit/"), 1,
		      "the unwritten rest was converted");
	cr_expect_geq(ext4t_extents_matching("/fa", "!/Uninit/"), 1, "the written part is unwritten");
	kfree(buf);
}

Test(ext4_direct, off_the_sectors_einval_off_the_blocks_through_the_cache)
{
	char *buf = pattern_buf(7, 0, 8192);
	ssize_t got = 0;

	mount_ext4();
	cr_expect_eq(ext2t_write(EXT2T_MNT "/u", O_DIRECT, 100, buf, 4096), -EINVAL);
	cr_expect_eq(ext2t_write(EXT2T_MNT "/u", O_DIRECT, 0, buf, 1000), -EINVAL);
	cr_assert_eq(ext2t_write(EXT2T_MNT "/u", O_DIRECT, 0, buf, 8192), 0);
	ext2t_fill(buf, 512, 8, 0);
	cr_assert_eq(ext2t_write(EXT2T_MNT "/u", O_DIRECT, 512, buf, 512), 0, "%s", host_log());
	cr_assert_eq(ext2t_read(EXT2T_MNT "/u", 512, buf + 4096, 512, &got), 0);
	cr_expect_eq(got, 512);
	cr_expect_eq(memcmp(buf, buf + 4096, 512), 0, "the sub-block direct write is not read back");
	ext2t_umount();
	ext2t_fsck_clean();
	kfree(buf);
}
