/*
 * io.cost.qos and io.cost.model (on the root only): io.cost's configuration per disk, in
 * Linux 6.1's syntax. Writing either for a disk creates its controller; each lists the
 * disks that have one.
 *
 *   io.cost.qos:   MAJ:MIN enable=0|1 ctrl=auto|user rpct=P rlat=US wpct=P wlat=US min=P max=P
 *   io.cost.model: MAJ:MIN ctrl=auto|user model=linear rbps=N rseqiops=N rrandiops=N
 *                  wbps=N wseqiops=N wrandiops=N
 *
 * Any key but enable and ctrl makes the parameters the user's (ctrl=user); ctrl=auto goes
 * back to the built-in ones. Percentages take two decimals; min and max are clamped to
 * 1 %..10000 %, and min above max is refused. Anything else is -EINVAL, an unknown disk
 * -ENODEV, as Linux. The line is checked whole before anything changes.
 */
#include "io.h"
#include <cgwb/blkdev.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>

static const char *const qos_keys[NR_QOS_PARAMS] = { "rpct=", "rlat=", "wpct=",
						     "wlat=", "min=",  "max=" };
static const char *const lcoef_keys[NR_I_LCOEFS] = { "rbps=", "rseqiops=", "rrandiops=",
						     "wbps=", "wseqiops=", "wrandiops=" };

/* match_token's "key=%u": digits to the end of the token */
static bool io_cost_match_u64(const char *tok, const char *key, u64 *v)
{
	const char *end;

	if (!str_has_prefix(tok, key))
		return false;
	end = io_conf_scan_u64(tok + strlen(key), v);
	return end && !*end && !io_conf_space(tok[strlen(key)]);
}

/* "ctrl=auto" or "ctrl=user": 0, -EINVAL, or 1 if tok is not a ctrl= token */
static int io_cost_parse_ctrl(const char *tok, bool *user)
{
	if (!str_has_prefix(tok, "ctrl=") || !tok[5])
		return 1;
	if (!strcmp(tok + 5, "auto"))
		*user = false;
	else if (!strcmp(tok + 5, "user"))
		*user = true;
	else
		return -EINVAL;
	return 0;
}

static int io_cost_qos_param(const char *tok, u32 *qos)
{
	for (int k = 0; k < NR_QOS_PARAMS; k++) {
		const char *arg = tok + strlen(qos_keys[k]);
		s64 v;
		u64 u;

		if (!str_has_prefix(tok, qos_keys[k]) || !*arg)
			continue;
		if (k == QOS_RLAT || k == QOS_WLAT) {
			if (!io_cost_match_u64(tok, qos_keys[k], &u) || u > 0xffffffffULL)
				return -EINVAL;
			qos[k] = (u32)u;
		} else if (io_conf_parse_hundredths(arg, &v)) {
			return -EINVAL;
		} else if (k == QOS_RPPM || k == QOS_WPPM) {
			if (v < 0 || v > 10000)
				return -EINVAL;
			qos[k] = (u32)(v * 100);
		} else {
			if (v < 0)
				return -EINVAL;
			qos[k] = (u32)clamp(v * 100, (s64)VRATE_MIN_PPM, (s64)VRATE_MAX_PPM);
		}
		return 0;
	}
	return -EINVAL;
}

int io_cost_qos_parse(const char *body, struct ioc_qos_conf *conf)
{
	char tok[48];
	int len, err;
	u64 v;

	while ((len = io_conf_next_token(&body, tok, sizeof(tok))) > 0) {
		if (io_cost_match_u64(tok, "enable=", &v)) {
			conf->enable = v != 0;
			continue;
		}
		err = io_cost_parse_ctrl(tok, &conf->user);
		if (err <= 0) {
			if (err)
				return err;
			continue;
		}
		err = io_cost_qos_param(tok, conf->qos);
		if (err)
			return err;
		conf->user = true;
	}
	if (len < 0)
		return len;
	return conf->qos[QOS_MIN] > conf->qos[QOS_MAX] ? -EINVAL : 0;
}

