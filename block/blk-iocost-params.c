/*
 * io.cost's parameters: the controller of a disk, made on the first write of io.cost.qos
 * or io.cost.model (Linux's blk_iocost_init()); the QoS targets and the linear cost model,
 * automatic or the user's; what follows from them (the period, the margins, the vrate
 * bounds, the model's coefficients in vtime); and io.weight's configuration.
 *
 * Policy. The automatic parameters are Linux's for a rotational disk (AUTOP_HDD): Linux
 * sees QEMU's virtio-blk as rotational, and cgwb's disks say nothing of their kind. A
 * bio's cost is a base cost per IO, sequential if it starts within 16 MiB of where the
 * group's last IO ended and random otherwise, plus a cost per 4 KiB page.
 *
 * Races: a file write reads the configuration, parses onto it and sets it back, each
 * step under ioc->lock; two writers at once may lose one's change, as in Linux.
 */
#include "blk-cgroup.h"
#include <cgwb/blkdev.h>
#include <cgwb/mutex.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>

static const struct ioc_params autop_hdd = {
	.qos = {
		[QOS_RLAT] = 250000, /* 250 ms */
		[QOS_WLAT] = 250000,
		[QOS_MIN] = VRATE_MIN_PPM,
		[QOS_MAX] = VRATE_MAX_PPM,
	},
	.i_lcoefs = {
		[I_LCOEF_RBPS] = 174019176,
		[I_LCOEF_RSEQIOPS] = 41708,
		[I_LCOEF_RRANDIOPS] = 370,
		[I_LCOEF_WBPS] = 178075866,
		[I_LCOEF_WSEQIOPS] = 42705,
		[I_LCOEF_WRANDIOPS] = 378,
	},
};

static DEFINE_MUTEX(ioc_create_mutex);

static u64 div_round_up(u64 n, u64 d)
{
	return n / d + (n % d != 0);
}

struct ioc *ioc_lookup(struct gendisk *disk)
{
	return READ_ONCE(disk->queue->ioc);
}

bool blk_iocost_configured(struct gendisk *disk)
{
	return ioc_lookup(disk) != NULL;
}

bool blk_iocost_enabled(struct gendisk *disk)
{
	struct ioc *ioc = ioc_lookup(disk);

	return ioc && READ_ONCE(ioc->enabled);
}

void ioc_refresh_margins(struct ioc *ioc)
{
	u64 vrate = ioc->vtime_base_rate;

	ioc->margins.target = (s64)(ioc->period_us * MARGIN_TARGET_PCT / 100 * vrate);
}

/*
 * The period holds a healthy number of IOs yet allows fine control: twice the larger
 * latency target, more for a lower percentile (10 x at the 50th), as Linux.
 */
static void ioc_refresh_period_us(struct ioc *ioc)
{
	const u32 *qos = ioc->params.qos;
	bool read = qos[QOS_RLAT] >= qos[QOS_WLAT];
	u32 ppm = read ? qos[QOS_RPPM] : qos[QOS_WPPM];
	u32 lat = read ? qos[QOS_RLAT] : qos[QOS_WLAT];
	u32 multi = ppm ? max_t(u32, (MILLION - ppm) / 50000, 2) : 2;
	u64 period = (u64)multi * lat;

	ioc->period_us = (u32)clamp(period, (u64)IOC_MIN_PERIOD, (u64)IOC_MAX_PERIOD);
	ioc_refresh_margins(ioc);
}

/* bytes/s, sequential and random IOs/s -> vtime per page and per IO beyond its pages */
static void calc_lcoefs(u64 bps, u64 seqiops, u64 randiops, u64 *page, u64 *seqio, u64 *randio)
{
	u64 v;

	*page = *seqio = *randio = 0;
	if (bps) {
		u64 bps_pages = div_round_up(bps, IOC_PAGE_SIZE);

		*page = div_round_up(VTIME_PER_SEC, bps_pages);
	}
	if (seqiops) {
		v = div_round_up(VTIME_PER_SEC, seqiops);
		if (v > *page)
			*seqio = v - *page;
	}
	if (randiops) {
		v = div_round_up(VTIME_PER_SEC, randiops);
		if (v > *page)
			*randio = v - *page;
	}
}

