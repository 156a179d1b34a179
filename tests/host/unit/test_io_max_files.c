/*
 * The io controller's files on real groups and disks: io.max written, read back, cleared
 * and refused (all or nothing); io.stat per group and hierarchical, counted when a bio
 * leaves the throttler; and what happens to bios held by a group whose limit is raised or
 * which is removed (they keep its limits).
 */
#include <criterion/criterion.h>
#include <cgwb/blkdev.h>
#include <cgwb/blk-cgroup.h>
#include <cgwb/cgroup.h>
#include <cgwb/sched.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <stdlib.h>
#include "host.h"
#include "filedisk.h"
#include "../../../block/blk-cgroup.h"
#include "../../../cg/io/io.h"
#include "../../../cg/cgroup/cgroup-internal.h"

#define DISK_BYTES (8 << 20)

static struct gendisk *vda, *vdb;
static void *mem[2];
static struct page *pages;

static void setup(void)
{
	static const struct filedisk_model cached = { .write_cache = true };

	host_platform_init(64 << 20);
	mem[0] = calloc(1, DISK_BYTES);
	mem[1] = calloc(1, DISK_BYTES);
	vda = filedisk_add_mem("vda", mem[0], DISK_BYTES, false, &cached);
	vdb = filedisk_add_mem("vdb", mem[1], DISK_BYTES, false, NULL);
	cr_assert(vda && vdb);
	cr_assert_eq(cgroup_subtree_control_write(&cgroup_root, "+io"), 0);
	pages = alloc_pages(GFP_KERNEL, 8);
}

static void teardown(void)
{
	cgroup_attach_task(&cgroup_root, current);
	host_platform_exit();
	free(mem[0]);
	free(mem[1]);
}

TestSuite(io_files, .init = setup, .fini = teardown);

static struct blkcg *blkcg_of(struct cgroup *cg)
{
	return css_to_blkcg(cg->subsys[io_cgrp_id]);
}

static struct cgroup *mkgroup(struct cgroup *parent, const char *name)
{
	struct cgroup *cg;

	cr_assert_eq(cgroup_mkdir(parent, name, &cg), 0);
	return cg;
}

static int io_max_write(struct cgroup *cg, const char *line)
{
	return blkcg_io_max_store(line, strlen(line), blkcg_of(cg));
}

/* The file's content (as a read would get it), in a static buffer. */
static const char *show(int (*fn)(struct seq_buf *, void *), struct blkcg *blkcg)
{
	static char text[512];
	struct seq_buf s;

	seq_buf_init(&s);
	cr_assert_eq(fn(&s, blkcg), 0);
	cr_assert_lt(s.len, sizeof(text));
	memcpy(text, s.buf ? s.buf : "", s.len);
	text[s.len] = '\0';
	seq_buf_free(&s);
	return text;
}

static const char *io_max(struct cgroup *cg)
{
	return show(blkcg_io_max_show, blkcg_of(cg));
}

static const char *io_stat(struct blkcg *blkcg)
{
	return show(blkcg_io_stat_show, blkcg);
}

Test(io_files, io_max_reads_back_what_was_written)
{
	struct cgroup *a = mkgroup(&cgroup_root, "a");

	cr_assert_str_empty(io_max(a));
	cr_assert_eq(io_max_write(a, "254:0 wbps=1048576\n"), 0);
	cr_assert_str_eq(io_max(a), "254:0 rbps=max wbps=1048576 riops=max wiops=max\n");
	cr_assert_eq(io_max_write(a, "254:0 riops=300 rbps=5000"), 0);
	cr_assert_str_eq(io_max(a), "254:0 rbps=5000 wbps=1048576 riops=300 wiops=max\n");
	cr_assert_eq(io_max_write(a, "254:16 wiops=9"), 0);
	cr_assert_str_eq(io_max(a), "254:0 rbps=5000 wbps=1048576 riops=300 wiops=max\n"
				    "254:16 rbps=max wbps=max riops=max wiops=9\n");
}

