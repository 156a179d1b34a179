/*
 * The io controller as the cgroup core sees it ("io" in cgroup.subtree_control): the life
 * of each io cgroup, kept by the block layer (block/blk-cgroup.c), and its files: io.max
 * and io.weight (not on the root: the root group is never limited), io.cost.qos and
 * io.cost.model (on the root only: they configure disks), io.stat.
 */
#include "io.h"
#include <cgwb/errno.h>

static void (*io_offline_hook)(struct blkcg *blkcg);

void io_cgroup_register_offline_hook(void (*hook)(struct blkcg *blkcg))
{
	WRITE_ONCE(io_offline_hook, hook);
}

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
	void (*hook)(struct blkcg *) = READ_ONCE(io_offline_hook);

	if (hook)
		hook(blkcg);
	blkcg_offline(blkcg);
}

static void io_css_free(struct cgroup_subsys_state *css)
{
	blkcg_free(css_to_blkcg(css));
}

/* The root group is never limited; io.cost's files configure disks, on the root only. */
static const struct cftype io_files[] = {
	{ "io.max", 0644, CFTYPE_NOT_ON_ROOT, blkcg_io_max_show, blkcg_io_max_store },
	{ "io.weight", 0644, CFTYPE_NOT_ON_ROOT, blkcg_io_weight_show, blkcg_io_weight_store },
	{ "io.cost.qos", 0644, CFTYPE_ONLY_ON_ROOT, blkcg_io_cost_qos_show, blkcg_io_cost_qos_store },
	{ "io.cost.model", 0644, CFTYPE_ONLY_ON_ROOT, blkcg_io_cost_model_show,
	  blkcg_io_cost_model_store },
	{ "io.stat", 0444, 0, blkcg_io_stat_show, NULL },
	{ NULL },
};

struct cgroup_subsys io_cgrp_subsys = {
	.name = "io",
	.id = io_cgrp_id,
	.css_alloc = io_css_alloc,
	.css_online = io_css_online,
	.css_offline = io_css_offline,
	.css_free = io_css_free,
	.dfl_cftypes = io_files,
};