void ioc_refresh_params(struct ioc *ioc)
{
	u64 *u = ioc->params.i_lcoefs, *c = ioc->params.lcoefs;

	if (!ioc->user_qos_params)
		memcpy(ioc->params.qos, autop_hdd.qos, sizeof(ioc->params.qos));
	if (!ioc->user_cost_model)
		memcpy(ioc->params.i_lcoefs, autop_hdd.i_lcoefs, sizeof(ioc->params.i_lcoefs));
	ioc_refresh_period_us(ioc);
	calc_lcoefs(u[I_LCOEF_RBPS], u[I_LCOEF_RSEQIOPS], u[I_LCOEF_RRANDIOPS], &c[LCOEF_RPAGE],
		    &c[LCOEF_RSEQIO], &c[LCOEF_RRANDIO]);
	calc_lcoefs(u[I_LCOEF_WBPS], u[I_LCOEF_WSEQIOPS], u[I_LCOEF_WRANDIOPS], &c[LCOEF_WPAGE],
		    &c[LCOEF_WSEQIO], &c[LCOEF_WRANDIO]);
	ioc->vrate_min = div_round_up((u64)ioc->params.qos[QOS_MIN] * VTIME_PER_USEC, MILLION);
	ioc->vrate_max = (u64)ioc->params.qos[QOS_MAX] * VTIME_PER_USEC / MILLION;
}

static struct ioc *ioc_alloc(struct gendisk *disk)
{
	struct ioc *ioc = kzalloc(sizeof(*ioc), GFP_KERNEL);

	if (!ioc)
		return NULL;
	ioc->disk = disk;
	spin_lock_init(&ioc->lock);
	ioc->lock.name = "ioc->lock";
	timer_setup(&ioc->timer, ioc_timer_fn, 0);
	INIT_LIST_HEAD(&ioc->active_iocgs);
	ioc->vtime_base_rate = VTIME_PER_USEC;
	ioc->period_at = ktime_get_ns() / NSEC_PER_USEC;
	ioc_refresh_params(ioc);
	return ioc;
}

/* Made once per disk and kept while the disk lives, as Linux's rq_qos. */
static struct ioc *ioc_get_or_create(struct gendisk *disk)
{
	struct ioc *ioc = ioc_lookup(disk);

	if (ioc)
		return ioc;
	mutex_lock(&ioc_create_mutex);
	ioc = ioc_lookup(disk);
	if (!ioc) {
		ioc = ioc_alloc(disk);
		if (ioc)
			WRITE_ONCE(disk->queue->ioc, ioc);
	}
	mutex_unlock(&ioc_create_mutex);
	return ioc;
}

/*
 * The one way into a controller's configuration, for io.cost.qos and io.cost.model alike:
 * the controller is made if need be (-ENOMEM), then op reads it into out or sets it from
 * in, under its lock.
 */
static int ioc_conf_access(struct gendisk *disk, int (*op)(struct ioc *, const void *, void *),
			   const void *in, void *out)
{
	struct ioc *ioc = ioc_get_or_create(disk);
	unsigned long flags;
	int err;

	if (!ioc)
		return -ENOMEM;
	spin_lock_irqsave(&ioc->lock, flags);
	err = op(ioc, in, out);
	spin_unlock_irqrestore(&ioc->lock, flags);
	return err;
}

static int ioc_qos_get(struct ioc *ioc, const void *in, void *out)
{
	struct ioc_qos_conf *conf = out;

	conf->enable = ioc->enabled;
	conf->user = ioc->user_qos_params;
	memcpy(conf->qos, ioc->params.qos, sizeof(conf->qos));
	return 0;
}

