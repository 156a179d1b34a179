/*
 * The io controller's per-cgroup state: io.max limits per device and io.stat counters,
 * enforced by the block throttler (cg/io/blk-throttle.c) on bios according to bio->bi_blkcg.
 */
#ifndef CGWB_BLK_CGROUP_H
#define CGWB_BLK_CGROUP_H

#include <cgwb/cgroup.h>

struct bio;
struct gendisk;
struct block_device;
struct address_space;

struct blkcg {
	struct cgroup_subsys_state css;
	struct list_head blkgs;     /* per-device state (struct blkcg_gq, cg/) */
	struct list_head cgwb_list; /* bdi_writebacks whose io cgroup this is */
	/*
	 * Holders that keep its per-disk groups, and so its io.max limits, in force: 1 while
	 * online, 1 per writeback context writing for it, 1 per child holding pins itself.
	 */
	int online_pin;
	u32 ioc_dfl_weight; /* io.weight's default (block/blk-iocost-params.c) */
	u64 delay_nsec; /* io.cost's delay of its tasks for debt (blkcg_maybe_throttle_current) */
	/* jiffies when expedited writeback's debt is paid: io.max's, io.cost's estimate */
	unsigned long throtl_debt_end, ioc_debt_end;
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
/**
 * bio_release_blkcg() - drop a bio's io cgroup reference
 * @bio: the bio; nothing is done if it holds none
 *
 * bio_put() calls it; wbc_init_bio() calls it before giving the bio its wb's blkcg.
 *
 * Context: any context; never sleeps.
 */
void bio_release_blkcg(struct bio *bio);

/**
 * blkcg_pin_online() - keep an io cgroup's limits in force after it goes offline
 * @blkcg: the blkcg, not retired yet
 *
 * A writeback context pins its blkcg so that what it writes after rmdir still goes at the
 * group's io.max (Linux's blkcg_pin_online()). Each pin is dropped by blkcg_unpin_online().
 *
 * Context: any context; never sleeps.
 */
void blkcg_pin_online(struct blkcg *blkcg);
/**
 * blkcg_unpin_online() - drop a pin on an io cgroup
 * @blkcg: the blkcg
 *
 * When the last pin of an offline blkcg goes, its groups are retired: bios sent for it
 * from then on go to the nearest live ancestor's group, while bios already held in its
 * groups drain at its limits. A blkcg's last pin is one of its parent's, so the
 * retirement climbs while pins run out.
 *
 * Context: any context; never sleeps.
 */
void blkcg_unpin_online(struct blkcg *blkcg);

/**
 * blkcg_maybe_throttle_current() - pause the current task for its io cgroup's IO debt
 *
 * For the delay io.cost set on its cgroup (or an ancestor) because of IO debt, and until
 * io.max's debt (expedited writeback charged to the group) is paid; a fatal signal ends
 * the second wait. As Linux's, where the task holds nothing: after it dirtied pages
 * (balance_dirty_pages_ratelimited()). Does nothing in atomic context.
 *
 * Context: process context, no lock held; may sleep.
 */
void blkcg_maybe_throttle_current(void);

/**
 * blkcg_expedite_begin() - let a mapping's writeback past its group's io limits
 * @bdev: the device the writeback goes to
 * @mapping: the mapping whose pages are written
 *
 * For writeback someone waits for that must not wait behind its group's io limits: ext4's
 * data=ordered commit, which every handle and every other group's fsync waits for. Until
 * blkcg_expedite_end(), the write bios of @mapping's pages under writeback go to @bdev at
 * once, those that io.max or io.cost hold already included, and are charged to their
 * group as debt: its later IO waits until its limits cover them, and its dirtiers pause
 * meanwhile (block/blk-throttle-debt.c). Calls nest.
 *
 * Context: process context; may sleep (submitting the bios io.max held).
 */
void blkcg_expedite_begin(struct block_device *bdev, struct address_space *mapping);
/**
 * blkcg_expedite_end() - end a blkcg_expedite_begin() of a mapping
 * @mapping: the mapping
 *
 * Context: process context; never sleeps.
 */
void blkcg_expedite_end(struct address_space *mapping);
/**
 * blkcg_may_hold_writes() - may io.max or io.cost hold an io cgroup's writes back?
 * @blkcg: the blkcg
 * @disk: the disk
 *
 * For what waits for such writes to end (ext4's data=ordered commit) and so must bound
 * how much of them it takes at once.
 *
 * Context: process context; never sleeps.
 * Return: true if io.cost is enabled on @disk or io.max limits the writes of @blkcg or of
 * an ancestor there; false for the root, whose IO neither holds.
 */
bool blkcg_may_hold_writes(struct blkcg *blkcg, struct gendisk *disk);
/* Is bio such writeback? The io controllers ask it under their locks. */
bool bio_expedited(const struct bio *bio);

/**
 * blkcg_disk_wbytes() - the bytes an io cgroup wrote to a disk
 * @blkcg: the blkcg (its descendants are counted too)
 * @disk: the disk
 *
 * Context: any context; never sleeps.
 * Return: io.stat's wbytes there; 0 if it never wrote there.
 */
u64 blkcg_disk_wbytes(struct blkcg *blkcg, struct gendisk *disk);
/**
 * blkcg_write_bps_limit() - the write bandwidth an io cgroup can never exceed on a disk
 * @blkcg: the blkcg
 * @disk: the disk, or NULL (no limit)
 *
 * Context: any context; never sleeps.
 * Return: the lowest write bytes/s io.max sets on @disk for @blkcg or an ancestor, or
 * U64_MAX if none does.
 */
u64 blkcg_write_bps_limit(struct blkcg *blkcg, struct gendisk *disk);
/* io.stat accounting of a bio leaving the throttler toward the device. */
void blkcg_account_io(struct bio *bio);

/* ---------------------------------------------------------------- for the io.* files */
/* The controller's life of an io cgroup: the css callbacks of cg/io/io-cgroup.c. */
/**
 * blkcg_alloc() - allocate the block side of an io cgroup
 * @parent: the parent's blkcg, or NULL for the root (which becomes blkcg_root)
 *
 * The blkcg starts with one pin, dropped when it goes offline, and io.cost's default
 * weight.
 *
 * Context: process context; may sleep.
 * Return: the blkcg, or NULL if memory ran out.
 */
struct blkcg *blkcg_alloc(struct blkcg *parent);
/**
 * blkcg_online() - an io cgroup comes online
 * @blkcg: the blkcg
 *
 * A child's groups need their parent's: it pins its parent until it retires.
 *
 * Context: any context; never sleeps.
 */
void blkcg_online(struct blkcg *blkcg);
/**
 * blkcg_offline() - an io cgroup goes offline (rmdir, or io disabled above it)
 * @blkcg: the blkcg
 *
 * Drops the pin it was born with: tasks now use an ancestor's blkcg, and its limits stay
 * in force until its writeback contexts let go of their pins.
 *
 * Context: any context; never sleeps.
 */
void blkcg_offline(struct blkcg *blkcg);
/**
 * blkcg_free() - free an io cgroup's block side
 * @blkcg: the blkcg, with no bio or pin left
 *
 * Its groups on every disk are freed with it.
 *
 * Context: process context.
 */
void blkcg_free(struct blkcg *blkcg);
/**
 * io_cgroup_register_offline_hook() - what an io cgroup going offline calls first
 * @hook: retires the io cgroup's writeback contexts (wb_blkcg_offline())
 *
 * The wbs live a floor above the io controller (mm/backing-dev-cgwb.c), which registers
 * the hook at boot (cgwb_init()). Without one (no backing-dev, as in some host tests)
 * there are no wbs to retire.
 *
 * Context: boot.
 */
void io_cgroup_register_offline_hook(void (*hook)(struct blkcg *blkcg));

/* io.stat's counters of an io cgroup (its descendants included) on one disk. */
enum blkg_iostat_type {
	BLKG_IOSTAT_READ,
	BLKG_IOSTAT_WRITE,
	BLKG_IOSTAT_DISCARD, /* io.stat shows it; cgwb has no discards */
	BLKG_IOSTAT_NR,
};

struct blkg_iostat {
	u64 bytes[BLKG_IOSTAT_NR];
	u64 ios[BLKG_IOSTAT_NR];
};
/**
 * blkcg_iostat_read() - a copy of an io cgroup's io.stat counters on a disk
 * @blkcg: the blkcg (its descendants are counted too)
 * @disk: the disk
 * @st: set to the counters; zeros if it never sent the disk IO
 *
 * Context: any context; never sleeps.
 */
void blkcg_iostat_read(struct blkcg *blkcg, struct gendisk *disk, struct blkg_iostat *st);

/* io.max of an io cgroup on one disk: bytes/s and IOs/s; U64_MAX is none ("max"). */
enum { BLKCG_LIMIT_RBPS, BLKCG_LIMIT_WBPS, BLKCG_LIMIT_RIOPS, BLKCG_LIMIT_WIOPS, BLKCG_LIMIT_NR };
struct blkcg_limits {
	u64 val[BLKCG_LIMIT_NR];
	bool set[BLKCG_LIMIT_NR]; /* which values a change sets */
};
/**
 * blkcg_set_limits() - set an io cgroup's io.max on a disk
 * @blkcg: the blkcg
 * @disk: the disk
 * @lim: the values to set (those marked in ->set); IOs/s beyond what the counters hold
 *       mean none, as in Linux
 *
 * Creates the group's state on the disk if needed.
 *
 * Context: process context; may sleep.
 * Return: 0, or -ENOMEM if the state could not be made.
 */
int blkcg_set_limits(struct blkcg *blkcg, struct gendisk *disk, const struct blkcg_limits *lim);
/**
 * blkcg_get_limits() - an io cgroup's io.max on a disk
 * @blkcg: the blkcg
 * @disk: the disk
 * @lim: set to its limits; U64_MAX for each it has none of
 *
 * Context: any context; never sleeps.
 * Return: true if it has at least one limit there.
 */
bool blkcg_get_limits(struct blkcg *blkcg, struct gendisk *disk, struct blkcg_limits *lim);

/* The io controller, for cgroup_register_subsys() before cgroup_init() (cg/io/io-cgroup.c). */
extern struct cgroup_subsys io_cgrp_subsys;

#endif