int io_cost_model_parse(const char *body, struct ioc_model_conf *conf)
{
	char tok[48];
	int len, err, k;
	u64 v;

	while ((len = io_conf_next_token(&body, tok, sizeof(tok))) > 0) {
		err = io_cost_parse_ctrl(tok, &conf->user);
		if (err <= 0) {
			if (err)
				return err;
			continue;
		}
		if (str_has_prefix(tok, "model=") && tok[6]) {
			if (strcmp(tok + 6, "linear"))
				return -EINVAL;
			continue;
		}
		for (k = 0; k < NR_I_LCOEFS; k++)
			if (io_cost_match_u64(tok, lcoef_keys[k], &v))
				break;
		if (k == NR_I_LCOEFS)
			return -EINVAL;
		conf->i_lcoefs[k] = v;
		conf->user = true;
	}
	return len < 0 ? len : 0;
}

int blkcg_io_cost_qos_store(const char *buf, size_t len, void *private)
{
	struct gendisk *disk = io_conf_open_disk(&buf);
	struct ioc_qos_conf conf;
	int err;

	(void)len;
	(void)private;
	if (IS_ERR(disk))
		return (int)PTR_ERR(disk);
	err = blk_iocost_get_qos(disk, &conf);
	if (!err)
		err = io_cost_qos_parse(buf, &conf);
	return err ? err : blk_iocost_set_qos(disk, &conf);
}

int blkcg_io_cost_model_store(const char *buf, size_t len, void *private)
{
	struct gendisk *disk = io_conf_open_disk(&buf);
	struct ioc_model_conf conf;
	int err;

	(void)len;
	(void)private;
	if (IS_ERR(disk))
		return (int)PTR_ERR(disk);
	err = blk_iocost_get_model(disk, &conf);
	if (!err)
		err = io_cost_model_parse(buf, &conf);
	return err ? err : blk_iocost_set_model(disk, &conf);
}

/* ppm as Linux prints a percentage: "95.00" */
#define PCT_ARGS(ppm) (ppm) / 10000, (ppm) % 10000 / 100

static void io_cost_qos_show_disk(struct gendisk *disk, void *arg)
{
	struct ioc_qos_conf c;

	if (!blk_iocost_configured(disk) || blk_iocost_get_qos(disk, &c))
		return;
	seq_printf(arg,
		   "%d:%d enable=%d ctrl=%s rpct=%u.%02u rlat=%u wpct=%u.%02u wlat=%u "
		   "min=%u.%02u max=%u.%02u\n",
		   disk->major, disk->first_minor, c.enable, c.user ? "user" : "auto",
		   PCT_ARGS(c.qos[QOS_RPPM]), c.qos[QOS_RLAT], PCT_ARGS(c.qos[QOS_WPPM]),
		   c.qos[QOS_WLAT], PCT_ARGS(c.qos[QOS_MIN]), PCT_ARGS(c.qos[QOS_MAX]));
}

int blkcg_io_cost_qos_show(struct seq_buf *s, void *private)
{
	(void)private;
	for_each_disk(io_cost_qos_show_disk, s);
	return 0;
}

static void io_cost_model_show_disk(struct gendisk *disk, void *arg)
{
	struct ioc_model_conf c;
	const u64 *u = c.i_lcoefs;

	if (!blk_iocost_configured(disk) || blk_iocost_get_model(disk, &c))
		return;
	seq_printf(arg,
		   "%d:%d ctrl=%s model=linear rbps=%llu rseqiops=%llu rrandiops=%llu "
		   "wbps=%llu wseqiops=%llu wrandiops=%llu\n",
		   disk->major, disk->first_minor, c.user ? "user" : "auto", u[I_LCOEF_RBPS],
		   u[I_LCOEF_RSEQIOPS], u[I_LCOEF_RRANDIOPS], u[I_LCOEF_WBPS], u[I_LCOEF_WSEQIOPS],
		   u[I_LCOEF_WRANDIOPS]);
}

int blkcg_io_cost_model_show(struct seq_buf *s, void *private)
{
	(void)private;
	for_each_disk(io_cost_model_show_disk, s);
	return 0;
}
