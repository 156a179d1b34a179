/*
 * io.weight (not on the root): the cgroup's share of each disk under io.cost, relative to
 * its siblings'. "default N" (or just "N") sets the cgroup's default; "MAJ:MIN N" one
 * disk's, and "MAJ:MIN default" takes that back. N is 1 to 10000 (100 by default).
 *
 * Errors as Linux 6.1: a line that does not parse or a weight out of range is -EINVAL;
 * an unknown disk -ENODEV; a disk whose io.cost was never configured -EOPNOTSUPP (Linux's
 * policy is not active on that queue until io.cost.qos or io.cost.model is written).
 * Reading gives "default N" and a line per disk with its own weight.
 */
#include "io.h"
#include <cgwb/blk-iocost.h>
#include <cgwb/blkdev.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>

static bool io_weight_valid(u32 v)
{
	return v >= CGROUP_WEIGHT_MIN && v <= CGROUP_WEIGHT_MAX;
}

/* sscanf(buf, "default %u") || sscanf(buf, "%u"), as Linux reads a default weight */
static bool io_weight_scan_default(const char *buf, u32 *v)
{
	if (str_has_prefix(buf, "default") && io_conf_scan_u32(buf + 7, v))
		return true;
	return io_conf_scan_u32(buf, v);
}

int io_weight_parse(const char *buf, struct io_weight_conf *conf)
{
	const char *pos = buf;
	struct gendisk *disk;

	memset(conf, 0, sizeof(*conf));
	if (!strchr(buf, ':')) {
		if (!io_weight_scan_default(buf, &conf->weight) || !io_weight_valid(conf->weight))
			return -EINVAL;
		return 0;
	}
	disk = io_conf_open_disk(&pos);
	if (IS_ERR(disk))
		return (int)PTR_ERR(disk);
	conf->disk = disk;
	if (str_has_prefix(pos, "default"))
		conf->weight = 0;
	else if (!io_conf_scan_u32(pos, &conf->weight) || !io_weight_valid(conf->weight))
		return -EINVAL;
	return 0;
}

int blkcg_io_weight_store(const char *buf, size_t len, void *private)
{
	struct io_weight_conf conf;
	int err = io_weight_parse(buf, &conf);

	(void)len;
	if (err)
		return err;
	if (!conf.disk) {
		blkcg_set_weight_dfl(css_to_blkcg(private), conf.weight);
		return 0;
	}
	return blkcg_set_weight_on(css_to_blkcg(private), conf.disk, conf.weight);
}

struct io_weight_show_ctx {
	struct blkcg *blkcg;
	struct seq_buf *s;
};

static void io_weight_show_disk(struct gendisk *disk, void *arg)
{
	struct io_weight_show_ctx *ctx = arg;
	u32 weight = blkcg_weight_on(ctx->blkcg, disk);

	if (weight)
		seq_printf(ctx->s, "%d:%d %u\n", disk->major, disk->first_minor, weight);
}

int blkcg_io_weight_show(struct seq_buf *s, void *private)
{
	struct io_weight_show_ctx ctx = { css_to_blkcg(private), s };

	seq_printf(s, "default %u\n", blkcg_weight_dfl(css_to_blkcg(private)));
	for_each_disk(io_weight_show_disk, &ctx);
	return 0;
}
