/*
 * The writeback simulator's harness (see sim.h). Not a test file: the scenarios are in
 * test_sim_*.c next to it.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cgwb/fs.h>
#include <cgwb/ext2.h>
#include <cgwb/ext4.h>
#include <cgwb/cgroup.h>
#include <cgwb/memcontrol.h>
#include <cgwb/blkdev.h>
#include <cgwb/writeback.h>
#include <cgwb/vmscan.h>
#include <cgwb/vmstat.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include <cgwb/trace.h>
#include <cgwb/bug.h>
#include "host.h"
#include "filedisk.h"
#include "sim.h"

#define MAX_WRITERS 16

struct sim_writer {
	char path[64];
	size_t chunk;
	u64 span, total, cpu_ns_per_page;
	u64 bytes;
	struct task_struct *task;
	bool fsync; /* fsync after the last write, like dd conv=fsync */
	u64 start_ns, done_ns;
	bool done;
};

static struct {
	char dir[64];
	struct gendisk *disk;
	struct sim_writer writers[MAX_WRITERS];
	unsigned int nr_writers;
	bool stop;
	FILE *trace; /* the trace stream's file, or NULL */
} sim;

/* The stream's ring: 3 MiB (the host's vmalloc gives at most 4); the drain runs each slice. */
#define SIM_TRACE_ENTRIES (16 * 1024)

void sim_boot(const struct sim_config *cfg)
{
	struct filedisk_model model = {
		.bandwidth_bps = cfg->disk_bps,
		.latency_ns = cfg->disk_latency_ns,
	};
	const char *mkfs = cfg->mkfs ?: "ext2", *fstype = cfg->fstype ?: mkfs;

	host_platform_init(cfg->mem_mib << 20);
	/* long scenarios: minutes of virtual time with periodic flushers armed */
	host_set_time_limit(3600ULL * NSEC_PER_SEC);
	storage_init();
	vfs_init();
	cr_assert_eq(cgroup_fs_init(), 0);
	cr_assert_eq(ext2_init(), 0);
	cr_assert_eq(ext4_init(), 0);

	cr_assert_eq(sim_scratch_fs(sim.dir, sizeof(sim.dir), cfg->disk_mib, mkfs, fstype,
				    cfg->mount_opts, &model, &sim.disk),
		     0, "no scratch %s as %s (mke2fs, attach or mount)", mkfs, fstype);
	cr_assert_eq(sim_echo("/sys/fs/cgroup/cgroup.subtree_control", "+memory +io"), 0);
	if (getenv("CGWB_SIM_TRACE"))
		sim_trace_to(getenv("CGWB_SIM_TRACE"),
			     getenv("CGWB_SIM_TRACE_EVENTS") ?: "writeback:*");
}

static void sim_trace_write(const char *buf, size_t len, void *data)
{
	cr_assert_eq(fwrite(buf, 1, len, data), len, "trace file: %m");
}

static struct trace_sink sim_trace_sink = { .name = "the host file", .write = sim_trace_write };

void sim_trace_to(const char *path, const char *list)
{
	cr_assert_null(sim.trace, "one trace stream per run");
	sim.trace = fopen(path, "w");
	cr_assert_not_null(sim.trace, "%s: %m", path);
	sim_trace_sink.data = sim.trace;
	cr_assert_eq(trace_stream_start(&sim_trace_sink, SIM_TRACE_ENTRIES), 0);
	cr_assert_eq(trace_set_events(list), 0, "trace events %s", list);
}

static void sim_trace_end(void)
{
	if (!sim.trace)
		return;
	cr_assert_geq(trace_stream_stop(), 0);
	cr_assert_eq(fclose(sim.trace), 0, "trace file: %m");
	sim.trace = NULL;
}

void sim_shutdown(void)
{
	sim_writers_stop();
	sim_trace_end();
	sim_scratch_remove(sim.dir);
	host_platform_exit();
}

struct backing_dev_info *sim_bdi(void)
{
	return sim.disk->bdi;
}

struct bdi_writeback *sim_file_wb(const char *path)
{
	struct path p;
	struct bdi_writeback *wb;

	cr_assert_eq(kern_path(path, LOOKUP_FOLLOW, &p), 0, "%s", path);
	wb = inode_to_wb(p.dentry->d_inode);
	path_put(&p);
	return wb;
}

struct inode *sim_inode(const char *path)
{
	struct path p;
	struct inode *inode;

	BUG_ON(kern_path(path, LOOKUP_FOLLOW, &p));
	inode = igrab(p.dentry->d_inode);
	path_put(&p);
	BUG_ON(!inode);
	return inode;
}

void sim_mkcg(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/fs/cgroup/%s", name);
	cr_assert_eq(do_mkdir(path, 0755), 0, "mkdir %s", path);
}

