/*
 * io.weight, io.cost.qos and io.cost.model on real groups and disks: Linux 6.1's syntax
 * and answers (what each line reads back as, and the error of each kind of bad line), and
 * that a refused line changes nothing.
 */
#include <criterion/criterion.h>
#include <cgwb/blkdev.h>
#include <cgwb/blk-cgroup.h>
#include <cgwb/cgroup.h>
#include <cgwb/sched.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <stdlib.h>
#include "host.h"
#include "filedisk.h"
#include "../../../cg/io/io.h"
#include "../../../cg/cgroup/cgroup-internal.h"

#define DISK_BYTES (4 << 20)

static void *mem[2];

static void setup(void)
{
	host_platform_init(64 << 20);
	mem[0] = calloc(1, DISK_BYTES);
	mem[1] = calloc(1, DISK_BYTES);
	cr_assert(filedisk_add_mem("vda", mem[0], DISK_BYTES, false, NULL));
	cr_assert(filedisk_add_mem("vdb", mem[1], DISK_BYTES, false, NULL));
	cr_assert_eq(cgroup_subtree_control_write(&cgroup_root, "+io"), 0);
}

static void teardown(void)
{
	host_platform_exit();
	free(mem[0]);
	free(mem[1]);
}

TestSuite(io_cost_files, .init = setup, .fini = teardown);

static struct blkcg *blkcg_of(struct cgroup *cg)
{
	return css_to_blkcg(cg->subsys[io_cgrp_id]);
}

static struct cgroup *mkgroup(const char *name)
{
	struct cgroup *cg;

	cr_assert_eq(cgroup_mkdir(&cgroup_root, name, &cg), 0);
	return cg;
}

static const char *show(int (*fn)(struct seq_buf *, void *), void *private)
{
	static char text[512];
	struct seq_buf s;

	seq_buf_init(&s);
	cr_assert_eq(fn(&s, private), 0);
	cr_assert_lt(s.len, sizeof(text));
	memcpy(text, s.buf ? s.buf : "", s.len);
	text[s.len] = '\0';
	seq_buf_free(&s);
	return text;
}

static int store(int (*fn)(const char *, size_t, void *), void *private, const char *line)
{
	return fn(line, strlen(line), private);
}

#define WEIGHT(cg, line) store(blkcg_io_weight_store, blkcg_of(cg), line)
#define QOS(line) store(blkcg_io_cost_qos_store, blkcg_root, line)
#define MODEL(line) store(blkcg_io_cost_model_store, blkcg_root, line)

Test(io_cost_files, weight_default_and_per_disk)
{
	struct cgroup *a = mkgroup("a");

	cr_assert_str_eq(show(blkcg_io_weight_show, blkcg_of(a)), "default 100\n");
	cr_assert_eq(WEIGHT(a, "250\n"), 0);
	cr_assert_str_eq(show(blkcg_io_weight_show, blkcg_of(a)), "default 250\n");
	cr_assert_eq(WEIGHT(a, "default 10000"), 0);
	cr_assert_str_eq(show(blkcg_io_weight_show, blkcg_of(a)), "default 10000\n");
	/* a disk's own weight needs its io.cost (Linux: the policy is not active there) */
	cr_assert_eq(WEIGHT(a, "254:0 300"), -EOPNOTSUPP);
	cr_assert_eq(QOS("254:0 enable=1"), 0);
	cr_assert_eq(WEIGHT(a, "254:0 300\n"), 0);
	cr_assert_str_eq(show(blkcg_io_weight_show, blkcg_of(a)), "default 10000\n254:0 300\n");
	cr_assert_eq(WEIGHT(a, "254:0 default"), 0);
	cr_assert_str_eq(show(blkcg_io_weight_show, blkcg_of(a)), "default 10000\n");
}

