/*
 * A power cut at any write of a run of changes and fsyncs on ext4 leaves an image that
 * replays clean. Every write the disk carries out is recorded (filedisk), in the order it
 * reached the disk; the crash after write k is the image from before plus writes 1..k. For
 * every k, e2fsck -fy replays the journal and has nothing more to fix; once every write is
 * in, the fsync'd files are whole and the unlink holds. Commits, checkpoints and the
 * superblock's own writes all fall inside: a block written home before the commit that
 * logs it shows as a repair at the prefixes between the two.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cgwb/fs.h>
#include "host.h"
#include "test_ext2.h"
#include "test_ext4.h"
#include "filedisk.h"

static void setup(void)
{
	ext2t_boot(64);
}

static void teardown(void)
{
	ext2t_shutdown();
}

TestSuite(ext4_crash, .init = setup, .fini = teardown);

/* e2fsck's questions in log (the repairs it made), joined into out. */
static void fsck_questions(const char *log, char *out, size_t size)
{
	char line[256];
	FILE *f = fopen(log, "r");
	size_t used = 0;

	out[0] = 0;
	while (f && fgets(line, sizeof(line), f) && used + 2 < size) {
		line[strcspn(line, "\n")] = 0;
		if (line[0] && (strchr(line, '?') || strstr(line, "count wrong")))
			used += (size_t)snprintf(out + used, size - used, "%s%s", used ? " / " : "",
						 line);
	}
	if (f)
		fclose(f);
}

/*
 * The image before, then each recorded write in turn on a copy of it; after each, e2fsck
 * -fy on a copy of that must replay and repair nothing. Returns the number of writes; the
 * last copy checked is left at check (every write in).
 */
static unsigned int check_every_prefix(const char *before, const char *writes, const char *check)
{
	char work[128], log[128], first[512] = "";
	struct filedisk_write w;
	unsigned int n = 0, repaired = 0;
	size_t cap = 1 << 16;
	u8 *buf = malloc(cap);
	FILE *rec = fopen(writes, "rb"), *img;

	snprintf(work, sizeof(work), "%s/work.img", ext2t_env.dir);
	snprintf(log, sizeof(log), "%s/prefix.log", ext2t_env.dir);
	cr_assert(buf && rec);
	cr_assert_eq(ext2t_sh("cp %s %s", before, work), 0);
	img = fopen(work, "r+b");
	cr_assert_not_null(img);
	while (fread(&w, sizeof(w), 1, rec) == 1) {
		if (w.len > cap)
			cr_assert_not_null(buf = realloc(buf, cap = w.len));
		cr_assert_eq(fread(buf, 1, w.len, rec), w.len, "the record ends inside a write");
		cr_assert_eq(fseeko(img, (off_t)w.pos, SEEK_SET), 0);
		cr_assert_eq(fwrite(buf, 1, w.len, img), w.len);
		cr_assert_eq(fflush(img), 0);
		n++;
		cr_assert_eq(ext2t_sh("cp %s %s", work, check), 0);
		int rc = ext2t_sh("e2fsck -fy %s > %s 2>&1", check, log);
		cr_expect_leq(rc, 1, "after write %u: e2fsck -fy exit status %d", n, rc);
		if ((rc > 1 || !ext2t_sh("grep -q 'Fix? yes' %s", log)) && !repaired++) {
			size_t used = (size_t)snprintf(first, sizeof(first), "write %u: ", n);
			fsck_questions(log, first + used, sizeof(first) - used);
		}
	}
	cr_expect_eq(repaired, 0,
		     "a crash after %u of the %u writes needed repairs beyond the replay; the "
		     "first, after %s",
		     repaired, n, first);
	fclose(img);
	fclose(rec);
	free(buf);
	return n;
}

