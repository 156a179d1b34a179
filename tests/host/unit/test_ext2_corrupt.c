/*
 * Corrupt metadata: each case gives -EIO with a log line naming the inode or block, never
 * a crash or a hang, and the filesystem remembers it had errors. Images are made by
 * mke2fs and damaged with debugfs or by writing bytes into them.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cgwb/fs.h>
#include <cgwb/errno.h>
#include <cgwb/buffer_head.h>
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

TestSuite(ext2_corrupt, .init = setup, .fini = teardown);

/* A 1 KiB-block image with /f (20 KiB: direct and indirect blocks), /a/b and /d (50 entries). */
static void make_image(void)
{
	cr_assert_eq(ext2t_sh("set -e; cd %s; mkdir -p src/a/b src/d; head -c 20480 /dev/zero | tr "
			      "'\\0' 'z' > src/f;"
			      "for i in $(seq 50); do : > src/d/entry-$i; done",
			      ext2t_env.dir),
		     0);
	char opts[128];
	snprintf(opts, sizeof(opts), "-b 1024 -d %s/src", ext2t_env.dir);
	ext2t_mkfs(opts, 4 << 10);
}

static void debugfs_w(const char *request)
{
	cr_assert_eq(ext2t_sh("debugfs -w -R '%s' %s > /dev/null 2>&1", request, ext2t_env.img), 0,
		     "%s", request);
}

static unsigned long debugfs_number(const char *request)
{
	unsigned long long v;

	ext2t_sh_number(&v, "debugfs -R '%s' %s 2>/dev/null", request, ext2t_env.img);
	return (unsigned long)v;
}

static unsigned long inode_number(const char *path)
{
	unsigned long long v;

	cr_assert(ext2t_sh_number(&v,
				  "debugfs -R 'stat %s' %s 2>/dev/null | sed -n 's/^Inode: "
				  "\\([0-9]*\\).*/\\1/p'",
				  path, ext2t_env.img),
		  "no inode for %s", path);
	return (unsigned long)v;
}

/* Where group 0's "Inode bitmap", "Inode table"... is, as dumpe2fs says. */
static unsigned long dumpe2fs_group0(const char *what)
{
	unsigned long long v;

	cr_assert(ext2t_sh_number(&v,
				  "dumpe2fs %s 2>/dev/null | sed -n 's/.*%s at "
				  "\\([0-9]*\\).*/\\1/p'",
				  ext2t_env.img, what),
		  "no '%s' in dumpe2fs", what);
	return (unsigned long)v;
}

static int read_all(const char *path)
{
	static char buf[64 << 10];
	ssize_t got;

	return ext2t_read(path, 0, buf, sizeof(buf), &got);
}

static bool errors_recorded(void)
{
	return ext2t_sh("dumpe2fs -h %s 2>/dev/null | grep -q '^Filesystem state: *clean with "
			"errors'",
			ext2t_env.img) == 0;
}

Test(ext2_corrupt, data_block_out_of_range)
{
	make_image();
	unsigned long ino = inode_number("/f");
	debugfs_w("sif /f block[2] 4000000000");
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(read_all(EXT2T_MNT "/f"), -EIO);
	char line[128];
	snprintf(line, sizeof(line),
		 "inode %lu: data block 4000000000 out of range (logical block 2)", ino);
	cr_expect(host_log_contains(line), "no '%s' in:\n%s", line, host_log());
	ext2t_umount();
	cr_expect(errors_recorded());
}

Test(ext2_corrupt, indirect_block_out_of_range)
{
	make_image();
	debugfs_w("sif /f block[IND] 7777777");
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(read_all(EXT2T_MNT "/f"), -EIO);
	cr_expect(host_log_contains("indirect block 7777777 out of range (logical block 12)"), "%s",
		  host_log());
	/* deleting it frees what can be freed and says what could not */
	cr_assert_eq(do_unlink(EXT2T_MNT "/f"), 0);
	ext2t_umount();
	cr_expect(host_log_contains("indirect block 7777777 out of range, dropped"), "%s",
		  host_log());
}

