/*
 * The io controller ("io" in cgroup.subtree_control): its per-cgroup state (struct blkcg),
 * the per-disk groups (struct blkcg_gq) that carry io.max limits and io.stat counters, and
 * the io cgroup each bio is charged to.
 *
 * Lifetimes. A bio holds a reference on its blkcg from submit_bio to bio_put, and every
 * css holds one on its parent (the cgroup core's rule), so a group is never freed while a
 * bio waits in it or passes through it: groups go with their blkcg, in css_free.
 *
 * Removal, as Linux since "blkcg: delay blkg destruction until after writeback has
 * finished": rmdir does not lift a group's limits. Its writeback contexts live on until
 * their inodes are clean, and each pins the blkcg online (online_pin), so the pages the
 * group left behind are written at its io.max and its ancestors'. When the last pin goes
 * the groups are retired: later bios for the blkcg enter the nearest live ancestor's group,
 * and what a retired group still holds leaves at its limits as before.
 */
#include "blk-cgroup-internal.h"
#include <cgwb/blkdev.h>
#include <cgwb/backing-dev.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>

struct blkcg *blkcg_root;
DEFINE_SPINLOCK(blkcg_lock);

struct blkcg *blkcg_parent(struct blkcg *blkcg)
{
	return blkcg->css.parent ? css_to_blkcg(blkcg->css.parent) : NULL;
}

struct blkcg *task_blkcg(struct task_struct *task)
{
	return css_to_blkcg(task_css(task, io_cgrp_id));
}

/* ---------------------------------------------------------------- bios */

void bio_associate_blkcg(struct bio *bio)
{
	struct blkcg *blkcg;

	if ((bio->bi_flags & BIO_BLKCG_REF) || !blkcg_root)
		return;
	blkcg = bio->bi_blkcg ? bio->bi_blkcg : task_blkcg(current);
	css_get(&blkcg->css);
	bio->bi_blkcg = blkcg;
	bio->bi_flags |= BIO_BLKCG_REF;
}

void bio_release_blkcg(struct bio *bio)
{
	if (!(bio->bi_flags & BIO_BLKCG_REF))
		return;
	bio->bi_flags &= ~BIO_BLKCG_REF;
	css_put(&bio->bi_blkcg->css);
}

/* ---------------------------------------------------------------- groups */

struct blkcg_gq *blkg_lookup(struct blkcg *blkcg, struct throtl_data *td)
{
	struct blkcg_gq *blkg;

	list_for_each_entry(blkg, &blkcg->blkgs, blkcg_node)
		if (blkg->td == td)
			return blkg;
	return NULL;
}

struct blkcg_gq *blkg_alloc(struct blkcg *blkcg, struct throtl_data *td,
			    struct blkcg_gq *parent, gfp_t gfp)
{
	struct blkcg_gq *blkg = kzalloc(sizeof(*blkg), gfp);

	if (!blkg)
		return NULL;
	blkg->blkcg = blkcg;
	blkg->td = td;
	blkg->parent = parent;
	blkg->online = true;
	INIT_LIST_HEAD(&blkg->blkcg_node);
	INIT_LIST_HEAD(&blkg->td_node);
	throtl_grp_init(&blkg->tg, td, parent ? &parent->tg : NULL);
	return blkg;
}

static struct blkcg_gq *blkg_lookup_locked(struct blkcg *blkcg, struct throtl_data *td)
{
	struct blkcg_gq *blkg;
	unsigned long flags;

	spin_lock_irqsave(&blkcg_lock, flags);
	blkg = blkg_lookup(blkcg, td);
	spin_unlock_irqrestore(&blkcg_lock, flags);
	return blkg;
}

/* Ancestors first, so that a group's parent always exists when it is linked. */
struct blkcg_gq *blkg_lookup_create(struct blkcg *blkcg, struct throtl_data *td, gfp_t gfp)
{
	struct blkcg_gq *blkg = blkg_lookup_locked(blkcg, td), *parent, *new;
	unsigned long flags;

	if (blkg && READ_ONCE(blkg->online))
		return blkg;
	if (blkcg_is_root(blkcg))
		return td->root_blkg;
	/* retired, or offline without a group here: no new group for a dead cgroup */
	if (blkg || css_is_dying(&blkcg->css))
		return blkg_lookup_create(blkcg_parent(blkcg), td, gfp);
	parent = blkg_lookup_create(blkcg_parent(blkcg), td, gfp);
	new = blkg_alloc(blkcg, td, parent, gfp);
	if (!new)
		return parent;          /* limited by the ancestors' limits only, for now */
	spin_lock_irqsave(&blkcg_lock, flags);
	blkg = blkg_lookup(blkcg, td);  /* someone else may have won while we allocated */
	if (!blkg) {
		blkg_link(new);
		blkg = new;
		new = NULL;
	}
	spin_unlock_irqrestore(&blkcg_lock, flags);
	kfree(new);
	return blkg;
}