static int ioc_qos_set(struct ioc *ioc, const void *in, void *out)
{
	const struct ioc_qos_conf *conf = in;

	if (conf->user && conf->qos[QOS_MIN] > conf->qos[QOS_MAX])
		return -EINVAL;
	ioc->enabled = conf->enable;
	ioc->user_qos_params = conf->user;
	if (conf->user)
		memcpy(ioc->params.qos, conf->qos, sizeof(ioc->params.qos));
	ioc_refresh_params(ioc);
	return 0;
}

static int ioc_model_get(struct ioc *ioc, const void *in, void *out)
{
	struct ioc_model_conf *conf = out;

	conf->user = ioc->user_cost_model;
	memcpy(conf->i_lcoefs, ioc->params.i_lcoefs, sizeof(conf->i_lcoefs));
	return 0;
}

static int ioc_model_set(struct ioc *ioc, const void *in, void *out)
{
	const struct ioc_model_conf *conf = in;

	ioc->user_cost_model = conf->user;
	if (conf->user)
		memcpy(ioc->params.i_lcoefs, conf->i_lcoefs, sizeof(ioc->params.i_lcoefs));
	ioc_refresh_params(ioc);
	return 0;
}

int blk_iocost_get_qos(struct gendisk *disk, struct ioc_qos_conf *conf)
{
	return ioc_conf_access(disk, ioc_qos_get, NULL, conf);
}

int blk_iocost_set_qos(struct gendisk *disk, const struct ioc_qos_conf *conf)
{
	return ioc_conf_access(disk, ioc_qos_set, conf, NULL);
}

int blk_iocost_get_model(struct gendisk *disk, struct ioc_model_conf *conf)
{
	return ioc_conf_access(disk, ioc_model_get, NULL, conf);
}

int blk_iocost_set_model(struct gendisk *disk, const struct ioc_model_conf *conf)
{
	return ioc_conf_access(disk, ioc_model_set, conf, NULL);
}

/* ---------------------------------------------------------------- the cost of a bio */

u64 calc_vtime_cost(struct ioc_gq *iocg, const struct bio *bio)
{
	const u64 *c = iocg->ioc->params.lcoefs;
	bool write = op_is_write(bio_op(bio));
	u64 pages = max_t(u64, bio->bi_size >> IOC_PAGE_SHIFT, 1);
	/* a group's first IO has nothing to seek from: sequential, as Linux's */
	s64 seek = iocg->cursor ? (s64)bio->bi_sector - (s64)iocg->cursor : 0;
	bool seq = seek >= -(s64)(LCOEF_RANDIO_PAGES << (IOC_PAGE_SHIFT - SECTOR_SHIFT)) &&
		   seek <= (s64)(LCOEF_RANDIO_PAGES << (IOC_PAGE_SHIFT - SECTOR_SHIFT));
	u64 base = write ? c[seq ? LCOEF_WSEQIO : LCOEF_WRANDIO] :
			   c[seq ? LCOEF_RSEQIO : LCOEF_RRANDIO];

	iocg->cursor = bio->bi_sector + (bio->bi_size >> SECTOR_SHIFT);
	return base + pages * c[write ? LCOEF_WPAGE : LCOEF_RPAGE];
}

u64 calc_size_vtime_cost(struct ioc *ioc, const struct request *rq)
{
	bool write = op_is_write(bio_op_of(rq->cmd_flags));
	u64 pages = max_t(u64, rq->nr_bytes >> IOC_PAGE_SHIFT, 1);

	return pages * ioc->params.lcoefs[write ? LCOEF_WPAGE : LCOEF_RPAGE];
}

/* ---------------------------------------------------------------- io.weight */

u32 blkcg_weight_dfl(struct blkcg *blkcg)
{
	return READ_ONCE(blkcg->ioc_dfl_weight);
}