Test(ext4_crash, a_crash_after_any_write_replays_clean)
{
	char before[128], writes[128], check[128];
	struct file *open3;
	unsigned int n;

	snprintf(before, sizeof(before), "%s/before.img", ext2t_env.dir);
	snprintf(writes, sizeof(writes), "%s/writes", ext2t_env.dir);
	snprintf(check, sizeof(check), "%s/check.img", ext2t_env.dir);
	ext4t_make_image("-b 1024");
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	cr_assert_eq(ext2t_fsync(EXT2T_MNT "/f1"), 0); /* the mount's own writes are out */
	cr_assert_eq(ext2t_sh("cp %s %s", ext2t_env.img, before), 0);

	cr_assert_eq(filedisk_record_writes(ext2t_env.disk, writes), 0);
	cr_assert_eq(do_mkdir(EXT2T_MNT "/d", 0755), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/d/a", 51, 0, 30000), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/b", 52, 0, 5000), 0);
	cr_assert_eq(ext2t_fsync(EXT2T_MNT "/d/a"), 0);
	cr_assert_eq(do_unlink(EXT2T_MNT "/f2"), 0);
	open3 = filp_open(EXT2T_MNT "/f3", O_RDONLY, 0);
	cr_assert(!IS_ERR(open3));
	cr_assert_eq(do_unlink(EXT2T_MNT "/f3"), 0); /* open: an orphan, on the superblock's list */
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/d/c", 53, 0, 70000), 0);
	cr_assert_eq(ext2t_fsync(EXT2T_MNT "/b"), 0);
	cr_assert_eq(ext2t_fsync(EXT2T_MNT "/d/c"), 0);
	fput(open3); /* off the list, freed */
	cr_assert_eq(ext2t_fsync(EXT2T_MNT "/b"), 0);
	cr_assert_eq(filedisk_record_writes(ext2t_env.disk, NULL), 0);
	ext2t_umount();
	/* the superblock's changes too were made under handles */
	cr_expect(!host_log_contains("WARNING"), "%s", host_log());

	n = check_every_prefix(before, writes, check);
	cr_expect_gt(n, 10, "only %u writes recorded", n);
	snprintf(ext2t_env.check_img, sizeof(ext2t_env.check_img), "%s", check);
	ext2t_expect_dump_pattern("/d/a", 51, 30000);
	ext2t_expect_dump_pattern("/b", 52, 5000);
	ext2t_expect_dump_pattern("/d/c", 53, 70000);
	cr_expect_eq(ext2t_sh("debugfs -R 'stat /f2' %s 2>&1 | grep -q 'File not found'", check), 0,
		     "the fsync'd unlink of /f2 is undone");
	ext2t_env.check_img[0] = 0;
}

/* A fresh image mounted with commit=60: nothing commits but what a test forces. */
static void mount_commit60(void)
{
	ext4t_make_image("-b 4096");
	ext2t_attach();
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext4", 0, "commit=60"), 0, "%s", host_log());
}

/* The power goes: the image as the disk has it, replayed by e2fsck, which must fix nothing
 * else; the checks that follow read it (ext2t_env.check_img) until crash_done(). */
static void power_cut(char *crash, size_t size)
{
	snprintf(crash, size, "%s/crash.img", ext2t_env.dir);
	cr_assert_eq(ext2t_sh("cp %s %s", ext2t_env.img, crash), 0);
	ext2t_umount();
	snprintf(ext2t_env.check_img, sizeof(ext2t_env.check_img), "%s", crash);
	cr_assert_leq(ext2t_sh("e2fsck -fy %s > /dev/null 2>&1", crash), 1, "e2fsck repaired");
}

static void crash_done(void)
{
	ext2t_env.check_img[0] = 0;
}

/*
 * Blocks freed by an unlink that has not committed are not reused: a crash then brings
 * the file back, and it must come back with its own data. A is fsync'd and removed, B
 * written and written back (its data on disk, no commit: commit=60), then the power goes.
 * Reused at once, A's blocks held B's bytes after the replay.
 */
Test(ext4_crash, blocks_freed_by_an_uncommitted_unlink_are_not_reused)
{
	char crash[128];
	struct file *b;

	mount_commit60();
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/a", 61, 0, 1 << 20), 0);
	cr_assert_eq(ext2t_fsync(EXT2T_MNT "/a"), 0);
	cr_assert_eq(do_unlink(EXT2T_MNT "/a"), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/b", 62, 0, 1 << 20), 0);
	b = filp_open(EXT2T_MNT "/b", O_RDONLY, 0);
	cr_assert(!IS_ERR(b));
	cr_assert_eq(filemap_write_and_wait(b->f_mapping), 0); /* data out, nothing committed */
	fput(b);
	power_cut(crash, sizeof(crash));
	ext2t_expect_dump_pattern("/a", 61, 1 << 20);
	crash_done();
}

/*
 * An append not yet written back when another file's fsync commits: after a crash the
 * file has its old size or the append whole, never a size whose tail reads zeros (the
 * size went into the commit at write time, the delayed data nowhere).
 */
Test(ext4_crash, an_append_is_absent_or_whole_after_a_crash)
{
	char crash[128];
	unsigned long long size = 0;

	mount_commit60();
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/a", 63, 0, 64 << 10), 0);
	cr_assert_eq(ext2t_fsync(EXT2T_MNT "/a"), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/a", 63, 64 << 10, 64 << 10), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/x", 64, 0, 100), 0);
	cr_assert_eq(ext2t_fsync(EXT2T_MNT "/x"), 0); /* commits a's inode too */
	power_cut(crash, sizeof(crash));
	cr_assert(ext2t_sh_number(&size,
				  "debugfs -R 'stat /a' %s 2>/dev/null | "
				  "sed -n 's/.*Size: \\([0-9]*\\).*/\\1/p'",
				  crash));
	cr_expect(size == 64 << 10 || size == 128 << 10, "a's size after the crash: %llu", size);
	ext2t_expect_dump_pattern("/a", 63, (size_t)size);
	crash_done();
}