/* ---------------------------------------------------------------- online pins */

void blkcg_pin_online(struct blkcg *blkcg)
{
	BUG_ON(__atomic_fetch_add(&blkcg->online_pin, 1, __ATOMIC_RELAXED) <= 0);
}

/* New bios pass blkcg's groups by; the bios they hold leave at their limits. */
static void blkcg_destroy_blkgs(struct blkcg *blkcg)
{
	struct blkcg_gq *blkg;
	unsigned long flags;

	spin_lock_irqsave(&blkcg_lock, flags);
	list_for_each_entry(blkg, &blkcg->blkgs, blkcg_node)
		WRITE_ONCE(blkg->online, false);
	spin_unlock_irqrestore(&blkcg_lock, flags);
}

/* A blkcg's last pin is one of its parent's: the retirement climbs while pins run out. */
void blkcg_unpin_online(struct blkcg *blkcg)
{
	for (; blkcg; blkcg = blkcg_parent(blkcg)) {
		int left = __atomic_sub_fetch(&blkcg->online_pin, 1, __ATOMIC_ACQ_REL);

		BUG_ON(left < 0);
		if (left)
			break;
		blkcg_destroy_blkgs(blkcg);
	}
}

/* ---------------------------------------------------------------- the controller */

static struct cgroup_subsys_state *blkcg_css_alloc(struct cgroup_subsys_state *parent)
{
	struct blkcg *blkcg = kzalloc(sizeof(*blkcg), GFP_KERNEL);

	if (!blkcg)
		return NULL;
	INIT_LIST_HEAD(&blkcg->blkgs);
	INIT_LIST_HEAD(&blkcg->cgwb_list);
	blkcg->online_pin = 1; /* dropped when it goes offline */
	if (!parent)
		blkcg_root = blkcg;
	return &blkcg->css;
}

/* A child's groups need their parent's: the child holds a pin on it until it retires. */
static int blkcg_css_online(struct cgroup_subsys_state *css)
{
	if (css->parent)
		blkcg_pin_online(css_to_blkcg(css->parent));
	return 0;
}

/*
 * rmdir, or io disabled above: tasks now use an ancestor's blkcg and our writeback
 * contexts are retired. Our limits stay in force until those contexts are released.
 */
static void blkcg_css_offline(struct cgroup_subsys_state *css)
{
	struct blkcg *blkcg = css_to_blkcg(css);

	wb_blkcg_offline(blkcg);
	blkcg_unpin_online(blkcg);
}

static void blkcg_css_free(struct cgroup_subsys_state *css)
{
	struct blkcg *blkcg = css_to_blkcg(css);
	struct blkcg_gq *blkg, *next;
	LIST_HEAD(dead);
	unsigned long flags;

	spin_lock_irqsave(&blkcg_lock, flags);
	list_for_each_entry_safe(blkg, next, &blkcg->blkgs, blkcg_node) {
		spin_lock(&blkg->td->lock);
		list_del_init(&blkg->td_node);
		throtl_grp_exit(&blkg->tg);
		spin_unlock(&blkg->td->lock);
		list_move(&blkg->blkcg_node, &dead);
	}
	spin_unlock_irqrestore(&blkcg_lock, flags);
	list_for_each_entry_safe(blkg, next, &dead, blkcg_node)
		kfree(blkg);
	if (blkcg == blkcg_root)
		blkcg_root = NULL;
	kfree(blkcg);
}

static int blkcg_create_file(struct pseudo_node *dir, const char *name, umode_t mode,
			     pseudo_show_t show, pseudo_store_t store, struct blkcg *blkcg)
{
	struct pseudo_node *node = pseudo_create_file(dir, name, mode, show, store, blkcg);

	if (!node)
		return -ENOMEM;
	return IS_ERR(node) ? (int)PTR_ERR(node) : 0;
}

/* io.max is not offered on the root: the root group is never limited (cgroup v2). */
static int blkcg_populate_dir(struct cgroup_subsys_state *css, struct pseudo_node *dir)
{
	struct blkcg *blkcg = css_to_blkcg(css);
	int err = 0;

	if (!blkcg_is_root(blkcg))
		err = blkcg_create_file(dir, "io.max", 0644, blkcg_io_max_show,
					blkcg_io_max_store, blkcg);
	if (!err)
		err = blkcg_create_file(dir, "io.stat", 0444, blkcg_io_stat_show, NULL, blkcg);
	return err;
}

struct cgroup_subsys io_cgrp_subsys = {
	.name = "io",
	.id = io_cgrp_id,
	.css_alloc = blkcg_css_alloc,
	.css_online = blkcg_css_online,
	.css_offline = blkcg_css_offline,
	.css_free = blkcg_css_free,
	.populate_dir = blkcg_populate_dir,
};
