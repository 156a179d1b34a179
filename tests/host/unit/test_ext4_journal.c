/*
 * Journal recovery at mount: transactions written into an image's journal by debugfs
 * (`jo`, `jw`, `jc`: what a crash leaves, needs_recovery set) are replayed by a mount of
 * type ext4, read-only too, and the image is then what e2fsck's own replay makes of it:
 * the same file contents, e2fsck -fn clean, needs_recovery clear, the journal empty. With
 * and without journal checksums (csum_v3); revoked blocks are not replayed; a commit whose
 * checksum fails ends the log before its transaction; a copy whose checksum fails is
 * skipped alone; a journal superblock that is not one refuses the mount.
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
#include "test_ext4.h"
#include "filedisk.h"
#include "../../../fs/ext2/ext2.h"

#define BS 1024
#define F5_SEED 105 /* /f5: 65536 bytes of ext4t's tree */
#define NEW_SEED 77 /* what the journal writes over it */

static void setup(void)
{
	ext2t_boot(64);
}

static void teardown(void)
{
	ext2t_shutdown();
}

TestSuite(ext4_journal, .init = setup, .fini = teardown);

static long debugfs_number(const char *request)
{
	unsigned long long v;

	cr_assert(ext2t_sh_number(&v, "debugfs -R '%s' %s 2>/dev/null", request, ext2t_env.img),
		  "debugfs %s", request);
	return (long)v;
}

/* The device block of /f5's logical block n. */
static long f5_block(unsigned int n)
{
	char req[64];

	snprintf(req, sizeof(req), "bmap /f5 %u", n);
	return debugfs_number(req);
}

/* The device block of the journal's block n. */
static long journal_block(unsigned int n)
{
	char req[64];

	snprintf(req, sizeof(req), "bmap <8> %u", n);
	return debugfs_number(req);
}

/* debugfs journal commands on the image: "jo [-c]" then each, then "jc". */
static void journal_run(bool csum, const char *const *cmds, int n)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/jcmds", ext2t_env.dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "jo%s\n", csum ? " -c" : "");
	for (int i = 0; i < n; i++)
		fprintf(f, "%s\n", cmds[i]);
	fprintf(f, "jc\n");
	fclose(f);
	cr_assert_eq(ext2t_sh("debugfs -w -f %s %s > %s/jlog 2>&1", path, ext2t_env.img,
			      ext2t_env.dir),
		     0);
	cr_assert_eq(ext2t_sh("dumpe2fs -h %s 2>/dev/null | grep -q needs_recovery", ext2t_env.img),
		     0, "debugfs left no transaction to recover");
}

/* A file of nblocks blocks of the NEW_SEED pattern, for jw. */
static const char *new_data(unsigned int nblocks)
{
	static char path[160];
	u8 *buf = malloc(nblocks * BS);
	FILE *f;

	snprintf(path, sizeof(path), "%s/jdata", ext2t_env.dir);
	ext2t_fill(buf, nblocks * BS, NEW_SEED, 0);
	f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(buf, 1, nblocks * BS, f), nblocks * BS);
	fclose(f);
	free(buf);
	return path;
}

/* /f5's block n holds what `want` says: the journal's data (new) or its own. */
static void expect_f5_block(unsigned int n, bool new)
{
	static u8 got[BS], want[BS];
	ssize_t len;

	cr_assert_eq(ext2t_read(EXT2T_MNT "/f5", (loff_t)n * BS, got, BS, &len), 0);
	cr_assert_eq(len, BS);
	if (new)
		ext2t_fill(want, BS, NEW_SEED, (u64)n * BS);
	else
		ext2t_fill(want, BS, F5_SEED, (u64)n * BS);
	cr_expect_eq(memcmp(got, want, BS), 0, "/f5 block %u is not the %s data", n,
		     new ? "journal's" : "file's own");
}

/* After our replay: the journal is empty, and the image is clean for e2fsck. */
static void expect_recovered(void)
{
	cr_expect_eq(ext2t_sh("dumpe2fs -h %s 2>/dev/null | grep -q needs_recovery", ext2t_env.img),
		     1, "needs_recovery still set");
	cr_expect_eq(ext2t_sh("dumpe2fs -h %s 2>/dev/null | grep -q '^Journal start: *0$'",
			      ext2t_env.img),
		     0, "the journal is not empty");
	ext2t_fsck_clean();
}

ParameterizedTestParameters(ext4_journal, replay)
{
	static bool csum[] = { false, true };

	return cr_make_param_array(bool, csum, 2);
}

