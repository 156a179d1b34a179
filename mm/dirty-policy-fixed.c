/*
 * The "fixed" policy: every cgroup's wb may hold at most dirty_fixed_kbytes KiB dirty and
 * under writeback, whatever its speed; the root's wb is left to Linux's law.
 *
 * It is the template of a policy (docs/writing-a-policy.md): copy this file, rename the
 * policy and its parameter, list it in dirty_policies[] (mm/dirty-policy.c), and change
 * fixed_wb_limits(). Only the limits are its own; the position (the domains' cubic from
 * half of the limit to all of it), the pauses and the ratelimit's bandwidth are the
 * defaults of mm/dirty-policy.h. tests/host/sim/test_sim_policy.c is its simulator test.
 */
#include <cgwb/backing-dev.h>
#include <cgwb/mm.h>
#include "dirty-policy.h"

unsigned int dirty_fixed_kbytes = 16384;

static void fixed_wb_limits(struct dirty_throttle_control *pdtc,
			    const struct dirty_throttle_control *gdtc)
{
	if (wb_is_root(pdtc->wb))
		return; /* thresh stays 0: no limit of this policy */
	pdtc->thresh = max(READ_ONCE(dirty_fixed_kbytes) / (PAGE_SIZE / 1024), 1UL);
	pdtc->bg_thresh = pdtc->thresh / 2;
}

static const struct dirty_policy_param fixed_params[] = {
	{ .name = "dirty_fixed_kbytes", .value = &dirty_fixed_kbytes, .min = 4, .max = 1U << 30 },
	{ .name = NULL },
};

const struct dirty_policy dirty_policy_fixed = {
	.name = "fixed",
	.wb_limits = fixed_wb_limits,
	.params = fixed_params,
};
