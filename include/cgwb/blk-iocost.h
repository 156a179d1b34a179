/*
 * io.cost, the io controller's proportional part (Linux's block/blk-iocost.c): the
 * interface the io.* files (cg/io/) use to configure it, and what io.stat shows of it.
 *
 * A disk's controller ("ioc") exists from the first write of io.cost.qos or io.cost.model
 * for it, and controls IO once `enable=1`. Its parameters are Linux's: the QoS targets and
 * vrate bounds of io.cost.qos, and the linear cost model of io.cost.model, each either
 * "auto" (the built-in set for the kind of disk) or "user" (what was written). A cgroup's
 * share of a disk is its io.weight: the cgroup's default, or one set for that disk.
 */
#ifndef CGWB_BLK_IOCOST_H
#define CGWB_BLK_IOCOST_H

#include <cgwb/types.h>

struct blkcg;
struct gendisk;
struct seq_buf;

/* io.weight's range and default (Linux's CGROUP_WEIGHT_*). */
#define CGROUP_WEIGHT_MIN 1
#define CGROUP_WEIGHT_DFL 100
#define CGROUP_WEIGHT_MAX 10000

/* io.cost.qos: latency percentiles in ppm, latencies in us, vrate bounds in ppm. */
enum { QOS_RPPM, QOS_RLAT, QOS_WPPM, QOS_WLAT, QOS_MIN, QOS_MAX, NR_QOS_PARAMS };
/* vrate may go from 1 % to 10000 % of the model's speed */
#define VRATE_MIN_PPM 10000
#define VRATE_MAX_PPM 100000000

/* io.cost.model, the linear model: bytes/s, sequential and random 4 KiB IOs/s per direction. */
enum {
	I_LCOEF_RBPS,
	I_LCOEF_RSEQIOPS,
	I_LCOEF_RRANDIOPS,
	I_LCOEF_WBPS,
	I_LCOEF_WSEQIOPS,
	I_LCOEF_WRANDIOPS,
	NR_I_LCOEFS,
};

struct ioc_qos_conf {
	bool enable;
	bool user; /* false: the automatic parameters (qos is ignored when set) */
	u32 qos[NR_QOS_PARAMS];
};

struct ioc_model_conf {
	bool user;
	u64 i_lcoefs[NR_I_LCOEFS];
};

/*
 * The configuration of disk's controller, which this creates on first use (Linux's
 * blk_iocost_init(), from a write of either file): 0 or -ENOMEM.
 */
int blk_iocost_get_qos(struct gendisk *disk, struct ioc_qos_conf *conf);
int blk_iocost_get_model(struct gendisk *disk, struct ioc_model_conf *conf);
/* Apply a configuration read with the getter and changed (-EINVAL: min above max). */
int blk_iocost_set_qos(struct gendisk *disk, const struct ioc_qos_conf *conf);
int blk_iocost_set_model(struct gendisk *disk, const struct ioc_model_conf *conf);
/* Has disk a controller (so that io.cost.qos and io.cost.model list it)? */
bool blk_iocost_configured(struct gendisk *disk);

/* io.weight: the cgroup's default weight, and its weight on one disk (0: the default). */
u32 blkcg_weight_dfl(struct blkcg *blkcg);
void blkcg_set_weight_dfl(struct blkcg *blkcg, u32 weight);
u32 blkcg_weight_on(struct blkcg *blkcg, struct gendisk *disk);
/* -EOPNOTSUPP while disk has no controller (as Linux: the policy is not active there). */
int blkcg_set_weight_on(struct blkcg *blkcg, struct gendisk *disk, u32 weight);

/*
 * io.stat's cost.* keys of blkcg on disk (false: io.cost is not enabled there): the disk's
 * vrate in hundredths of a percent, and the group's device time used, waited for budget,
 * spent in debt and delayed for it, in us (Linux's cost.usage, wait, indebt, indelay).
 */
struct blkg_iocost_stat {
	u32 vrate_pct100;
	u64 usage_us, wait_us, indebt_us, indelay_us;
};
bool blkcg_iocost_stat(struct blkcg *blkcg, struct gendisk *disk, struct blkg_iocost_stat *st);

#endif
