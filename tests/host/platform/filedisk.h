/*
 * A block device for host tests: a disk backed by an image file (or a buffer in memory),
 * registered like virtio-blk's disks so the whole storage stack (VFS, page cache,
 * writeback, ext2, block layer) runs on it.
 *
 * Requests are carried out when the block layer hands them over and completed from a
 * host timer, in interrupt context, as a device would: at once (the same virtual instant)
 * by default, or after a modelled service time (a per-request latency plus the transfer at
 * a given bandwidth, requests served one after the other) for simulations that need a
 * disk with a speed.
 */
#ifndef CGWB_HOST_FILEDISK_H
#define CGWB_HOST_FILEDISK_H

#include <cgwb/blkdev.h>

struct filedisk_model {
	u64 bandwidth_bps; /* bytes per second; 0: transfers take no time */
	u64 latency_ns;    /* added to every request */
	bool write_cache;  /* advertise a volatile cache (flushes reach the driver) */
};

struct filedisk_stats {
	unsigned long reads, writes, flushes; /* requests */
	u64 bytes_read, bytes_written;
	unsigned int max_request_bytes; /* the largest request seen */
};

/*
 * Add disk `name` ("vda", ...) backed by the image file at path (opened read-write unless
 * read_only). model NULL: immediate completion. Returns the disk or NULL (logged).
 */
struct gendisk *filedisk_add(const char *name, const char *path, bool read_only,
			     const struct filedisk_model *model);
/* The same backed by size bytes at data (not copied: the caller keeps it alive). */
struct gendisk *filedisk_add_mem(const char *name, void *data, size_t size, bool read_only,
				 const struct filedisk_model *model);
/* Counters since the disk was added (or the last reset). */
void filedisk_get_stats(struct gendisk *disk, struct filedisk_stats *st);
void filedisk_reset_stats(struct gendisk *disk);
/* Fail every request from now on with -EIO (fail true) or stop failing. */
void filedisk_set_failing(struct gendisk *disk, bool fail);

/*
 * Crash tests: from now on, append every write the disk carries out to the file at path,
 * in the order it reaches the disk, as a struct filedisk_write then its data; path NULL
 * stops. Each piece of a request is its own record (a crash may fall between them).
 */
struct filedisk_write {
	u64 pos; /* bytes from the disk's start */
	u32 len;
};
int filedisk_record_writes(struct gendisk *disk, const char *path);

#endif