Test(io_files, max_removes_limits_and_unlimited_devices_are_not_listed)
{
	struct cgroup *a = mkgroup(&cgroup_root, "a");

	cr_assert_eq(io_max_write(a, "254:0 wbps=1048576 riops=10"), 0);
	cr_assert_eq(io_max_write(a, "254:0 wbps=max"), 0);
	cr_assert_str_eq(io_max(a), "254:0 rbps=max wbps=max riops=10 wiops=max\n");
	cr_assert_eq(io_max_write(a, "254:0 riops=max"), 0);
	cr_assert_str_empty(io_max(a));
	/* IOs/s beyond 32 bits cannot be counted: the same as no limit (Linux) */
	cr_assert_eq(io_max_write(a, "254:0 wiops=4294967296"), 0);
	cr_assert_str_empty(io_max(a));
}

Test(io_files, refused_writes_change_nothing)
{
	static const struct {
		const char *line;
		int err;
	} bad[] = {
		{ "254:0 rbps=5 wbps=0", -ERANGE },
		{ "254:0 rbps=5 foo=1", -EINVAL },
		{ "254:0 rbps=5 wbps=abc", -EINVAL },
		{ "254:0 rbps=5 wbps", -EINVAL },
		{ "garbage", -EINVAL },
		{ "", -EINVAL },
		{ "254:1 rbps=5", -ENODEV },
		{ "9:0 rbps=5", -ENODEV },
		{ "99999:0 rbps=5", -ENODEV },
		{ "254:0 rbps=5\n254:16 rbps=5", -EINVAL },
	};
	struct cgroup *a = mkgroup(&cgroup_root, "a");
	const char *before = "254:0 rbps=100 wbps=max riops=max wiops=7\n";

	cr_assert_eq(io_max_write(a, "254:0 rbps=100 wiops=7"), 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		cr_assert_eq(io_max_write(a, bad[i].line), bad[i].err, "'%s'", bad[i].line);
		cr_assert_str_eq(io_max(a), before, "after '%s'", bad[i].line);
	}
}

/* ---------------------------------------------------------------- bios */

struct done {
	int nr;
	int order[8];
};

static void record_end(struct bio *bio)
{
	struct done *d = bio->bi_private;

	cr_assert_eq(bio->bi_status, 0);
	d->order[d->nr++ % 8] = (int)bio->bi_sector;
	bio_put(bio);
}

/*
 * Submit a bio of nr pages at sector (its id in done->order) for blkcg, as writeback does
 * for its wb's group, or (NULL) for the current task's.
 */
static void submit_for(struct blkcg *blkcg, struct gendisk *disk, enum req_op op, unsigned int nr,
		       sector_t sector, struct done *done)
{
	struct bio *bio = bio_alloc(disk->part0, (unsigned short)nr, op, GFP_KERNEL);

	for (unsigned int i = 0; i < nr; i++)
		cr_assert_eq(bio_add_page(bio, pages + i, PAGE_SIZE, 0), PAGE_SIZE);
	bio->bi_blkcg = blkcg;
	bio->bi_sector = sector;
	bio->bi_private = done;
	bio->bi_end_io = record_end;
	submit_bio(bio);
}

static void submit(struct gendisk *disk, enum req_op op, unsigned int nr, sector_t sector,
		   struct done *done)
{
	submit_for(NULL, disk, op, nr, sector, done);
}