Test(ext2_corrupt, rec_len_overruns_block)
{
	make_image();
	unsigned long ino = inode_number("/d");
	unsigned long block = debugfs_number("blocks /d");
	u16 rec_len = 1024 + 100;

	cr_assert_neq(block, 0);
	ext2t_poke((long)(block * 1024 + 12 + 4), &rec_len, 2); /* the ".." entry */
	ext2t_attach();
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext2", SB_RDONLY, NULL), 0);
	cr_assert_eq(ext2t_count_entries(EXT2T_MNT "/d"), -EIO);
	cr_assert_eq(ext2t_size(EXT2T_MNT "/d/entry-1"), -EIO);
	char line[160];
	snprintf(line, sizeof(line),
		 "bad entry in directory #%lu: directory entry across blocks - offset=12", ino);
	cr_expect(host_log_contains(line), "no '%s' in:\n%s", line, host_log());
	ext2t_umount();
}

/*
 * A directory block is checked whole once per read, and the buffer keeps a mark; a corrupt
 * image can give one block two roles (a directory's and an extent block's, a bitmap's), and
 * another role's check then leaves the mark on entries it never read. Every walk checks
 * the entry it steps over as well: a zero rec_len in a block already marked gives -EIO
 * (lookup, create, readdir, rmdir), never an endless loop. Made here by changing the
 * cached block after its check.
 */
Test(ext2_corrupt, zero_rec_len_in_a_block_already_checked)
{
	struct buffer_head *bh;
	u16 saved;

	make_image();
	unsigned long block = debugfs_number("blocks /d");
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(ext2t_count_entries(EXT2T_MNT "/d"), 52); /* read and checked */
	bh = sb_bread(ext2t_sb(), block);
	cr_assert_not_null(bh);
	cr_assert(buffer_verified(bh));
	memcpy(&saved, bh->b_data + 12 + 4, 2); /* the ".." entry's rec_len */
	memset(bh->b_data + 12 + 4, 0, 2);
	cr_assert_eq(ext2t_size(EXT2T_MNT "/d/not-there"), -EIO);
	cr_assert_eq(ext2t_write(EXT2T_MNT "/d/new", 0, 0, "", 0), -EIO);
	cr_assert_eq(ext2t_count_entries(EXT2T_MNT "/d"), -EIO);
	cr_expect(host_log_contains("bad entry at offset 12 (rec_len 0)"), "%s", host_log());
	memcpy(bh->b_data + 12 + 4, &saved, 2);
	brelse(bh);
	ext2t_umount();
	cr_expect(errors_recorded());
}

Test(ext2_corrupt, rec_len_too_small)
{
	make_image();
	unsigned long block = debugfs_number("blocks /d");
	u16 rec_len = 6;

	ext2t_poke((long)(block * 1024 + 4), &rec_len, 2);
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(ext2t_count_entries(EXT2T_MNT "/d"), -EIO);
	cr_expect(host_log_contains("rec_len is smaller than minimal - offset=0"), "%s", host_log());
	cr_assert_eq(ext2t_write(EXT2T_MNT "/d/new", 0, 0, "", 0), -EIO);
	ext2t_umount();
	cr_expect(errors_recorded());
}

Test(ext2_corrupt, entry_inode_out_of_bounds)
{
	make_image();
	unsigned long block = debugfs_number("blocks /d");
	u32 ino = 9999999;
	struct kstat st;

	ext2t_poke((long)(block * 1024 + 24), &ino, 4); /* the entry after ".." */
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(vfs_stat(EXT2T_MNT "/d/entry-1", &st), -EIO);
	cr_expect(host_log_contains("inode out of bounds - offset=24, inode=9999999"), "%s",
		  host_log());
	ext2t_umount();
}

Test(ext2_corrupt, directory_loop)
{
	make_image();
	debugfs_w("ln /a /a/b/loop");
	struct kstat st;

	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(vfs_stat(EXT2T_MNT "/a/b/loop", &st), -EIO);
	cr_assert_eq(vfs_stat(EXT2T_MNT "/a/b/loop/b/loop/b", &st), -EIO);
	cr_expect(host_log_contains("directory loop: entry 'loop'"), "%s", host_log());
	cr_expect_eq(ext2t_count_entries(EXT2T_MNT "/a/b"), 3); /* listing it is fine */
	ext2t_umount();
}

