/*
 * The io controller as the cgroup core sees it ("io" in cgroup.subtree_control): the life
 * of each io cgroup, kept by the block layer (block/blk-cgroup.c), and its files: io.max
 * and io.weight (not on the root: the root group is never limited), io.cost.qos and
 * io.cost.model (on the root only: they configure disks), io.stat.
 */
#include "io.h"
#include <cgwb/backing-dev.h>
#include <cgwb/errno.h>

static struct cgroup_subsys_state *io_css_alloc(struct cgroup_subsys_state *parent)
{
	struct blkcg *blkcg = blkcg_alloc(parent ? css_to_blkcg(parent) : NULL);

	return blkcg ? &blkcg->css : NULL;
}

static int io_css_online(struct cgroup_subsys_state *css)
{
	blkcg_online(css_to_blkcg(css));
	return 0;
}

/* rmdir, or io disabled above: its writeback contexts are retired, its limits stay. */
static void io_css_offline(struct cgroup_subsys_state *css)
{
	struct blkcg *blkcg = css_to_blkcg(css);

	wb_blkcg_offline(blkcg);
	blkcg_offline(blkcg);
}

static void io_css_free(struct cgroup_subsys_state *css)
{
	blkcg_free(css_to_blkcg(css));
}

static int io_create_file(struct pseudo_node *dir, const char *name, umode_t mode,
			  pseudo_show_t show, pseudo_store_t store, struct blkcg *blkcg)
{
	struct pseudo_node *node = pseudo_create_file(dir, name, mode, show, store, blkcg);

	if (!node)
		return -ENOMEM;
	return IS_ERR(node) ? (int)PTR_ERR(node) : 0;
}

static int io_populate_dir(struct cgroup_subsys_state *css, struct pseudo_node *dir)
{
	struct blkcg *blkcg = css_to_blkcg(css);
	int err = 0;

	if (!blkcg_is_root(blkcg)) {
		err = io_create_file(dir, "io.max", 0644, blkcg_io_max_show, blkcg_io_max_store,
				     blkcg);
		if (!err)
			err = io_create_file(dir, "io.weight", 0644, blkcg_io_weight_show,
					     blkcg_io_weight_store, blkcg);
	} else {
		err = io_create_file(dir, "io.cost.qos", 0644, blkcg_io_cost_qos_show,
				     blkcg_io_cost_qos_store, blkcg);
		if (!err)
			err = io_create_file(dir, "io.cost.model", 0644, blkcg_io_cost_model_show,
					     blkcg_io_cost_model_store, blkcg);
	}
	if (!err)
		err = io_create_file(dir, "io.stat", 0444, blkcg_io_stat_show, NULL, blkcg);
	return err;
}

struct cgroup_subsys io_cgrp_subsys = {
	.name = "io",
	.id = io_cgrp_id,
	.css_alloc = io_css_alloc,
	.css_online = io_css_online,
	.css_offline = io_css_offline,
	.css_free = io_css_free,
	.populate_dir = io_populate_dir,
};
