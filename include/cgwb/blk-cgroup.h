/*
 * The io controller's per-cgroup state: io.max limits per device and io.stat counters,
 * enforced by the block throttler (cg/io/blk-throttle.c) on bios according to bio->bi_blkcg.
 */
#ifndef CGWB_BLK_CGROUP_H
#define CGWB_BLK_CGROUP_H

#include <cgwb/cgroup.h>

struct bio;
struct gendisk;

struct blkcg {
	struct cgroup_subsys_state css;
	struct list_head blkgs;          /* per-device state (struct blkcg_gq, cg/) */
	struct list_head cgwb_list;      /* bdi_writebacks whose io cgroup this is */
	/*
	 * Holders that keep its per-disk groups, and so its io.max limits, in force: 1 while
	 * online, 1 per writeback context writing for it, 1 per child holding pins itself.
	 */
	int online_pin;
};

extern struct blkcg *blkcg_root;

static inline struct blkcg *css_to_blkcg(struct cgroup_subsys_state *css)
{
	return css ? (struct blkcg *)((char *)css - offsetof(struct blkcg, css)) : NULL;
}
/* The effective io cgroup of a task. */
struct blkcg *task_blkcg(struct task_struct *task);
static inline bool blkcg_is_root(const struct blkcg *blkcg)
{
	return blkcg == blkcg_root;
}

/*
 * Give a bio without an io cgroup the submitter's (writeback sets it from its wb with
 * wbc_init_bio; everything else is charged to whoever submits). Takes a css reference that
 * bio_put drops.
 */
void bio_associate_blkcg(struct bio *bio);
void bio_release_blkcg(struct bio *bio);

/*
 * A writeback context pins its blkcg so that what it writes after rmdir still goes at the
 * group's io.max (Linux's blkcg_pin_online()). When the last pin of an offline blkcg goes,
 * its groups are retired: bios sent for it from then on go to the nearest live ancestor's
 * group, while bios already held in its groups drain at its limits.
 */
void blkcg_pin_online(struct blkcg *blkcg);
void blkcg_unpin_online(struct blkcg *blkcg);

/* io.stat's wbytes of blkcg (and its descendants) on disk: 0 if it never wrote there. */
u64 blkcg_disk_wbytes(struct blkcg *blkcg, struct gendisk *disk);
/*
 * The lowest write bytes/s io.max sets on disk for blkcg or an ancestor: what its writes
 * can never exceed there. U64_MAX: no such limit.
 */
u64 blkcg_write_bps_limit(struct blkcg *blkcg, struct gendisk *disk);
/* io.stat accounting of a bio leaving the throttler toward the device. */
void blkcg_account_io(struct bio *bio);

/* The io controller, for cgroup_register_subsys() before cgroup_init(). */
extern struct cgroup_subsys io_cgrp_subsys;

#endif
