/*
 * The io controller's per-device state, shared by the block layer's files that implement
 * it: blk-cgroup.c (the controller's groups, bio association, io.stat's counters) and
 * blk-throttle*.c (io.max enforcement); the interface files are cg/io/'s.
 *
 * A blkcg_gq ("blkg") is one io cgroup on one disk: its throttle group and its io.stat
 * counters. It is created on first use (a bio or an io.max write), always after its
 * parent's, and freed with its blkcg. The root blkcg's blkg on a disk exists from the
 * moment the disk's throtl_data does. A blkg is retired (online false) when its blkcg is
 * offline and no writeback context pins it any more: new bios then pass it by for the
 * nearest live ancestor's, while the bios it holds still leave at its limits.
 *
 * Locking: blkcg_lock (interrupts off) covers every blkcg's blkgs list, every td's blkgs
 * list and the counters; td->lock (taken inside blkcg_lock when both are needed) covers the
 * throttling state of the disk. A td's blkgs list changes with both held.
 */
#ifndef CGWB_BLOCK_BLK_CGROUP_H
#define CGWB_BLOCK_BLK_CGROUP_H

#include <cgwb/blk-cgroup.h>
#include "blk-throttle.h"
#include "blk-iocost.h"

struct blkcg_gq {
	struct blkcg *blkcg;
	struct throtl_data *td;      /* the disk */
	struct blkcg_gq *parent;     /* the parent blkcg's blkg on the same disk */
	struct list_head blkcg_node; /* on blkcg->blkgs */
	struct list_head td_node;    /* on td->blkgs */
	struct blkg_iostat iostat;   /* this group and its descendants, as io.stat shows */
	bool online;                 /* new bios may enter it (blkcg_lock to change) */
	struct throtl_grp tg;
	struct ioc_gq iocg;
};

extern spinlock_t blkcg_lock;

static inline struct blkcg_gq *tg_to_blkg(struct throtl_grp *tg)
{
	return container_of(tg, struct blkcg_gq, tg);
}

static inline struct blkcg_gq *iocg_to_blkg(struct ioc_gq *iocg)
{
	return container_of(iocg, struct blkcg_gq, iocg);
}

/* The parent cgroup's blkcg (NULL for the root). */
struct blkcg *blkcg_parent(struct blkcg *blkcg);

/* blk-cgroup.c: groups. */
/* blkcg's group on td's disk, retired or not, or NULL (blkcg_lock held). */
struct blkcg_gq *blkg_lookup(struct blkcg *blkcg, struct throtl_data *td);
/*
 * The group a bio for blkcg enters on td's disk: blkcg's own, created (with its missing
 * ancestors) if needed while blkcg is online; the nearest live ancestor's once blkcg's
 * groups are retired or if it went offline without one here. Process context. Never
 * NULL: if memory runs out, the nearest ancestor's group stands in.
 */
struct blkcg_gq *blkg_lookup_create(struct blkcg *blkcg, struct throtl_data *td, gfp_t gfp);
/* A new, unlinked group (the root's when parent is NULL), or NULL. */
struct blkcg_gq *blkg_alloc(struct blkcg *blkcg, struct throtl_data *td, struct blkcg_gq *parent,
			    gfp_t gfp);
/* Make a new group visible (blkcg_lock held; takes td->lock). */
void blkg_link(struct blkcg_gq *blkg);

/* blk-throttle.c: the throttle data of a disk, created on first use (process context). */
struct throtl_data *blk_throtl_td(struct gendisk *disk);
/* The same without creating it: NULL if the disk never had IO or limits. */
struct throtl_data *blk_throtl_td_lookup(struct gendisk *disk);
/* Does io.max limit the writes of blkcg or of an ancestor on disk? */
bool blk_throtl_limits_writes(struct blkcg *blkcg, struct gendisk *disk);

/* blk-cgroup.c: the delay io.cost asks of the group's tasks for its debt (0: none). */
void blkg_set_delay(struct blkcg_gq *blkg, u64 delay_ns);
/*
 * blk-cgroup.c: expedited writeback's debt of the group is paid at jiffies end; its
 * dirtiers wait till then. io.max's only ever moves later; io.cost's follows its estimate
 * (0: paid).
 */
void blkg_note_throtl_debt(struct blkcg_gq *blkg, unsigned long end);
void blkg_note_ioc_debt(struct blkcg_gq *blkg, unsigned long end);

/* blk-throttle-debt.c: bios that may not wait (bio_expedited()), charged as debt. */
/* Charge bio at tg and every level above it (td->lock held). */
void throtl_charge_debt(struct throtl_grp *tg, struct bio *bio, unsigned long now);
/* Writeback of mapping became expedited: its bios held on disk go now, as debt. */
void blk_throtl_expedite(struct gendisk *disk, const struct address_space *mapping);

/* blk-cgroup.c: io.stat's counting of a bio leaving the throttler, in blkg and its ancestors. */
void blkg_account_io(struct blkcg_gq *blkg, const struct bio *bio);

#endif