int sim_parse_key(char *text, const char *key, u64 *val)
{
	size_t klen = strlen(key);
	char *tok, *save = NULL;

	for (tok = strtok_r(text, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		if (!strncmp(tok, key, klen) && tok[klen] == '=') {
			*val = strtoull(tok + klen + 1, NULL, 10);
			return 0;
		}
		if (!strcmp(tok, key)) {
			tok = strtok_r(NULL, " \n", &save);
			if (!tok)
				return -ENOENT;
			*val = strtoull(tok, NULL, 10);
			return 0;
		}
	}
	return -ENOENT;
}

u64 sim_cg_value(const char *cg, const char *file, const char *key)
{
	char path[128], buf[4096];
	struct file *f;
	ssize_t n;
	u64 val;

	snprintf(path, sizeof(path), "/sys/fs/cgroup/%s/%s", cg, file);
	f = filp_open(path, O_RDONLY, 0);
	cr_assert(!IS_ERR(f), "open %s", path);
	n = file_read(f, buf, sizeof(buf) - 1);
	fput(f);
	cr_assert_geq(n, 0);
	buf[n] = '\0';
	if (!strcmp(file, "io.stat") && !strstr(buf, "254:0 "))
		return 0; /* no IO yet: no line */
	cr_assert_eq(sim_parse_key(buf, key, &val), 0, "%s has no key %s", path, key);
	return val;
}

static int writer_main(void *arg)
{
	struct sim_writer *w = arg;
	char *buf = kmalloc(w->chunk, GFP_KERNEL);
	struct file *f = filp_open(w->path, O_WRONLY | O_CREAT, 0644);
	u64 pos = 0;

	cr_assert_not_null(buf);
	cr_assert(!IS_ERR(f));
	memset(buf, 0x5a, w->chunk);
	w->start_ns = host_now_ns();
	while (!READ_ONCE(sim.stop) && (!w->total || w->bytes < w->total)) {
		f->f_pos = (loff_t)pos;
		ssize_t n = file_write(f, buf, w->chunk);
		if (n <= 0)
			break;
		host_consume_ns(w->cpu_ns_per_page * DIV_ROUND_UP((size_t)n, PAGE_SIZE));
		w->bytes += (u64)n;
		pos = (pos + (u64)n) % w->span;
	}
	if (w->fsync && !READ_ONCE(sim.stop))
		cr_assert_eq(vfs_fsync(f, 0), 0);
	w->done_ns = host_now_ns();
	fput(f);
	kfree(buf);
	w->done = true;
	return 0;
}

struct sim_writer *sim_writer_start(const char *cg, const char *path, size_t chunk, u64 span,
				    u64 total, u64 cpu_ns_per_page)
{
	struct sim_writer *w;
	struct cgroup *cgrp = NULL;

	cr_assert_lt(sim.nr_writers, MAX_WRITERS);
	w = &sim.writers[sim.nr_writers++];
	memset(w, 0, sizeof(*w)); /* a slot may be reused after sim_writers_stop() */
	snprintf(w->path, sizeof(w->path), "%s", path);
	w->chunk = chunk;
	w->span = span;
	w->total = total;
	w->cpu_ns_per_page = cpu_ns_per_page;
	if (cg) {
		cgrp = cgroup_lookup(cg);
		cr_assert_not_null(cgrp, "cgroup %s", cg);
	}
	w->task = kthread_create(writer_main, w, "writer/%s", cg ? cg : "root");
	cr_assert_not_null(w->task);
	if (cgrp) {
		cgroup_attach_task(cgrp, w->task);
		cgroup_put(cgrp);
	}
	wake_up_process(w->task);
	return w;
}

void sim_writer_fsync_at_end(struct sim_writer *w)
{
	w->fsync = true;
}

u64 sim_writer_elapsed_ns(const struct sim_writer *w)
{
	return READ_ONCE(w->done) ? w->done_ns - w->start_ns : 0;
}

bool sim_writer_done(const struct sim_writer *w)
{
	return READ_ONCE(w->done);
}

u64 sim_writer_bytes(const struct sim_writer *w)
{
	return READ_ONCE(w->bytes);
}

void sim_writers_stop(void)
{
	sim.stop = true;
	for (unsigned int i = 0; i < sim.nr_writers; i++)
		if (sim.writers[i].task)
			kthread_join(sim.writers[i].task);
	sim.nr_writers = 0;
	sim.stop = false;
}

void sim_counters(struct sim_counters *c)
{
	struct bdi_writeback *wb;
	struct mem_cgroup *memcg = NULL;

	memset(c, 0, sizeof(*c));
	bdi_for_each_wb(wb, sim.disk->bdi) {
		c->wb_reclaimable += wb_stat_sum(wb, WB_RECLAIMABLE);
		c->wb_writeback += wb_stat_sum(wb, WB_WRITEBACK);
	}
	c->nr_dirty = global_node_page_state_signed(NR_FILE_DIRTY);
	c->nr_writeback = global_node_page_state_signed(NR_WRITEBACK);
	while ((memcg = mem_cgroup_iter(NULL, memcg)) != NULL)
		c->memcg_dirty += memcg_page_state_local(memcg, NR_FILE_DIRTY);
}

void sim_assert_counters(const char *when)
{
	struct sim_counters c;

	sim_counters(&c);
	cr_assert_eq(c.wb_reclaimable, c.nr_dirty, "%s: wbs hold %lld dirty pages, NR_FILE_DIRTY %ld",
		     when, c.wb_reclaimable, c.nr_dirty);
	cr_assert_eq(c.wb_writeback, c.nr_writeback, "%s: wbs %lld writeback pages, NR_WRITEBACK %ld",
		     when, c.wb_writeback, c.nr_writeback);
	cr_assert_eq(c.memcg_dirty, c.nr_dirty, "%s: memcgs hold %ld dirty pages, global %ld", when,
		     c.memcg_dirty, c.nr_dirty);
	cr_assert_geq(c.nr_dirty, 0);
	cr_assert_geq(c.nr_writeback, 0);
}

int sim_memcg_id(const char *cg)
{
	struct cgroup *cgrp = cgroup_lookup(cg);
	int id;

	cr_assert_not_null(cgrp, "cgroup %s", cg);
	id = cgroup_e_css(cgrp, memory_cgrp_id)->id;
	cgroup_put(cgrp);
	return id;
}

struct task_struct *sim_task_start(const char *cg, int (*fn)(void *), void *arg)
{
	struct task_struct *task = kthread_create(fn, arg, "task/%s", cg ? cg : "root");

	cr_assert_not_null(task);
	if (cg) {
		struct cgroup *cgrp = cgroup_lookup(cg);

		cr_assert_not_null(cgrp, "cgroup %s", cg);
		cgroup_attach_task(cgrp, task);
		cgroup_put(cgrp);
	}
	wake_up_process(task);
	return task;
}

int sim_run_in(const char *cg, int (*fn)(void *), void *arg)
{
	return kthread_join(sim_task_start(cg, fn, arg));
}

struct write_range {
	const char *path;
	u64 off, len;
	long written;
};

static int write_range_main(void *arg)
{
	static char buf[64 * 1024];
	struct write_range *r = arg;
	struct file *f = filp_open(r->path, O_WRONLY | O_CREAT, 0644);

	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	memset(buf, 0x5a, sizeof(buf));
	for (u64 done = 0; done < r->len;) {
		size_t n = (size_t)min((u64)sizeof(buf), r->len - done);
		f->f_pos = (loff_t)(r->off + done);
		ssize_t w = file_write(f, buf, n);
		if (w <= 0)
			break;
		done += (u64)w;
		r->written += w;
	}
	fput(f);
	return 0;
}

long sim_write_range(const char *cg, const char *path, u64 off, u64 len)
{
	struct write_range r = { .path = path, .off = off, .len = len };

	cr_assert_eq(sim_run_in(cg, write_range_main, &r), 0, "writing %s", path);
	return r.written;
}

int sim_dd_main(void *arg)
{
	struct sim_dd *dd = arg;
	char *buf = kzalloc(MiB, GFP_KERNEL);
	struct file *f = filp_open(dd->path, O_WRONLY | O_CREAT, 0644);

	if (!buf || IS_ERR(f)) {
		dd->err = buf ? (int)PTR_ERR(f) : -ENOMEM;
		kfree(buf);
		return dd->err;
	}
	dd->start_ns = host_now_ns();
	for (u64 done = 0; done < dd->bytes && !(dd->stop && READ_ONCE(*dd->stop));) {
		ssize_t n = file_write(f, buf, MiB);

		if (n <= 0) {
			dd->err = n ? (int)n : -EIO;
			break;
		}
		host_consume_ns(dd->cpu_ns_per_page * ((u64)n >> PAGE_SHIFT));
		done += (u64)n;
	}
	if (!dd->err && dd->fsync)
		dd->err = vfs_fsync(f, 0);
	dd->done_ns = host_now_ns();
	fput(f);
	kfree(buf);
	return dd->err;
}

struct task_struct *sim_kthread_on(unsigned int cpu, int (*fn)(void *), void *arg, const char *name)
{
	struct task_struct *t = kthread_create(fn, arg, "%s", name);

	BUG_ON(!t);
	BUG_ON(set_cpus_allowed(t, 1UL << cpu));
	wake_up_process(t);
	return t;
}