/* Two copies replayed over /f5, compared with e2fsck's replay of the same image. */
ParameterizedTest(bool *csum, ext4_journal, replay)
{
	char cmd[128];
	const char *cmds[] = { cmd };

	ext4t_make_image("-b 1024");
	snprintf(cmd, sizeof(cmd), "jw -b %ld,%ld %s", f5_block(0), f5_block(1), new_data(2));
	journal_run(*csum, cmds, 1);
	cr_assert_eq(ext2t_sh("cp %s %s/ref.img && e2fsck -fy %s/ref.img > /dev/null 2>&1; "
			      "[ $? -lt 4 ]",
			      ext2t_env.img, ext2t_env.dir, ext2t_env.dir),
		     0);
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_expect(host_log_contains("recovery complete: 1 transactions, 2 blocks replayed, 0 "
				    "revoked"),
		  "%s", host_log());
	expect_f5_block(0, true);
	expect_f5_block(1, true);
	expect_f5_block(2, false);
	ext2t_umount();
	expect_recovered();
	cr_expect_eq(ext2t_sh("debugfs -R 'dump /f5 %s/ours' %s >/dev/null 2>&1 && "
			      "debugfs -R 'dump /f5 %s/theirs' %s/ref.img >/dev/null 2>&1 && "
			      "cmp -s %s/ours %s/theirs",
			      ext2t_env.dir, ext2t_env.img, ext2t_env.dir, ext2t_env.dir,
			      ext2t_env.dir, ext2t_env.dir),
		     0, "our replay and e2fsck's differ");
	/* a second mount finds nothing to do */
	host_log_clear();
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0);
	cr_expect(!host_log_contains("recovery"), "%s", host_log());
	expect_f5_block(0, true);
	ext2t_umount();
}

/* Transaction 2 revokes block 0 of transaction 1; transaction 3 writes block 1 anew. */
Test(ext4_journal, revoked_blocks_stay)
{
	char w1[128], r2[64], w3[128];
	const char *cmds[] = { w1, r2, w3 };

	ext4t_make_image("-b 1024");
	snprintf(w1, sizeof(w1), "jw -b %ld %s", f5_block(0), new_data(1));
	snprintf(r2, sizeof(r2), "jw -r %ld", f5_block(0));
	snprintf(w3, sizeof(w3), "jw -b %ld %s", f5_block(3), new_data(1));
	journal_run(true, cmds, 3);
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_expect(host_log_contains("recovery complete: 3 transactions, 1 blocks replayed, 1 "
				    "revoked"),
		  "%s", host_log());
	expect_f5_block(0, false);
	ext2t_umount();
	expect_recovered();
}

static void flip(long offset)
{
	u8 b;

	ext2t_peek(offset, &b, 1);
	b ^= 0x5a;
	ext2t_poke(offset, &b, 1);
}

/* Journal: superblock 0, descriptor 1, the copies 2 and 3, the commit 4. */
Test(ext4_journal, bad_commit_checksum_ends_the_log)
{
	char cmd[128];
	const char *cmds[] = { cmd };

	ext4t_make_image("-b 1024");
	snprintf(cmd, sizeof(cmd), "jw -b %ld,%ld %s", f5_block(0), f5_block(1), new_data(2));
	journal_run(true, cmds, 1);
	flip(journal_block(4) * BS + 100);
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_expect(host_log_contains("commit block of transaction 1: checksum invalid"), "%s",
		  host_log());
	cr_expect(host_log_contains("recovery complete: 0 transactions"), "%s", host_log());
	expect_f5_block(0, false);
	expect_f5_block(1, false);
	ext2t_umount();
	expect_recovered();
}

Test(ext4_journal, bad_copy_checksum_skips_that_block)
{
	char cmd[128];
	const char *cmds[] = { cmd };

	ext4t_make_image("-b 1024");
	snprintf(cmd, sizeof(cmd), "jw -b %ld,%ld %s", f5_block(0), f5_block(1), new_data(2));
	journal_run(true, cmds, 1);
	flip(journal_block(2) * BS + 10);
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_expect(host_log_contains("invalid checksum recovering block"), "%s", host_log());
	expect_f5_block(0, false);
	expect_f5_block(1, true);
	ext2t_umount();
}

Test(ext4_journal, bad_journal_superblock_refused)
{
	char cmd[128];
	const char *cmds[] = { cmd };

	ext4t_make_image("-b 1024");
	snprintf(cmd, sizeof(cmd), "jw -b %ld %s", f5_block(0), new_data(1));
	journal_run(true, cmds, 1);
	flip(journal_block(0) * BS); /* the magic */
	cr_assert_eq(ext4t_mount(SB_RDONLY), -EINVAL);
	cr_expect(host_log_contains("bad journal superblock: magic"), "%s", host_log());
}

