/*
 * `make bench`: what dirty throttling costs per dirtied page as the number of wbs grows,
 * and what a wb costs in memory (Linux 6.1, earlier runs). The kernel's own portable code on the host
 * platform, built without sanitizers; figures, not pass/fail.
 *
 *   bench-throttle cost N       N groups each with a wb holding a dirty page, then one
 *                               group's task runs balance_dirty_pages_ratelimited() once per
 *                               page it "dirties": prints N and the ns per page below the
 *                               freerun ceiling, above it (balance_dirty_pages() at work),
 *                               and per page written back (__wb_writeout_add: the fprop
 *                               shares of both domains)
 *   bench-throttle footprint N  free memory before and after N groups each dirty one page
 *                               of a file the root already wrote: prints N, the cgwbs,
 *                               the KiB per wb, sizeof(struct bdi_writeback), and the KiB
 *                               per group in all (cgroup, its css, its file and its wb)
 *
 * One platform per process (host_platform_init() runs once), so each figure is one run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cgwb/fs.h>
#include <cgwb/ext2.h>
#include <cgwb/cgroup.h>
#include <cgwb/memcontrol.h>
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/vmstat.h>
#include <cgwb/mm.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include "host.h"
#include "filedisk.h"
#include "sim.h"

#define PAGES_TIMED 200000

static char dir[64];

static void die(const char *what, long err)
{
	fprintf(stderr, "bench-throttle: %s failed (%ld)\n", what, err);
	exit(1);
}

/* A 1 GiB ext2 image on /mnt over a disk that completes at once; memory and io enabled. */
static void boot(void)
{
	long err;

	host_platform_init(512UL << 20);
	storage_init();
	vfs_init();
	if ((err = cgroup_fs_init()) || (err = ext2_init()))
		die("init", err);
	if ((err = sim_scratch_ext2(dir, sizeof(dir), 1024, NULL, NULL)))
		die("scratch ext2", err);
	if ((err = sim_echo("/sys/fs/cgroup/cgroup.subtree_control", "+memory +io")))
		die("subtree_control", err);
	/* nothing written back while we measure: no periodic or background flushing */
	dirty_writeback_interval = 0;
	dirty_background_bytes = 400UL << 20;
	vm_dirty_bytes = 450UL << 20;
}

static void shutdown(void)
{
	sim_scratch_remove(dir);
	host_platform_exit();
}

struct job {
	int (*fn)(struct job *);
	char path[32];
	long pages;
	double ns_per_page;
	u64 slept_ns; /* virtual time the pauses took */
};

static int job_main(void *arg)
{
	struct job *j = arg;

	return j->fn(j);
}

/* Run j as a task of cgroup g<i> (i < 0: the root), to its end. */
static int run_in(int i, struct job *j)
{
	struct task_struct *t = kthread_create(job_main, j, "bench");
	char name[16];

	if (!t)
		die("kthread_create", -1);
	if (i >= 0) {
		struct cgroup *cg;

		snprintf(name, sizeof(name), "g%d", i);
		cg = cgroup_lookup(name);
		if (!cg)
			die("cgroup_lookup", -1);
		cgroup_attach_task(cg, t);
		cgroup_put(cg);
	}
	wake_up_process(t);
	return kthread_join(t);
}

static int write_page(struct job *j)
{
	static char page[PAGE_SIZE];
	struct file *f = filp_open(j->path, O_WRONLY | O_CREAT, 0644);
	ssize_t n;

	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	f->f_pos = 0;
	n = file_write(f, page, sizeof(page));
	fput(f);
	return n == (ssize_t)sizeof(page) ? 0 : -EIO;
}

static struct backing_dev_info *bench_bdi_of(const char *path)
{
	struct path p;
	struct backing_dev_info *bdi;

