/*
 * io.max: "MAJ:MIN rbps=N wbps=N riops=N wiops=N" per disk with a limit (bytes/s, IOs/s).
 *
 * A write names one disk and any subset of the keys in any order, each a positive number
 * or "max" (no limit). The whole line is checked before anything changes: a malformed
 * line or value or an unknown key gives -EINVAL, a value of 0 -ERANGE (Linux's answers),
 * a disk that does not exist -ENODEV. Reading lists only disks with some limit.
 */
#include "blk-cgroup-internal.h"
#include <cgwb/blkdev.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>

static const char *const io_max_keys[IO_MAX_NR] = { "rbps", "wbps", "riops", "wiops" };

static bool io_max_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Copy the next whitespace-separated token of *pos into tok; 0 at the end, -EINVAL if long. */
static int io_max_next_token(const char **pos, char *tok, size_t size)
{
	const char *p = *pos;
	size_t len = 0;

	while (io_max_space(*p))
		p++;
	while (*p && !io_max_space(*p)) {
		if (len + 1 >= size)
			return -EINVAL;
		tok[len++] = *p++;
	}
	tok[len] = '\0';
	*pos = p;
	return (int)len;
}

static int io_max_parse_dev(const char *tok, struct io_max_conf *conf)
{
	char maj[16];
	const char *colon = strchr(tok, ':');

	if (!colon || (size_t)(colon - tok) >= sizeof(maj))
		return -EINVAL;
	memcpy(maj, tok, (size_t)(colon - tok));
	maj[colon - tok] = '\0';
	if (kstrtouint(maj, 10, &conf->major) || kstrtouint(colon + 1, 10, &conf->minor))
		return -EINVAL;
	return 0;
}

/* "key=value": checked in Linux's order, the value's form, then 0, then the key. */
static int io_max_parse_setting(char *tok, struct io_max_conf *conf)
{
	char *eq = strchr(tok, '=');
	u64 val;

	if (!eq)
		return -EINVAL;
	*eq = '\0';
	if (!strcmp(eq + 1, "max"))
		val = U64_MAX;
	else if (kstrtoull(eq + 1, 10, &val))
		return -EINVAL;
	if (!val)
		return -ERANGE;
	for (int k = 0; k < IO_MAX_NR; k++) {
		if (!strcmp(tok, io_max_keys[k])) {
			conf->val[k] = val;
			conf->set[k] = true;
			return 0;
		}
	}
	return -EINVAL;
}

int io_max_parse(const char *buf, struct io_max_conf *conf)
{
	char tok[32];           /* the longest valid token is "wiops=18446744073709551615" */
	int len, err;

	memset(conf, 0, sizeof(*conf));
	len = io_max_next_token(&buf, tok, sizeof(tok));
	if (len <= 0)
		return -EINVAL;
	err = io_max_parse_dev(tok, conf);
	while (!err && (len = io_max_next_token(&buf, tok, sizeof(tok))) > 0)
		err = io_max_parse_setting(tok, conf);
	return err ? err : (len < 0 ? len : 0);
}

/* Apply under td->lock: IOs/s beyond what the counters hold mean no limit, as in Linux. */
static void io_max_apply(struct throtl_grp *tg, const struct io_max_conf *conf)
{
	BUILD_BUG_ON((int)IO_MAX_WBPS - (int)IO_MAX_RBPS != (int)THROTL_WRITE - (int)THROTL_READ);
	for (int rw = THROTL_READ; rw <= THROTL_WRITE; rw++) {
		if (conf->set[IO_MAX_RBPS + rw])
			tg->bps[rw] = conf->val[IO_MAX_RBPS + rw];
		if (conf->set[IO_MAX_RIOPS + rw])
			tg->iops[rw] = (unsigned int)min_t(u64, conf->val[IO_MAX_RIOPS + rw], UINT_MAX);
	}
	tg_conf_updated(tg);
}

