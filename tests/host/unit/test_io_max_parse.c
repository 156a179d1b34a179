/*
 * io.max lines (cg/io/io-max.c io_max_parse): the accepted forms, and every kind of bad line
 * with Linux's error for it. The file's behaviour on real groups (all or nothing, -ENODEV,
 * reading back) is in test_io_max_files.c.
 */
#include <criterion/criterion.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include "../../../cg/io/io.h"

TestSuite(io_max_parse);

static struct io_max_conf parse_ok(const char *line)
{
	struct io_max_conf conf;
	int err = io_max_parse(line, &conf);

	cr_assert_eq(err, 0, "'%s': %d", line, err);
	return conf;
}

Test(io_max_parse, one_key)
{
	struct io_max_conf c = parse_ok("254:0 wbps=1048576");

	cr_assert_eq(c.major, 254);
	cr_assert_eq(c.minor, 0);
	cr_assert(c.lim.set[BLKCG_LIMIT_WBPS]);
	cr_assert_eq(c.lim.val[BLKCG_LIMIT_WBPS], 1048576);
	cr_assert_not(c.lim.set[BLKCG_LIMIT_RBPS] || c.lim.set[BLKCG_LIMIT_RIOPS] ||
		      c.lim.set[BLKCG_LIMIT_WIOPS]);
}

Test(io_max_parse, every_key_any_order_and_max)
{
	struct io_max_conf c = parse_ok("254:16 wiops=3 riops=2 rbps=max wbps=1\n");

	cr_assert_eq(c.minor, 16);
	cr_assert_eq(c.lim.val[BLKCG_LIMIT_RBPS], U64_MAX, "max: no limit");
	cr_assert_eq(c.lim.val[BLKCG_LIMIT_WBPS], 1);
	cr_assert_eq(c.lim.val[BLKCG_LIMIT_RIOPS], 2);
	cr_assert_eq(c.lim.val[BLKCG_LIMIT_WIOPS], 3);
	for (int k = 0; k < BLKCG_LIMIT_NR; k++)
		cr_assert(c.lim.set[k]);
}

Test(io_max_parse, spacing_and_largest_value)
{
	struct io_max_conf c = parse_ok("  8:1\twbps=18446744073709551615   riops=7 \n");

	cr_assert_eq(c.major, 8);
	cr_assert_eq(c.lim.val[BLKCG_LIMIT_WBPS], U64_MAX);
	cr_assert_eq(c.lim.val[BLKCG_LIMIT_RIOPS], 7);
}

Test(io_max_parse, a_key_given_twice_keeps_the_last)
{
	struct io_max_conf c = parse_ok("254:0 wbps=5 wbps=6");

	cr_assert_eq(c.lim.val[BLKCG_LIMIT_WBPS], 6);
}

Test(io_max_parse, device_alone_changes_nothing)
{
	struct io_max_conf c = parse_ok("254:0\n");

	for (int k = 0; k < BLKCG_LIMIT_NR; k++)
		cr_assert_not(c.lim.set[k]);
}

static void parse_bad(const char *line, int want)
{
	struct io_max_conf conf;

	cr_assert_eq(io_max_parse(line, &conf), want, "'%s'", line);
}

Test(io_max_parse, malformed_lines_are_einval)
{
	static const char *const bad[] = {
		"",
		"\n",
		"   ",
		"254",
		"254:",
		":0",
		"a:b",
		"254:0x",
		"-1:0",
		"254:0:1",
		"254:0 wbps",
		"254:0 wbps=",
		"254:0 =5",
		"254:0 wbps=-1",
		"254:0 wbps=1x",
		"254:0 wbps=0x10",
		"254:0 wbps=1.5",
		"254:0 wbps=MAX",
		"254:0 wbps = 5",
		"254:0 wbps=18446744073709551616",
		"254:0 rbps=1 bogus",
		"254:0 wbps=1 254:16 wbps=2",
		"254:0 wbps=1111111111111111111111111111111111",
		"254:0 foo=1",
		"254:0 rbps=1 WBPS=2",
		"254:0 wbpsx=1",
		"254:0 idle=5",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		parse_bad(bad[i], -EINVAL);
}

Test(io_max_parse, zero_is_erange)
{
	parse_bad("254:0 wbps=0", -ERANGE);
	parse_bad("254:0 rbps=5 riops=0 wiops=5", -ERANGE);
	/* Linux looks at the value before the key */
	parse_bad("254:0 foo=0", -ERANGE);
}