	if (kern_path(path, LOOKUP_FOLLOW, &p))
		die("kern_path", -1);
	bdi = inode_to_bdi(p.dentry->d_inode);
	path_put(&p);
	return bdi;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int write_pages(struct job *j)
{
	static char buf[64 * PAGE_SIZE];
	struct file *f = filp_open(j->path, O_WRONLY, 0);
	ssize_t n;

	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	n = file_write(f, buf, sizeof(buf));
	fput(f);
	return n == (ssize_t)sizeof(buf) ? 0 : -EIO;
}

/* The throttle path as a writer takes it after each page it dirtied. */
static int dirty_pages(struct job *j)
{
	struct file *f = filp_open(j->path, O_WRONLY, 0);
	double t0;

	u64 v0 = host_now_ns();

	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	t0 = now_ns();
	for (long i = 0; i < j->pages; i++) {
		current->nr_dirtied++;
		balance_dirty_pages_ratelimited(f->f_mapping);
	}
	j->ns_per_page = (now_ns() - t0) / (double)j->pages;
	j->slept_ns = host_now_ns() - v0;
	fput(f);
	return 0;
}

/* The completion side: a page of the wb written back (fprop shares in both domains). */
static int complete_pages(struct job *j)
{
	struct bdi_writeback *wb =
		wb_get_create(bench_bdi_of(j->path), mem_cgroup_from_task(current), GFP_KERNEL);
	double t0 = now_ns();

	for (long i = 0; i < j->pages; i++)
		__wb_writeout_add(wb, 1);
	j->ns_per_page = (now_ns() - t0) / (double)j->pages;
	wb_put(wb);
	return 0;
}

/* n groups g0.., each with a file /mnt/f<i> and, if dirty, a wb holding one dirty page. */
static void make_groups(int n, bool dirty)
{
	for (int i = 0; i < n; i++) {
		struct job j = { .fn = write_page };
		char path[48];
		long err;

		snprintf(path, sizeof(path), "/sys/fs/cgroup/g%d", i);
		if ((err = do_mkdir(path, 0755)))
			die("mkdir", err);
		snprintf(j.path, sizeof(j.path), "/mnt/f%d", i);
		if ((err = run_in(dirty ? i : -1, &j)))
			die("write", err);
	}
}

static void cost(int n)
{
	struct job j = { .fn = dirty_pages, .path = "/mnt/f0", .pages = PAGES_TIMED };
	double below, above, done;

	make_groups(n, true);
	run_in(0, &j);
	below = j.ns_per_page;
	/*
	 * Over the freerun ceiling (5/8 of thresh here), below the limit: balance_dirty_pages()
	 * computes pos_ratio and pauses. g0 first holds 64 dirty pages of its own.
	 */
	j.fn = write_pages;
	run_in(0, &j);
	vm_dirty_bytes = global_node_page_state_snapshot(NR_FILE_DIRTY) * 5 / 4 * PAGE_SIZE;
	dirty_background_bytes = vm_dirty_bytes / 4;
	j.fn = dirty_pages;
	run_in(0, &j);
	above = j.ns_per_page;
	if (!j.slept_ns)
		die("balance_dirty_pages never paused: not the throttled path", 0);
	j.fn = complete_pages;
	run_in(0, &j);
	done = j.ns_per_page;
	printf("%d %.1f %.1f %.1f\n", n, below, above, done);
}

/* Each group rewrites one page of a file the root wrote: the difference is its wb. */
static void footprint(int n)
{
	unsigned long start, before, after;

	host_run_until_idle();
	start = nr_free_pages();
	make_groups(n, false);
	host_run_until_idle();
	before = nr_free_pages();
	for (int i = 0; i < n; i++) {
		struct job j = { .fn = write_page };

		snprintf(j.path, sizeof(j.path), "/mnt/f%d", i);
		if (run_in(i, &j))
			die("rewrite", -1);
	}
	host_run_until_idle();
	after = nr_free_pages();
	printf("%d %lu %.2f %zu %.2f\n", n, nr_cgwbs(),
	       (double)(before - after) * PAGE_SIZE / 1024 / n, sizeof(struct bdi_writeback),
	       (double)(start - after) * PAGE_SIZE / 1024 / n);
}

int main(int argc, char **argv)
{
	int n = argc == 3 ? atoi(argv[2]) : 0;

	if (n <= 0 || (strcmp(argv[1], "cost") && strcmp(argv[1], "footprint"))) {
		fprintf(stderr, "usage: bench-throttle cost|footprint N\n");
		return 2;
	}
	boot();
	if (!strcmp(argv[1], "cost"))
		cost(n);
	else
		footprint(n);
	shutdown();
	return 0;
}