Test(io_cost_files, weight_errors_change_nothing)
{
	static const struct {
		const char *line;
		int err;
	} bad[] = {
		{ "0", -EINVAL },         { "10001", -EINVAL },       { "-5", -EINVAL },
		{ "abc", -EINVAL },       { "default", -EINVAL },     { "", -EINVAL },
		{ "default 0", -EINVAL }, { "254:0 0", -EINVAL },     { "254:0 abc", -EINVAL },
		{ "254:0", -EINVAL },     { "254:0 10001", -EINVAL }, { "254:1 50", -ENODEV },
		{ "x:0 50", -EINVAL },    { "9:9 50", -ENODEV },
	};
	struct cgroup *a = mkgroup("a");

	cr_assert_eq(QOS("254:0 enable=1"), 0);
	cr_assert_eq(WEIGHT(a, "254:0 77"), 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		cr_expect_eq(WEIGHT(a, bad[i].line), bad[i].err, "'%s'", bad[i].line);
	cr_assert_str_eq(show(blkcg_io_weight_show, blkcg_of(a)), "default 100\n254:0 77\n");
	/* what sscanf leaves after the number is ignored, as in Linux */
	cr_assert_eq(WEIGHT(a, "50abc"), 0);
	cr_assert_str_eq(show(blkcg_io_weight_show, blkcg_of(a)), "default 50\n254:0 77\n");
}

Test(io_cost_files, qos_defaults_and_user_values)
{
	cr_assert_str_empty(show(blkcg_io_cost_qos_show, blkcg_root), "no disk configured yet");
	cr_assert_eq(QOS("254:16\n"), 0);
	cr_assert_str_eq(show(blkcg_io_cost_qos_show, blkcg_root), "254:16 enable=0 ctrl=auto "
								   "rpct=0.00 rlat=250000 "
								   "wpct=0.00 wlat=250000 "
								   "min=1.00 max=10000.00\n");
	cr_assert_eq(QOS("254:16 enable=1 rpct=95 rlat=75000 wpct=99.5 wlat=150000 min=50 "
			 "max=150.125"),
		     0);
	cr_assert_str_eq(show(blkcg_io_cost_qos_show, blkcg_root), "254:16 enable=1 ctrl=user "
								   "rpct=95.00 rlat=75000 "
								   "wpct=99.50 wlat=150000 "
								   "min=50.00 max=150.13\n");
	/* min and max are clamped to 1 %..10000 % */
	cr_assert_eq(QOS("254:16 min=0.5 max=20000"), 0);
	cr_assert(strstr(show(blkcg_io_cost_qos_show, blkcg_root), "min=1.00 max=10000.00\n"));
	/* ctrl=auto goes back to the built-in targets, enable stays */
	cr_assert_eq(QOS("254:16 ctrl=auto"), 0);
	cr_assert_str_eq(show(blkcg_io_cost_qos_show, blkcg_root), "254:16 enable=1 ctrl=auto "
								   "rpct=0.00 rlat=250000 "
								   "wpct=0.00 wlat=250000 "
								   "min=1.00 max=10000.00\n");
}

Test(io_cost_files, qos_errors_change_nothing)
{
	static const struct {
		const char *line;
		int err;
	} bad[] = {
		{ "254:0 rpct=101", -EINVAL },        { "254:0 rpct=-1", -EINVAL },
		{ "254:0 rpct=x", -EINVAL },          { "254:0 rlat=12x", -EINVAL },
		{ "254:0 rlat=-3", -EINVAL },         { "254:0 min=-1", -EINVAL },
		{ "254:0 min=200 max=100", -EINVAL }, { "254:0 ctrl=manual", -EINVAL },
		{ "254:0 bogus=1", -EINVAL },         { "254:0 enable", -EINVAL },
		{ "254:0 wlat=", -EINVAL },           { "garbage", -EINVAL },
		{ "254:3 enable=1", -ENODEV },
	};

	cr_assert_eq(QOS("254:0 enable=1 wpct=90 wlat=5000"), 0);
	const char *before = "254:0 enable=1 ctrl=user rpct=0.00 rlat=250000 wpct=90.00 wlat=5000 "
			     "min=1.00 max=10000.00\n";
	cr_assert_str_eq(show(blkcg_io_cost_qos_show, blkcg_root), before);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		cr_expect_eq(QOS(bad[i].line), bad[i].err, "'%s'", bad[i].line);
	cr_assert_str_eq(show(blkcg_io_cost_qos_show, blkcg_root), before);
}

Test(io_cost_files, model_auto_user_and_errors)
{
	const char *hdd = "254:0 ctrl=auto model=linear rbps=174019176 rseqiops=41708 "
			  "rrandiops=370 wbps=178075866 wseqiops=42705 wrandiops=378\n";

	cr_assert_eq(MODEL("254:0 ctrl=auto"), 0);
	cr_assert_str_eq(show(blkcg_io_cost_model_show, blkcg_root), hdd);
	cr_assert_eq(MODEL("254:0 model=linear wbps=33554432 wseqiops=8192 wrandiops=8192"), 0);
	cr_assert_str_eq(show(blkcg_io_cost_model_show, blkcg_root), "254:0 ctrl=user model=linear "
								     "rbps=174019176 "
								     "rseqiops=41708 "
								     "rrandiops=370 wbps=33554432 "
								     "wseqiops=8192 "
								     "wrandiops=8192\n");
	cr_assert_eq(MODEL("254:0 model=quadratic"), -EINVAL);
	cr_assert_eq(MODEL("254:0 wbps=abc"), -EINVAL);
	cr_assert_eq(MODEL("254:0 wbps=-1"), -EINVAL);
	cr_assert_eq(MODEL("254:0 iops=5"), -EINVAL);
	cr_assert_eq(MODEL("254:0 ctrl=x"), -EINVAL);
	cr_assert_eq(MODEL("7:0 wbps=1"), -ENODEV);
	cr_assert(strstr(show(blkcg_io_cost_model_show, blkcg_root), "wbps=33554432 "));
	cr_assert_eq(MODEL("254:0 ctrl=auto"), 0);
	cr_assert_str_eq(show(blkcg_io_cost_model_show, blkcg_root), hdd);
}
