/*
 * io.cost's linear model (calc_vtime_cost()): a bio costs its base (sequential or random,
 * against where the group's last IO ended) plus its pages. A group's first IO has
 * nothing to seek from and is sequential, as Linux's calc_vtime_cost_builtin().
 */
#include <criterion/criterion.h>
#include <cgwb/bio.h>
#include <cgwb/string.h>
#include "../../../block/blk-iocost.h"

static struct ioc ioc;
static struct ioc_gq iocg;

static void setup(void)
{
	memset(&ioc, 0, sizeof(ioc));
	memset(&iocg, 0, sizeof(iocg));
	ioc.params.lcoefs[LCOEF_WSEQIO] = 10;
	ioc.params.lcoefs[LCOEF_WRANDIO] = 1000;
	ioc.params.lcoefs[LCOEF_WPAGE] = 1;
	iocg.ioc = &ioc;
}

TestSuite(iocost_cost, .init = setup);

static u64 write_cost(sector_t sector, unsigned int bytes)
{
	struct bio bio = { .bi_opf = REQ_OP_WRITE, .bi_sector = sector, .bi_size = bytes };

	return calc_vtime_cost(&iocg, &bio);
}

Test(iocost_cost, first_io_is_sequential_then_the_cursor_decides)
{
	cr_assert_eq(write_cost(1ULL << 30, 4096), 10 + 1, "first IO, far from sector 0");
	cr_assert_eq(iocg.cursor, (1ULL << 30) + 8);
	cr_assert_eq(write_cost((1ULL << 30) + 8, 16384), 10 + 4, "where the last one ended");
	cr_assert_eq(write_cost(0, 4096), 1000 + 1, "a seek of 512 MiB");
	cr_assert_eq(write_cost(8 + 4096 * 8, 4096), 10 + 1, "16 MiB away is still sequential");
}