Test(ext4_journal, ext2_type_refuses_recovery)
{
	char cmd[128];
	const char *cmds[] = { cmd };

	ext4t_make_image("-b 1024");
	snprintf(cmd, sizeof(cmd), "jw -b %ld %s", f5_block(0), new_data(1));
	journal_run(false, cmds, 1);
	ext2t_attach();
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext2", SB_RDONLY, NULL), -EINVAL);
	cr_expect(host_log_contains("unsupported optional features (2c4)"), "%s", host_log());
}

/*
 * Linux keeps the free counts in memory and writes them to the superblock at umount: after
 * a crash they are stale, and the replay sets them from the replayed descriptors.
 */
Test(ext4_journal, stale_superblock_counts_set_from_descriptors)
{
	char cmd[128];
	const char *cmds[] = { cmd };

	ext4t_make_image("-b 1024");
	ext4t_set_super_value("free_blocks_count", "1234");
	ext4t_set_super_value("free_inodes_count", "77");
	snprintf(cmd, sizeof(cmd), "jw -b %ld %s", f5_block(0), new_data(1));
	journal_run(true, cmds, 1);
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	ext2t_umount();
	expect_recovered();
}

/*
 * noload (norecovery), as Linux's: a read-only mount reads the image as it is, the journal
 * left for later; read-write it is refused while the journal needs recovery, and on a
 * clean image writes in place without the journal. journal_checksum is taken.
 */
Test(ext4_journal, noload_reads_as_is_and_refuses_to_write_over_a_journal)
{
	char cmd[128];
	const char *cmds[] = { cmd };

	ext4t_make_image("-b 1024");
	snprintf(cmd, sizeof(cmd), "jw -b %ld %s", f5_block(0), new_data(1));
	journal_run(true, cmds, 1);
	ext2t_attach();
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext4", 0, "noload"), -EINVAL);
	cr_expect(host_log_contains("required journal recovery suppressed and not mounted "
				    "read-only"),
		  "%s", host_log());
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext4", SB_RDONLY, "norecovery"), 0, "%s",
		     host_log());
	expect_f5_block(0, false); /* not replayed */
	ext2t_umount();
	cr_expect_eq(ext2t_sh("dumpe2fs -h %s 2>/dev/null | grep -q needs_recovery", ext2t_env.img),
		     0, "the journal was replayed or cleared");
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext4", 0, "journal_checksum"), 0, "%s",
		     host_log()); /* replays, then runs with its journal */
	expect_f5_block(0, true);
	ext2t_umount();
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext4", 0, "noload"), 0, "%s", host_log());
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/n", 9, 0, 5000), 0);
	ext2t_umount();
	expect_recovered();
	ext2t_expect_dump_pattern("/n", 9, 5000);
}

/* Recovery writes: on a read-only device the mount is refused, the image untouched. */
Test(ext4_journal, read_only_device_refused)
{
	char cmd[128];
	const char *cmds[] = { cmd };
	struct gendisk *disk;

	ext4t_make_image("-b 1024");
	snprintf(cmd, sizeof(cmd), "jw -b %ld %s", f5_block(0), new_data(1));
	journal_run(true, cmds, 1);
	cr_assert_eq(ext2t_sh("cp %s %s/before.img", ext2t_env.img, ext2t_env.dir), 0);
	disk = filedisk_add("vda", ext2t_env.img, true, NULL);
	cr_assert_not_null(disk);
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext4", SB_RDONLY, NULL), -EROFS);
	cr_expect(host_log_contains("the journal needs recovery and the device is read-only"), "%s",
		  host_log());
	cr_expect_eq(ext2t_sh("cmp -s %s %s/before.img", ext2t_env.img, ext2t_env.dir), 0);
}

/* A handle open keeps the task's reclaim out of filesystems, nested starts too, until the last stop. */
Test(ext4_journal, a_handle_open_keeps_reclaim_out_of_filesystems)
{
	struct super_block *sb;
	struct path p;

	ext4t_make_image("-b 1024");
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	cr_assert_eq(kern_path(EXT2T_MNT, LOOKUP_FOLLOW, &p), 0);
	sb = p.mnt->mnt_sb;
	path_put(&p);
	cr_assert_not(current->memalloc_nofs);
	cr_assert_eq(ext2_journal_start(sb), 0);
	cr_assert(current->memalloc_nofs);
	cr_assert_eq(ext2_journal_start(sb), 0);
	ext2_journal_stop(sb);
	cr_assert(current->memalloc_nofs, "the inner stop ended it");
	ext2_journal_stop(sb);
	cr_assert_not(current->memalloc_nofs);
}