Test(ext2_corrupt, self_loop)
{
	make_image();
	debugfs_w("ln /a/b /a/b/self");
	struct kstat st;

	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(vfs_stat(EXT2T_MNT "/a/b/self", &st), -EIO);
	cr_expect(host_log_contains("points to its ancestor"), "%s", host_log());
	ext2t_umount();
}

Test(ext2_corrupt, entry_to_cleared_inode)
{
	make_image();
	unsigned long ino = inode_number("/f");
	debugfs_w("clri /f");
	struct kstat st;

	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(vfs_stat(EXT2T_MNT "/f", &st), -EIO);
	char line[96];
	snprintf(line, sizeof(line), "inode %lu: deleted inode referenced", ino);
	cr_expect(host_log_contains(line), "%s", host_log());
	ext2t_umount();
}

Test(ext2_corrupt, bad_mode_and_inode_number)
{
	make_image();
	debugfs_w("sif /f mode 0170644");
	debugfs_w("ln <5> /reserved");
	struct kstat st;

	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(vfs_stat(EXT2T_MNT "/f", &st), -EIO);
	cr_expect(host_log_contains("corrupt (mode 170644"), "%s", host_log());
	cr_assert_eq(vfs_stat(EXT2T_MNT "/reserved", &st), -EIO);
	cr_expect(host_log_contains("bad inode number: 5"), "%s", host_log());
	ext2t_umount();
}

Test(ext2_corrupt, corrupt_block_bitmap)
{
	make_image();
	char line[128];
	unsigned long bitmap = dumpe2fs_group0("Block bitmap");
	u8 zeros[64] = { 0 };

	/* group 0's block bitmap claims its own metadata is free */
	ext2t_poke((long)bitmap * 1024, zeros, sizeof(zeros));
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/new", 1, 0, 100), -EIO);
	snprintf(line, sizeof(line), "invalid block bitmap - block_group = 0, block = %lu", bitmap);
	cr_expect(host_log_contains(line), "%s", host_log());
	ext2t_umount();
}

/*
 * A zeroed inode bitmap says every inode is free. New files must not take over the live
 * ones (lost+found is 11, big 12, small 13): each is refused with a log line, its bit set
 * again, and the files already there stay intact.
 */
Test(ext2_corrupt, zeroed_inode_bitmap_takes_no_live_inode)
{
	static u8 zeros[1024], big[300000], got[300000];
	char line[128];
	struct kstat st;
	ssize_t n;

	cr_assert_eq(ext2t_sh("set -e; cd %s; mkdir -p src; head -c 300000 /dev/urandom > src/big;"
			      "echo small > src/small",
			      ext2t_env.dir),
		     0);
	char opts[128];
	snprintf(opts, sizeof(opts), "-b 1024 -d %s/src", ext2t_env.dir);
	ext2t_mkfs(opts, 16 << 10);
	cr_assert_eq(inode_number("/big"), 12);
	cr_assert_eq(ext2t_sh("cp %s/src/big %s/big.expected", ext2t_env.dir, ext2t_env.dir), 0);
	cr_assert_eq(inode_number("/lost+found"), 11);
	cr_assert_eq(inode_number("/small"), 13);
	ext2t_poke((long)dumpe2fs_group0("Inode bitmap") * 1024, zeros, sizeof(zeros));

	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(vfs_stat(EXT2T_MNT "/big", &st), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/new1", 1, 0, 5000), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/new2", 2, 0, 5000), 0);
	for (unsigned int ino = 11; ino <= 13; ino++) {
		snprintf(line, sizeof(line), "group 0: inode %u is in use but free in the bitmap",
			 ino);
		cr_expect(host_log_contains(line), "no '%s' in:\n%s", line, host_log());
	}
	cr_assert_eq(vfs_stat(EXT2T_MNT "/new1", &st), 0);
	cr_expect_gt(st.ino, 13);
	cr_assert_eq(ext2t_read(EXT2T_MNT "/big", 0, got, sizeof(got), &n), 0);
	cr_assert_eq(n, (ssize_t)sizeof(got));
	ext2t_umount();

	cr_expect(errors_recorded());
	char path[128];
	snprintf(path, sizeof(path), "%s/big.expected", ext2t_env.dir);
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f);
	cr_assert_eq(fread(big, 1, sizeof(big), f), sizeof(big));
	fclose(f);
	cr_expect(memcmp(got, big, sizeof(big)) == 0, "big changed while mounted");
	ext2t_expect_dump("/big", big, sizeof(big));
	cr_expect_eq(ext2t_sh("debugfs -R 'stat /lost+found' %s 2>/dev/null | grep -q 'Type: "
			      "directory'",
			      ext2t_env.img),
		     0, "lost+found is no longer a directory");
	cr_expect_gt(inode_number("/new1"), 13);
	cr_expect_gt(inode_number("/new2"), 13);
}