int blkcg_io_max_store(const char *buf, size_t len, void *private)
{
	struct blkcg *blkcg = private;
	struct block_device *bdev;
	struct io_max_conf conf;
	struct throtl_data *td;
	struct blkcg_gq *blkg;
	unsigned long flags;
	int err = io_max_parse(buf, &conf);

	if (err)
		return err;
	if (conf.major >= 1U << 12 || conf.minor >= 1U << 20)
		return -ENODEV;
	bdev = blkdev_get_by_dev(MKDEV(conf.major, conf.minor));
	if (!bdev)
		return -ENODEV;
	td = blk_throtl_td(bdev->bd_disk);
	if (!td)
		return -ENOMEM;
	blkg = blkg_lookup_create(blkcg, td, GFP_KERNEL);
	if (blkg->blkcg != blkcg)
		return -ENOMEM;         /* an ancestor's group stood in */
	spin_lock_irqsave(&td->lock, flags);
	io_max_apply(&blkg->tg, &conf);
	spin_unlock_irqrestore(&td->lock, flags);
	return 0;
}

struct io_max_show_ctx {
	struct blkcg *blkcg;
	struct seq_buf *s;
};

static void io_max_format(char *buf, size_t size, u64 val, u64 none)
{
	if (val == none)
		scnprintf(buf, size, "max");
	else
		scnprintf(buf, size, "%llu", val);
}

static void io_max_show_disk(struct gendisk *disk, void *arg)
{
	struct io_max_show_ctx *ctx = arg;
	struct throtl_data *td = blk_throtl_td_lookup(disk);
	u64 bps[2] = { U64_MAX, U64_MAX };
	unsigned int iops[2] = { UINT_MAX, UINT_MAX };
	char v[IO_MAX_NR][24];
	struct blkcg_gq *blkg;
	unsigned long flags;

	if (!td)
		return;
	spin_lock_irqsave(&blkcg_lock, flags);
	blkg = blkg_lookup(ctx->blkcg, td);
	if (blkg) {
		spin_lock(&td->lock);
		memcpy(bps, blkg->tg.bps, sizeof(bps));
		memcpy(iops, blkg->tg.iops, sizeof(iops));
		spin_unlock(&td->lock);
	}
	spin_unlock_irqrestore(&blkcg_lock, flags);
	if (bps[0] == U64_MAX && bps[1] == U64_MAX && iops[0] == UINT_MAX && iops[1] == UINT_MAX)
		return;
	io_max_format(v[IO_MAX_RBPS], sizeof(v[0]), bps[THROTL_READ], U64_MAX);
	io_max_format(v[IO_MAX_WBPS], sizeof(v[0]), bps[THROTL_WRITE], U64_MAX);
	io_max_format(v[IO_MAX_RIOPS], sizeof(v[0]), iops[THROTL_READ], UINT_MAX);
	io_max_format(v[IO_MAX_WIOPS], sizeof(v[0]), iops[THROTL_WRITE], UINT_MAX);
	seq_printf(ctx->s, "%d:%d rbps=%s wbps=%s riops=%s wiops=%s\n", disk->major,
		   disk->first_minor, v[0], v[1], v[2], v[3]);
}

int blkcg_io_max_show(struct seq_buf *s, void *private)
{
	struct io_max_show_ctx ctx = { private, s };

	for_each_disk(io_max_show_disk, &ctx);
	return 0;
}

u64 blkcg_write_bps_limit(struct blkcg *blkcg, struct gendisk *disk)
{
	struct throtl_data *td = disk ? blk_throtl_td_lookup(disk) : NULL;
	u64 bps = U64_MAX;
	unsigned long flags;

	if (!td)
		return bps;
	spin_lock_irqsave(&blkcg_lock, flags);
	for (; blkcg; blkcg = blkcg_parent(blkcg)) {
		struct blkcg_gq *blkg = blkg_lookup(blkcg, td);

		if (!blkg)
			continue;
		spin_lock(&td->lock);
		bps = min(bps, blkg->tg.bps[THROTL_WRITE]);
		spin_unlock(&td->lock);
	}
	spin_unlock_irqrestore(&blkcg_lock, flags);
	return bps;
}