Test(io_files, io_stat_counts_per_group_and_up_the_tree)
{
	struct cgroup *p = mkgroup(&cgroup_root, "p"), *c;
	struct blkcg *pb = blkcg_of(p);
	struct done d = { 0 };

	cr_assert_eq(cgroup_subtree_control_write(p, "+io"), 0);
	c = mkgroup(p, "c");
	cgroup_attach_task(c, current);
	for (int i = 0; i < 3; i++)
		submit(vda, REQ_OP_WRITE, 2, (sector_t)i * 16, &d);
	submit(vda, REQ_OP_READ, 1, 64, &d);
	submit(vdb, REQ_OP_WRITE, 1, 0, &d);
	cr_assert_eq(blkdev_issue_flush(vda->part0), 0, "flushes are not counted");
	host_run_until_idle();
	cr_assert_eq(d.nr, 5);
	const char *want = "254:0 rbytes=4096 wbytes=24576 rios=1 wios=3 dbytes=0 dios=0\n"
			   "254:16 rbytes=0 wbytes=4096 rios=0 wios=1 dbytes=0 dios=0\n";
	cr_assert_str_eq(io_stat(blkcg_of(c)), want);
	cr_assert_str_eq(io_stat(pb), want, "the parent includes its child");
	cr_assert_str_eq(io_stat(blkcg_root), want, "so does the root");
	/* a removed child's IO stays in its parent's figures */
	cgroup_attach_task(&cgroup_root, current);
	cr_assert_eq(cgroup_rmdir(c), 0);
	host_run_until_idle();
	cr_assert_str_eq(io_stat(pb), want);
}

Test(io_files, a_held_bio_counts_when_it_is_released)
{
	struct cgroup *a = mkgroup(&cgroup_root, "a");
	struct done d = { 0 };

	cr_assert_eq(io_max_write(a, "254:0 wbps=65536"), 0);
	cgroup_attach_task(a, current);
	for (int i = 0; i < 3; i++)
		submit(vda, REQ_OP_WRITE, 16, (sector_t)i * 128, &d);
	host_run_until_idle();
	cr_assert_eq(d.nr, 0, "the first slice allows 6553 bytes only");
	cr_assert_str_empty(io_stat(blkcg_of(a)));
	host_run_for(4 * NSEC_PER_SEC);
	cr_assert_eq(d.nr, 3);
	cr_assert_str_eq(io_stat(blkcg_of(a)), "254:0 rbytes=0 wbytes=196608 rios=0 wios=3 "
					       "dbytes=0 dios=0\n");
}

Test(io_files, bios_leave_a_group_in_order)
{
	struct cgroup *a = mkgroup(&cgroup_root, "a");
	struct done d = { 0 };

	cr_assert_eq(io_max_write(a, "254:0 wbps=1048576"), 0);
	cgroup_attach_task(a, current);
	submit(vda, REQ_OP_WRITE, 128, 1000, &d);
	submit(vda, REQ_OP_WRITE, 1, 2000, &d);
	submit(vda, REQ_OP_WRITE, 1, 3000, &d);
	host_run_for(2 * NSEC_PER_SEC);
	cr_assert_eq(d.nr, 3);
	cr_assert_eq(d.order[0], 1000);
	cr_assert_eq(d.order[1], 2000, "a small bio does not overtake a big one");
	cr_assert_eq(d.order[2], 3000);
}

Test(io_files, a_child_without_limits_obeys_its_parent)
{
	struct cgroup *p = mkgroup(&cgroup_root, "p"), *c;
	struct done d = { 0 };

	cr_assert_eq(io_max_write(p, "254:0 wbps=65536"), 0);
	cr_assert_eq(cgroup_subtree_control_write(p, "+io"), 0);
	c = mkgroup(p, "c");
	cgroup_attach_task(c, current);
	submit(vda, REQ_OP_WRITE, 1, 0, &d);
	submit(vda, REQ_OP_WRITE, 16, 8, &d);
	host_run_until_idle();
	cr_assert_eq(d.nr, 1, "4 KiB fit the first slice; 64 KiB more wait for p");
	host_run_for(2 * NSEC_PER_SEC);
	cr_assert_eq(d.nr, 2);
}

Test(io_files, raising_a_limit_releases_waiting_bios)
{
	struct cgroup *a = mkgroup(&cgroup_root, "a");
	struct done d = { 0 };

	cr_assert_eq(io_max_write(a, "254:0 wbps=4096"), 0);
	cgroup_attach_task(a, current);
	submit(vda, REQ_OP_WRITE, 256, 0, &d);
	host_run_for(NSEC_PER_SEC);
	cr_assert_eq(d.nr, 0, "1 MiB at 4 KiB/s takes minutes");
	cr_assert_eq(io_max_write(a, "254:0 wbps=max"), 0);
	host_run_for(10 * NSEC_PER_MSEC);
	cr_assert_eq(d.nr, 1);
}

