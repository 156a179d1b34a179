/*
 * The writeback simulator: the whole storage stack (page cache, writeback, ext2, block
 * layer, cgroups with the memory and io controllers) on the host platform, over a modelled
 * disk with a set bandwidth, driven by writer tasks in cgroups, in virtual time. Everything
 * that runs is the kernel's own code; only the disk and the passage of CPU time are models.
 */
#ifndef CGWB_SIM_H
#define CGWB_SIM_H

#include <cgwb/types.h>
#include <cgwb/backing-dev.h>
#include <cgwb/jiffies.h>

#define MiB (1024ULL * 1024)
#define SEC NSEC_PER_SEC
#define MSEC NSEC_PER_MSEC

struct sim_config {
	size_t mem_mib;        /* RAM (the page allocator's arena) */
	unsigned int disk_mib; /* ext2 image size */
	u64 disk_bps;          /* modelled disk bandwidth, bytes/s */
	u64 disk_latency_ns;   /* per request */
	/*
	 * The image: mke2fs -t mkfs (NULL: ext2) mounted as fstype (NULL: the same) with
	 * mount_opts (NULL: none), e.g. an ext3 image mounted as ext4.
	 */
	const char *mkfs, *fstype, *mount_opts;
};

/*
 * Boot the stack, make the image (ext2 unless cfg says otherwise), attach it as vda and
 * mount it on /mnt. With
 * CGWB_SIM_TRACE=FILE in the environment, the run's trace goes to FILE as with
 * sim_trace_to(FILE, $CGWB_SIM_TRACE_EVENTS or "writeback:*").
 */
void sim_boot(const struct sim_config *cfg);
/* Ends the trace stream first (the file then ends with its "# trace: N events lost" line). */
void sim_shutdown(void);
/*
 * Stream the events of list (Linux's trace_event= syntax: "writeback:*",
 * "writeback:balance_dirty_pages,writeback:writeback_written") to the host file path as
 * the QEMU machine streams them to scripts/run-qemu --trace: Linux's text, stamped with
 * virtual time, until sim_shutdown(). The drain costs no virtual time.
 */
void sim_trace_to(const char *path, const char *list);
struct backing_dev_info *sim_bdi(void);

/* The wb that writes the file at path back (the root wb is not refcounted; cgwbs are kept
 * alive by the inode, which the test keeps). */
struct bdi_writeback *sim_file_wb(const char *path);
/* The inode of the file at path, referenced (iput() when done); BUG_ON if there is none, so
 * that a seed's scenario (host_smp_seeds()) may call it too. */
struct inode *sim_inode(const char *path);
/* Write a string to a (pseudo) file, like `echo s > path`: 0 or -errno. */
int sim_echo(const char *path, const char *s);
/*
 * A fresh ext2 of mib MiB in a new scratch directory of /tmp (its name into dir), attached
 * as vda over model (NULL: transfers take no time; the disk into *disk if disk) and mounted
 * on /mnt: 0 or -errno. sim_scratch_remove() deletes the directory. sim_scratch_fs() makes
 * it with mke2fs -t mkfs and mounts it as fstype with opts (NULL: none).
 */
struct filedisk_model;
struct gendisk;
int sim_scratch_ext2(char *dir, size_t dir_len, unsigned int mib,
		     const struct filedisk_model *model, struct gendisk **disk);
int sim_scratch_fs(char *dir, size_t dir_len, unsigned int mib, const char *mkfs, const char *fstype,
		   const char *opts, const struct filedisk_model *model, struct gendisk **disk);
void sim_scratch_remove(const char *dir);
/* A cgroup /sys/fs/cgroup/NAME with memory and io enabled for its children's level. */
void sim_mkcg(const char *name);
/*
 * A field of a cgroup file: "wbytes" of io.stat (device 254:0; 0 before the first IO),
 * "file_dirty" of memory.stat. A missing key fails the test.
 */
u64 sim_cg_value(const char *cg, const char *file, const char *key);
/* "key=N" or "key N" in text (modified): 0 and *val, or -ENOENT if the key is missing. */
int sim_parse_key(char *text, const char *key, u64 *val);

/*
 * A writer task in cgroup cg writing path in chunks of chunk bytes, cycling over the first
 * span bytes of the file (so the page cache stays bounded), spending cpu_ns_per_page of
 * CPU time per page it dirties, until sim_writers_stop() or total bytes.
 */
struct sim_writer;
struct sim_writer *sim_writer_start(const char *cg, const char *path, size_t chunk, u64 span,
				    u64 total, u64 cpu_ns_per_page);
u64 sim_writer_bytes(const struct sim_writer *w);
/* Call right after sim_writer_start (before the writer runs): fsync after the last write. */
void sim_writer_fsync_at_end(struct sim_writer *w);
/* From the first write to the end of the fsync; 0 while the writer runs. */
u64 sim_writer_elapsed_ns(const struct sim_writer *w);
bool sim_writer_done(const struct sim_writer *w);
void sim_writers_stop(void);

/*
 * dd if=/dev/zero of=path bs=1M count=bytes/1M [conv=fsync], spending cpu_ns_per_page per
 * page it writes; run it as a task with sim_task_start(cg, sim_dd_main, dd). It ends after
 * its current write once *stop (if given) is true; start_ns, done_ns and err are its own.
 */
struct sim_dd {
	char path[32];
	u64 bytes, cpu_ns_per_page;
	bool fsync;
	const bool *stop;
	u64 start_ns, done_ns;
	int err;
};
int sim_dd_main(void *arg);

/* A kernel thread bound to virtual CPU cpu (host_smp_start()), running fn(arg). */
struct task_struct *sim_kthread_on(unsigned int cpu, int (*fn)(void *), void *arg, const char *name);
/* Run fn(arg) as a task in cgroup cg (NULL: the root) in the background / to its end. */
struct task_struct *sim_task_start(const char *cg, int (*fn)(void *), void *arg);
int sim_run_in(const char *cg, int (*fn)(void *), void *arg);
/* Write len bytes of 0x5a at off of path (created if needed) as a task of cg: bytes written. */
long sim_write_range(const char *cg, const char *path, u64 off, u64 len);
/* The css id of cg's memory cgroup (what wb_memcg() of its wbs has). */
int sim_memcg_id(const char *cg);

/* Per-wb counters summed over the device's wbs, and the global counters they must equal. */
struct sim_counters {
	s64 wb_reclaimable, wb_writeback;
	long nr_dirty, nr_writeback;
	long memcg_dirty; /* sum of every memcg's local file_dirty */
};
void sim_counters(struct sim_counters *c);
/* Assert those equalities (and that nothing is negative); when names the moment. */
void sim_assert_counters(const char *when);

#endif