/* A group descriptor claiming more free blocks than its group has is recounted at mount. */
Test(ext2_corrupt, free_count_larger_than_group)
{
	u64 bfree, ffree, disk_blocks, disk_inodes;

	make_image();
	ext2t_disk_free(&disk_blocks, &disk_inodes);
	debugfs_w("set_bg 0 free_blocks_count 65535");
	debugfs_w("set_bg 0 free_inodes_count 65535");
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_expect(host_log_contains("group 0: free blocks count 65535 is more than its"), "%s",
		  host_log());
	cr_expect(host_log_contains("group 0: free inodes count 65535 is more than its"), "%s",
		  host_log());
	ext2t_statfs(&bfree, &ffree);
	cr_expect_eq(bfree, disk_blocks, "df's free blocks: %llu, the bitmaps say %llu",
		     (unsigned long long)bfree, (unsigned long long)disk_blocks);
	cr_expect_eq(ffree, disk_inodes);
	ext2t_umount();
	cr_expect(errors_recorded());
	ext2t_disk_free(&bfree, &ffree);
	cr_expect_eq(bfree, disk_blocks, "the repaired count did not reach the disk");
}

/*
 * Block pointers aimed at metadata (the system zone) are refused: reading and writing
 * through them gives -EIO with a log line, and no write ever lands in the inode table.
 */
Test(ext2_corrupt, pointers_into_metadata_are_refused)
{
	make_image();
	unsigned long itable = dumpe2fs_group0("Inode table");
	char req[64], line[160];
	u8 buf[1024];

	snprintf(req, sizeof(req), "sif /f block[IND] %lu", itable);
	debugfs_w(req);
	snprintf(req, sizeof(req), "sif /f block[0] %lu", itable + 1);
	debugfs_w(req);
	cr_assert_eq(ext2t_attach_mount(), 0);
	memset(buf, 0xee, sizeof(buf));
	cr_expect_eq(ext2t_write(EXT2T_MNT "/f", 0, 0, buf, sizeof(buf)), -EIO);
	cr_expect_eq(ext2t_write(EXT2T_MNT "/f", 0, 13 * 1024, buf, sizeof(buf)),
		     -EIO); /* page of blocks 12-15 */
	snprintf(line, sizeof(line), "data block %lu inside filesystem metadata (logical block 0)",
		 itable + 1);
	cr_expect(host_log_contains(line), "no '%s' in:\n%s", line, host_log());
	snprintf(line, sizeof(line),
		 "indirect block %lu inside filesystem metadata (logical block 12)", itable);
	cr_expect(host_log_contains(line), "no '%s' in:\n%s", line, host_log());
	ext2t_umount();
	cr_expect(errors_recorded());
	/* the inode table holds what it held: the other files are all there */
	cr_expect_eq(ext2t_sh("debugfs -R 'ls -l /d' %s 2>/dev/null | grep -c entry- | grep -qx 50",
			      ext2t_env.img),
		     0, "directory /d damaged");
	cr_expect_eq(ext2t_sh("debugfs -R 'stat /a/b' %s 2>/dev/null | grep -q 'Type: directory'",
			      ext2t_env.img),
		     0, "/a/b damaged");
}