static unsigned int nr_groups(struct gendisk *disk)
{
	return (unsigned int)list_count_nodes(&blk_throtl_td_lookup(disk)->blkgs);
}

/*
 * rmdir keeps the group's limits on what it holds (Linux: a dying blkcg's groups live on
 * while bios reference them); the group itself goes with the last of its bios.
 */
Test(io_files, a_removed_group_drains_its_bios_at_its_limit_then_goes)
{
	struct cgroup *a = mkgroup(&cgroup_root, "a");
	struct done d = { 0 };

	cr_assert_eq(io_max_write(a, "254:0 wbps=65536"), 0);
	cr_assert_eq(nr_groups(vda), 2, "root and a");
	cgroup_attach_task(a, current);
	for (int i = 0; i < 4; i++)
		submit(vda, REQ_OP_WRITE, 16, (sector_t)i * 128, &d);
	cgroup_attach_task(&cgroup_root, current);
	cr_assert_eq(cgroup_rmdir(a), 0);
	/* 256 KiB at 64 KiB/s: one bio a second, the first after a slice's allowance */
	host_run_for(NSEC_PER_SEC + 50 * NSEC_PER_MSEC);
	cr_assert_eq(d.nr, 1, "%d bios of 64 KiB left a removed 64 KiB/s group in 1 s", d.nr);
	host_run_for(2 * NSEC_PER_SEC);
	cr_assert_eq(d.nr, 3);
	cr_assert_eq(nr_groups(vda), 2, "a's group went while it held a bio");
	host_run_for(NSEC_PER_SEC);
	cr_assert_eq(d.nr, 4);
	host_run_until_idle();
	cr_assert_eq(nr_groups(vda), 1, "a's group went with the last reference");
}

/*
 * A pin (a writeback context writing for the group) keeps a removed group's limits on new
 * bios too; after the last pin they pass the retired group by for the parent's, while what
 * it holds still leaves at its pace.
 */
Test(io_files, a_pinned_removed_group_limits_new_bios_until_unpinned)
{
	struct cgroup *p = mkgroup(&cgroup_root, "p"), *a;
	struct done d = { 0 };

	cr_assert_eq(cgroup_subtree_control_write(p, "+io"), 0);
	a = mkgroup(p, "a");
	struct blkcg *ab = blkcg_of(a);
	cr_assert_eq(io_max_write(a, "254:0 wbps=65536"), 0);
	css_get(&ab->css);
	blkcg_pin_online(ab);
	cr_assert_eq(cgroup_rmdir(a), 0);
	host_run_until_idle();
	submit_for(ab, vda, REQ_OP_WRITE, 16, 0, &d);
	submit_for(ab, vda, REQ_OP_WRITE, 16, 128, &d);
	host_run_for(10 * NSEC_PER_MSEC);
	cr_assert_eq(d.nr, 0, "a removed, pinned group let 128 KiB through at once");

	blkcg_unpin_online(ab);
	/* retired: p's group (unlimited) takes new bios, which do not queue behind a's */
	submit_for(ab, vda, REQ_OP_WRITE, 16, 256, &d);
	host_run_for(10 * NSEC_PER_MSEC);
	cr_assert_eq(d.nr, 1);
	cr_assert_eq(d.order[0], 256);
	cr_assert_str_eq(io_stat(blkcg_of(p)), "254:0 rbytes=0 wbytes=65536 rios=0 wios=1 dbytes=0 "
					       "dios=0\n");
	host_run_for(NSEC_PER_SEC);
	cr_assert_eq(d.nr, 2, "the retired group's first held bio left at 64 KiB/s");
	host_run_for(NSEC_PER_SEC);
	cr_assert_eq(d.nr, 3);
	cr_assert_str_eq(io_stat(blkcg_of(p)), "254:0 rbytes=0 wbytes=196608 rios=0 wios=3 "
					       "dbytes=0 dios=0\n");
	css_put(&ab->css);
}
