/*
 * io.max: "MAJ:MIN rbps=N wbps=N riops=N wiops=N" per disk with a limit (bytes/s, IOs/s).
 *
 * A write names one disk and any subset of the keys in any order, each a positive number
 * or "max" (no limit). The whole line is checked before anything changes: a malformed
 * line or value or an unknown key gives -EINVAL, a value of 0 -ERANGE (Linux's answers),
 * a disk that does not exist -ENODEV. Reading lists only disks with some limit.
 */
#include "io.h"
#include <cgwb/blk-cgroup.h>
#include <cgwb/blkdev.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>

static const char *const io_max_keys[BLKCG_LIMIT_NR] = { "rbps", "wbps", "riops", "wiops" };

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
	for (int k = 0; k < BLKCG_LIMIT_NR; k++) {
		if (!strcmp(tok, io_max_keys[k])) {
			conf->lim.val[k] = val;
			conf->lim.set[k] = true;
			return 0;
		}
	}
	return -EINVAL;
}

int io_max_parse(const char *buf, struct io_max_conf *conf)
{
	char tok[32]; /* the longest valid token is "wiops=18446744073709551615" */
	int len, err;

	memset(conf, 0, sizeof(*conf));
	len = io_conf_next_token(&buf, tok, sizeof(tok));
	if (len <= 0)
		return -EINVAL;
	err = io_max_parse_dev(tok, conf);
	while (!err && (len = io_conf_next_token(&buf, tok, sizeof(tok))) > 0)
		err = io_max_parse_setting(tok, conf);
	return err ? err : (len < 0 ? len : 0);
}

int blkcg_io_max_store(const char *buf, size_t len, void *private)
{
	struct block_device *bdev;
	struct io_max_conf conf;
	int err = io_max_parse(buf, &conf);

	(void)len;
	if (err)
		return err;
	if (conf.major >= 1U << 12 || conf.minor >= 1U << 20)
		return -ENODEV;
	bdev = blkdev_get_by_dev(MKDEV(conf.major, conf.minor));
	if (!bdev)
		return -ENODEV;
	return blkcg_set_limits(css_to_blkcg(private), bdev->bd_disk, &conf.lim);
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
	struct blkcg_limits lim;
	char v[BLKCG_LIMIT_NR][24];

	if (!blkcg_get_limits(ctx->blkcg, disk, &lim))
		return;
	for (int k = 0; k < BLKCG_LIMIT_NR; k++)
		io_max_format(v[k], sizeof(v[k]), lim.val[k], U64_MAX);
	seq_printf(ctx->s, "%d:%d rbps=%s wbps=%s riops=%s wiops=%s\n", disk->major,
		   disk->first_minor, v[BLKCG_LIMIT_RBPS], v[BLKCG_LIMIT_WBPS],
		   v[BLKCG_LIMIT_RIOPS], v[BLKCG_LIMIT_WIOPS]);
}

int blkcg_io_max_show(struct seq_buf *s, void *private)
{
	struct io_max_show_ctx ctx = { css_to_blkcg(private), s };

	for_each_disk(io_max_show_disk, &ctx);
	return 0;
}
