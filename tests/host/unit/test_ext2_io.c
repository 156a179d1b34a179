/*
 * The IO ext2 generates: sequential writes land contiguously on disk (indirect blocks
 * included) and go out as large bios; reads come back in readahead-sized requests; a full
 * disk fails write() with -ENOSPC and leaves a clean filesystem; fsync makes a file durable
 * while still mounted; device errors are reported, not fatal.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cgwb/fs.h>
#include <cgwb/file.h>
#include <cgwb/errno.h>
#include <cgwb/sched.h>
#include <cgwb/completion.h>
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

TestSuite(ext2_io, .init = setup, .fini = teardown);

/* Every block debugfs lists for path (data and indirect): count, lowest and highest. */
static void file_block_span(const char *path, u64 *count, u64 *lo, u64 *hi)
{
	char cmd[256];
	unsigned long long b;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "debugfs -R 'blocks %s' %s 2>/dev/null", path, ext2t_env.img);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	*count = 0;
	*lo = ~0ULL;
	*hi = 0;
	while (fscanf(p, "%llu", &b) == 1) {
		(*count)++;
		*lo = min(*lo, (u64)b);
		*hi = max(*hi, (u64)b);
	}
	pclose(p);
}

Test(ext2_io, sequential_write_is_contiguous_and_large)
{
	const u64 size = 16 << 20;
	struct filedisk_stats st;
	u64 count, lo, hi;

	ext2t_mkfs("-b 4096", 64 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	filedisk_reset_stats(ext2t_env.disk);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/big", 3, 0, size), 0);
	ksys_sync();
	filedisk_get_stats(ext2t_env.disk, &st);
	cr_log_info("writes %lu, %llu bytes, largest %u", st.writes, st.bytes_written,
		    st.max_request_bytes);
	cr_expect_geq(st.bytes_written, size);
	cr_expect_geq(st.max_request_bytes, 1 << 20, "largest write request %u bytes",
		      st.max_request_bytes);
	cr_expect_leq(st.writes, size / (512 << 10) + 40, "%lu write requests for 16 MiB", st.writes);
	ext2t_umount();
	ext2t_fsck_clean();
	file_block_span("/big", &count, &lo, &hi);
	cr_expect_eq(count, size / 4096 + 1 + 1 + 3, "data, IND, DIND and its 3 INDs: %llu",
		     (unsigned long long)count);
	cr_expect_eq(hi - lo + 1, count, "the file is not contiguous: %llu blocks over [%llu, %llu]",
		     (unsigned long long)count, (unsigned long long)lo, (unsigned long long)hi);

	/* cold cache: sequential reads come in readahead-sized requests */
	cr_assert_eq(ext2t_mount(), 0);
	filedisk_reset_stats(ext2t_env.disk);
	cr_assert_eq(ext2t_check_pattern(EXT2T_MNT "/big", 3, size), 0);
	filedisk_get_stats(ext2t_env.disk, &st);
	cr_log_info("reads %lu, %llu bytes, largest %u", st.reads, st.bytes_read,
		    st.max_request_bytes);
	cr_expect_geq(st.max_request_bytes, 128 << 10);
	cr_expect_leq(st.reads, size / (64 << 10) + 40, "%lu read requests for 16 MiB", st.reads);
	ext2t_umount();
}

Test(ext2_io, interleaved_writers_stay_contiguous_per_file)
{
	u64 count, lo, hi;
	char path[32];

	ext2t_mkfs("-b 1024", 32 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	/* two files growing in turns of 64 KiB: each one's blocks must still come in runs */
	for (int round = 0; round < 16; round++) {
		for (int f = 0; f < 2; f++) {
			snprintf(path, sizeof(path), EXT2T_MNT "/f%d", f);
			cr_assert_eq(ext2t_write_pattern(path, (u32)f, (loff_t)round << 16, 1 << 16),
				     0);
		}
	}
	ext2t_umount();
	ext2t_fsck_clean();
	file_block_span("/f0", &count, &lo, &hi);
	cr_expect_lt(hi - lo + 1, count * 3, "f0 is scattered over [%llu, %llu]",
		     (unsigned long long)lo, (unsigned long long)hi);
}

Test(ext2_io, enospc)
{
	u64 blocks0, inodes0, bfree, ffree;
	int err;

	ext2t_mkfs("-b 1024", 2 << 10);
	ext2t_disk_free(&blocks0, &inodes0);
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/keep", 1, 0, 100000), 0);
	err = ext2t_write_pattern(EXT2T_MNT "/fill", 2, 0, 4 << 20);
	cr_assert_eq(err, -ENOSPC, "filling the disk gave %d", err);
	loff_t size = ext2t_size(EXT2T_MNT "/fill");
	cr_assert_gt(size, 1 << 20);
	static char more[10000];
	cr_assert_eq(ext2t_write(EXT2T_MNT "/other", 0, 0, more, sizeof(more)), -ENOSPC);
	cr_assert_eq(ext2t_size(EXT2T_MNT "/other"), 0);
	cr_assert_eq(do_unlink(EXT2T_MNT "/other"), 0);
	ksys_sync();
	ext2t_statfs(&bfree, &ffree);
	cr_expect_lt(bfree, 4, "%llu blocks left free: only what a mapping block plus data needs",
		     (unsigned long long)bfree);
	ext2t_umount();
	ext2t_fsck_clean();
	cr_assert_eq(ext2t_mount(), 0);
	cr_assert_eq(ext2t_check_pattern(EXT2T_MNT "/fill", 2, (u64)size), 0);
	cr_assert_eq(ext2t_check_pattern(EXT2T_MNT "/keep", 1, 100000), 0);
	cr_assert_eq(do_unlink(EXT2T_MNT "/fill"), 0);
	cr_assert_eq(do_unlink(EXT2T_MNT "/keep"), 0);
	ext2t_statfs(&bfree, &ffree);
	cr_expect_eq(bfree, blocks0);
	cr_expect_eq(ffree, inodes0);
	ext2t_umount();
	ext2t_fsck_clean();
}

/* After fsync the file is on disk even though the filesystem is still mounted. */
Test(ext2_io, fsync_is_durable)
{
	struct file *f;
	u8 *buf = malloc(300000);

	ext2t_mkfs("-b 1024", 8 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(do_mkdir(EXT2T_MNT "/d", 0755), 0);
	ext2t_fill(buf, 300000, 4, 0);
	f = filp_open(EXT2T_MNT "/d/synced", O_WRONLY | O_CREAT, 0644);
	cr_assert(!IS_ERR(f));
	cr_assert_eq(file_write_all(f, buf, 300000), 300000);
	cr_assert_eq(vfs_fsync(f, 0), 0);
	fput(f);
	/* the new directory's entry, and its parent's link count, like fsync(1) of both */
	const char *dirs[] = { EXT2T_MNT "/d", EXT2T_MNT };
	for (int i = 0; i < 2; i++) {
		f = filp_open(dirs[i], O_RDONLY | O_DIRECTORY, 0);
		cr_assert(!IS_ERR(f));
		cr_assert_eq(vfs_fsync(f, 0), 0);
		fput(f);
	}
	/* the power goes: what is on the disk now is all there is */
	snprintf(ext2t_env.check_img, sizeof(ext2t_env.check_img), "%s/snap.img", ext2t_env.dir);
	cr_assert_eq(ext2t_sh("cp %s %s", ext2t_env.img, ext2t_env.check_img), 0);
	ext2t_expect_dump("/d/synced", buf, 300000);
	ext2t_fsck_clean();
	ext2t_env.check_img[0] = 0;
	ext2t_umount();
	free(buf);
}

Test(ext2_io, write_errors_are_reported)
{
	struct file *f;
	u8 buf[8192];

	ext2t_mkfs("-b 4096", 8 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	ext2t_fill(buf, sizeof(buf), 5, 0);
	f = filp_open(EXT2T_MNT "/f", O_WRONLY | O_CREAT, 0644);
	cr_assert(!IS_ERR(f));
	cr_assert_eq(file_write_all(f, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	filedisk_set_failing(ext2t_env.disk, true);
	cr_assert_eq(vfs_fsync(f, 0), -EIO);
	fput(f);
	cr_expect(host_log_contains("EXT2-fs: I/O error -5 writing sectors"), "%s", host_log());
	filedisk_set_failing(ext2t_env.disk, false);
	/* the file's report does not count for the filesystem's: umount reports it, once */
	cr_expect_eq(do_umount(EXT2T_MNT, 0), -EIO);
	cr_assert_eq(ext2t_mount(), 0);
	ext2t_umount();
}

/* The disk model of filedisk (for simulations): writing back takes its bandwidth's time. */
Test(ext2_io, modelled_disk_takes_virtual_time)
{
	const struct filedisk_model model = { .bandwidth_bps = 100 << 20, .latency_ns = 100000 };
	const u64 size = 16 << 20;

	ext2t_mkfs("-b 4096", 64 << 10);
	ext2t_env.disk = filedisk_add("vda", ext2t_env.img, false, &model);
	cr_assert_not_null(ext2t_env.disk);
	cr_assert_eq(ext2t_mount(), 0);
	u64 start = host_now_ns(); /* writeback may start while the data is being written */
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/big", 3, 0, size), 0);
	ksys_sync();
	u64 took = host_now_ns() - start;
	cr_log_info("write and sync of 16 MiB at 100 MiB/s took %llu ms of virtual time",
		    took / 1000000);
	cr_expect_geq(took, size * 1000000000ULL / model.bandwidth_bps, "faster than the disk");
	cr_expect_lt(took, 2 * size * 1000000000ULL / model.bandwidth_bps + 50000000ULL,
		     "much slower than the disk: %llu ns", took);
	ext2t_umount();
	ext2t_fsck_clean();
}

/* The extents debugfs lists for path: how many runs its data and pointer blocks make. */
static unsigned int file_runs(const char *path)
{
	char cmd[256];
	unsigned long long b, prev = 0;
	unsigned int runs = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "debugfs -R 'blocks %s' %s 2>/dev/null", path, ext2t_env.img);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	while (fscanf(p, "%llu", &b) == 1) {
		if (!runs || b != prev + 1)
			runs++;
		prev = b;
	}
	pclose(p);
	return runs;
}

/*
 * Reservation windows: four files kept open and written a page at a time in turns (what
 * a fair scheduler does to four writers) still land in long runs. Without windows every
 * file would be in 4-block pieces: 1024 runs for 4 MiB.
 */
Test(ext2_io, files_written_in_turns_get_reservation_windows)
{
	static char page[4096];
	struct file *f[4];
	char path[32];

	ext2t_mkfs("-b 4096", 64 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), EXT2T_MNT "/f%d", i);
		f[i] = filp_open(path, O_WRONLY | O_CREAT, 0644);
		cr_assert(!IS_ERR(f[i]));
	}
	for (int n = 0; n < 1024; n++) {
		for (int i = 0; i < 4; i++) {
			ext2t_fill(page, sizeof(page), (u32)i, (u64)n << 12);
			cr_assert_eq(file_write_all(f[i], page, sizeof(page)), (ssize_t)sizeof(page));
		}
	}
	for (int i = 0; i < 4; i++)
		fput(f[i]);
	ext2t_umount();
	ext2t_fsck_clean();
	for (int i = 0; i < 4; i++) {
		unsigned int runs;

		snprintf(path, sizeof(path), "/f%d", i);
		runs = file_runs(path);
		/* windows of 8, 16, ... 1024 blocks, the pointer blocks among them */
		cr_expect_leq(runs, 16, "%s is in %u runs", path, runs);
		cr_assert_eq(ext2t_mount(), 0);
		snprintf(path, sizeof(path), EXT2T_MNT "/f%d", i);
		cr_expect_eq(ext2t_check_pattern(path, (u32)i, 4 << 20), 0);
		ext2t_umount();
	}
}

/*
 * Blocks in another file's window are taken when nothing else is left: a file held open
 * with its window does not make the disk full early.
 */
Test(ext2_io, reserved_blocks_never_cause_enospc)
{
	static char block[1000];
	struct file *held;
	u64 bfree, ffree;
	int err;

	ext2t_mkfs("-b 1024", 2 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	held = filp_open(EXT2T_MNT "/held", O_WRONLY | O_CREAT, 0644);
	cr_assert(!IS_ERR(held));
	cr_assert_eq(file_write_all(held, block, sizeof(block)), (ssize_t)sizeof(block));
	err = ext2t_write_pattern(EXT2T_MNT "/fill", 99, 0, 4 << 20);
	cr_assert_eq(err, -ENOSPC, "filling the disk gave %d", err);
	ksys_sync();
	ext2t_statfs(&bfree, &ffree);
	cr_expect_lt(bfree, 4, "%llu blocks left free beside a held window",
		     (unsigned long long)bfree);
	fput(held);
	ext2t_umount();
	ext2t_fsck_clean();
}

struct fsync_writer {
	int i;
	int err;
	struct completion *go;
};

static int fsync_writer(void *arg)
{
	struct fsync_writer *w = arg;
	char path[32];
	struct file *f;

	snprintf(path, sizeof(path), EXT2T_MNT "/s%d", w->i);
	f = filp_open(path, O_WRONLY | O_CREAT, 0644);
	if (IS_ERR(f)) {
		w->err = (int)PTR_ERR(f);
		return 0;
	}
	w->err = ext2t_write_pattern(path, (u32)w->i, 0, 64 << 10);
	wait_for_completion(w->go);
	if (!w->err)
		w->err = vfs_fsync(f, 0);
	fput(f);
	return 0;
}

/*
 * Sixteen fsyncs at once on a disk with a cache: they share commits of the device's
 * metadata, so the disk sees far fewer than sixteen cache flushes, and every file is
 * durable all the same (the image e2fsck reads is copied while still mounted).
 */
Test(ext2_io, concurrent_fsyncs_share_commits)
{
	const struct filedisk_model model = { .bandwidth_bps = 100 << 20,
					      .latency_ns = 200000,
					      .write_cache = true };
	struct fsync_writer w[16];
	struct task_struct *t[16];
	struct filedisk_stats st;
	struct completion go;
	static u8 data[64 << 10];

	init_completion(&go);
	ext2t_mkfs("-b 4096", 64 << 10);
	ext2t_env.disk = filedisk_add("vda", ext2t_env.img, false, &model);
	cr_assert_not_null(ext2t_env.disk);
	cr_assert_eq(ext2t_mount(), 0);
	for (int i = 0; i < 16; i++) {
		w[i] = (struct fsync_writer){ .i = i, .go = &go };
		t[i] = kthread_run(fsync_writer, &w[i], "fsync%d", i);
		cr_assert_not_null(t[i]);
	}
	host_run_until_idle();
	filedisk_reset_stats(ext2t_env.disk);
	complete_all(&go);
	for (int i = 0; i < 16; i++) {
		kthread_join(t[i]);
		cr_assert_eq(w[i].err, 0, "writer %d: %d", i, w[i].err);
	}
	filedisk_get_stats(ext2t_env.disk, &st);
	cr_log_info("16 concurrent fsyncs: %lu cache flushes, %lu writes", st.flushes, st.writes);
	cr_expect_leq(st.flushes, 4, "%lu cache flushes for 16 fsyncs", st.flushes);
	cr_expect_geq(st.flushes, 1);
	/* the power goes: what is on the disk now is all there is */
	snprintf(ext2t_env.check_img, sizeof(ext2t_env.check_img), "%s/snap.img", ext2t_env.dir);
	cr_assert_eq(ext2t_sh("cp %s %s", ext2t_env.img, ext2t_env.check_img), 0);
	for (int i = 0; i < 16; i += 5) {
		char path[16];

		snprintf(path, sizeof(path), "/s%d", i);
		ext2t_fill(data, sizeof(data), (u32)i, 0);
		ext2t_expect_dump(path, data, sizeof(data));
	}
	ext2t_fsck_clean();
	ext2t_env.check_img[0] = 0;
	ext2t_umount();
}
