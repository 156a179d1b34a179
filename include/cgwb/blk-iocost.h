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

/**
 * blk_iocost_get_qos() - read a disk's io.cost.qos configuration
 * @disk: the disk; its controller is created if it has none (Linux's blk_iocost_init(),
 *        from a write of either file)
 * @conf: set to the configuration
 *
 * Context: process context; may sleep (creating the controller).
 * Return: 0, or -ENOMEM if the controller could not be created.
 */
int blk_iocost_get_qos(struct gendisk *disk, struct ioc_qos_conf *conf);
/**
 * blk_iocost_get_model() - read a disk's io.cost.model configuration
 * @disk: the disk; its controller is created if it has none
 * @conf: set to the configuration
 *
 * Context: process context; may sleep (creating the controller).
 * Return: 0, or -ENOMEM if the controller could not be created.
 */
int blk_iocost_get_model(struct gendisk *disk, struct ioc_model_conf *conf);
/**
 * blk_iocost_set_qos() - apply an io.cost.qos configuration to a disk
 * @disk: the disk; its controller is created if it has none
 * @conf: a configuration read with blk_iocost_get_qos() and changed; ->enable turns the
 *        control on or off, and the QoS parameters apply when ->user is set
 *
 * Context: process context; may sleep (creating the controller).
 * Return: 0; -EINVAL if the user parameters put the vrate minimum above its maximum;
 * -ENOMEM if the controller could not be created.
 */
int blk_iocost_set_qos(struct gendisk *disk, const struct ioc_qos_conf *conf);
/**
 * blk_iocost_set_model() - apply an io.cost.model configuration to a disk
 * @disk: the disk; its controller is created if it has none
 * @conf: a configuration read with blk_iocost_get_model() and changed; the coefficients
 *        apply when ->user is set, the built-in ones otherwise
 *
 * Context: process context; may sleep (creating the controller).
 * Return: 0, or -ENOMEM if the controller could not be created.
 */
int blk_iocost_set_model(struct gendisk *disk, const struct ioc_model_conf *conf);
/**
 * blk_iocost_configured() - has a disk an io.cost controller?
 * @disk: the disk
 *
 * So that io.cost.qos and io.cost.model list it; the controller may not be enabled.
 *
 * Context: any context; never sleeps.
 * Return: true if it has one.
 */
bool blk_iocost_configured(struct gendisk *disk);
/**
 * blk_iocost_enabled() - does io.cost control a disk's IO?
 * @disk: the disk
 *
 * Context: any context; never sleeps.
 * Return: true if it has a controller and io.cost.qos enabled it.
 */
bool blk_iocost_enabled(struct gendisk *disk);

/* io.weight: the cgroup's default weight, and its weight on one disk (0: the default). */
/**
 * blkcg_weight_dfl() - an io cgroup's default io.weight
 * @blkcg: the blkcg
 *
 * Context: any context.
 * Return: the weight, CGROUP_WEIGHT_MIN to CGROUP_WEIGHT_MAX.
 */
u32 blkcg_weight_dfl(struct blkcg *blkcg);
/**
 * blkcg_set_weight_dfl() - set an io cgroup's default io.weight
 * @blkcg: the blkcg
 * @weight: the weight (the caller checked its range)
 *
 * Takes effect at once in its groups on each disk with a controller.
 *
 * Context: any context; never sleeps.
 */
void blkcg_set_weight_dfl(struct blkcg *blkcg, u32 weight);
/**
 * blkcg_weight_on() - an io cgroup's io.weight on one disk
 * @blkcg: the blkcg
 * @disk: the disk
 *
 * Context: any context; never sleeps.
 * Return: the weight set for @disk; 0 if none is (the default applies) or the disk has no
 * controller.
 */
u32 blkcg_weight_on(struct blkcg *blkcg, struct gendisk *disk);
/**
 * blkcg_set_weight_on() - set an io cgroup's io.weight on one disk
 * @blkcg: the blkcg
 * @disk: the disk
 * @weight: the weight, or 0 for the default
 *
 * Creates the group's state on the disk if needed.
 *
 * Context: process context; may sleep.
 * Return: 0; -EOPNOTSUPP while @disk has no controller (as Linux: the policy is not active
 * there); -ENOMEM if the group's state could not be made.
 */
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
/**
 * blkcg_iocost_stat() - io.stat's cost.* keys of an io cgroup on a disk
 * @blkcg: the blkcg
 * @disk: the disk
 * @st: set to the figures (zeros for a group that sent the disk no IO)
 *
 * Context: any context; never sleeps.
 * Return: false if io.cost is not enabled on @disk (@st is then zeroed).
 */
bool blkcg_iocost_stat(struct blkcg *blkcg, struct gendisk *disk, struct blkg_iocost_stat *st);

#endif