/* The weight in force changed for each of blkcg's groups on a controlled disk. */
void blkcg_set_weight_dfl(struct blkcg *blkcg, u32 weight)
{
	struct blkcg_gq *blkg;
	unsigned long flags;

	spin_lock_irqsave(&blkcg_lock, flags);
	WRITE_ONCE(blkcg->ioc_dfl_weight, weight);
	list_for_each_entry(blkg, &blkcg->blkgs, blkcg_node) {
		struct ioc *ioc = blkg->iocg.ioc;
		struct ioc_now now;

		if (!ioc)
			continue;
		spin_lock(&ioc->lock);
		ioc_now(ioc, &now);
		weight_updated(&blkg->iocg, &now);
		spin_unlock(&ioc->lock);
	}
	spin_unlock_irqrestore(&blkcg_lock, flags);
}

u32 blkcg_weight_on(struct blkcg *blkcg, struct gendisk *disk)
{
	struct throtl_data *td = blk_throtl_td_lookup(disk);
	struct blkcg_gq *blkg;
	unsigned long flags;
	u32 weight = 0;

	if (!td || !ioc_lookup(disk))
		return 0;
	spin_lock_irqsave(&blkcg_lock, flags);
	blkg = blkg_lookup(blkcg, td);
	if (blkg)
		weight = READ_ONCE(blkg->iocg.cfg_weight) / WEIGHT_ONE;
	spin_unlock_irqrestore(&blkcg_lock, flags);
	return weight;
}

int blkcg_set_weight_on(struct blkcg *blkcg, struct gendisk *disk, u32 weight)
{
	struct ioc *ioc = ioc_lookup(disk);
	struct throtl_data *td;
	struct blkcg_gq *blkg;
	struct ioc_now now;
	unsigned long flags;

	if (!ioc)
		return -EOPNOTSUPP;
	td = blk_throtl_td(disk);
	if (!td)
		return -ENOMEM;
	blkg = blkg_lookup_create(blkcg, td, GFP_KERNEL);
	if (blkg->blkcg != blkcg)
		return -ENOMEM; /* an ancestor's group stood in */
	spin_lock_irqsave(&ioc->lock, flags);
	ioc_now(ioc, &now);
	if (!blkg->iocg.ioc)
		iocg_init(ioc, &blkg->iocg, blkg, &now);
	blkg->iocg.cfg_weight = weight * WEIGHT_ONE;
	weight_updated(&blkg->iocg, &now);
	spin_unlock_irqrestore(&ioc->lock, flags);
	return 0;
}

/* ---------------------------------------------------------------- io.stat's cost.* keys */

/* Time still running (waiting, in debt, delayed since) counts up to now. */
static u64 iocg_stat_running(u64 acc, u64 since, u64 now_us)
{
	return acc + (since ? now_us - since : 0);
}

bool blkcg_iocost_stat(struct blkcg *blkcg, struct gendisk *disk, struct blkg_iocost_stat *st)
{
	struct ioc *ioc = ioc_lookup(disk);
	struct throtl_data *td = blk_throtl_td_lookup(disk);
	struct blkcg_gq *blkg;
	struct ioc_now now;
	unsigned long flags;

	memset(st, 0, sizeof(*st));
	if (!ioc || !td || !READ_ONCE(ioc->enabled))
		return false;
	spin_lock_irqsave(&blkcg_lock, flags);
	blkg = blkg_lookup(blkcg, td);
	spin_lock(&ioc->lock);
	ioc_now(ioc, &now);
	st->vrate_pct100 =
		(u32)((ioc->vtime_base_rate * 10000 + VTIME_PER_USEC / 2) / VTIME_PER_USEC);
	if (blkg && blkg->iocg.ioc) {
		struct ioc_gq *iocg = &blkg->iocg;

		st->usage_us = iocg->stat.usage_us + iocg->usage_vtime / VTIME_PER_USEC;
		st->wait_us = iocg_stat_running(iocg->stat.wait_us, iocg->wait_since, now.now);
		st->indebt_us = iocg_stat_running(iocg->stat.indebt_us, iocg->indebt_since, now.now);
		st->indelay_us =
			iocg_stat_running(iocg->stat.indelay_us, iocg->indelay_since, now.now);
	}
	spin_unlock(&ioc->lock);
	spin_unlock_irqrestore(&blkcg_lock, flags);
	return true;
}
