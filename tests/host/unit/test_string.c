/* Number parsing and the string helpers outside ISO C (kernel/lib/string_ext.c, errname.c). */
#include <criterion/criterion.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/slab.h>
#include "host.h"

static void setup(void)
{
	host_platform_init(4 << 20); /* kstrdup needs kmalloc */
}

static void teardown(void)
{
	host_platform_exit();
}

TestSuite(string, .init = setup, .fini = teardown);

#define SENTINEL 0x5a5a5a5a5a5a5a5aULL

/* kstrtoull: expect err, and on success the value; on failure *res is left alone. */
static void ull(const char *s, unsigned int base, int err, u64 want)
{
	u64 v = SENTINEL;

	cr_assert_eq(kstrtoull(s, base, &v), err, "kstrtoull(\"%s\", %u)", s, base);
	cr_assert_eq(v, err ? SENTINEL : want, "kstrtoull(\"%s\", %u) = %llu", s, base, v);
}

static void ll(const char *s, unsigned int base, int err, s64 want)
{
	s64 v = 12345;

	cr_assert_eq(kstrtoll(s, base, &v), err, "kstrtoll(\"%s\", %u)", s, base);
	cr_assert_eq(v, err ? 12345 : want, "kstrtoll(\"%s\", %u) = %lld", s, base, v);
}

static void i32(const char *s, int err, int want)
{
	int v = 777;

	cr_assert_eq(kstrtoint(s, 10, &v), err, "kstrtoint(\"%s\")", s);
	cr_assert_eq(v, err ? 777 : want, "kstrtoint(\"%s\") = %d", s, v);
}

Test(string, kstrtoull_bases)
{
	ull("0", 10, 0, 0);
	ull("123", 10, 0, 123);
	ull("ff", 16, 0, 255);
	ull("0xff", 16, 0, 255);
	ull("0XFF", 16, 0, 255);
	ull("0x1f", 0, 0, 31);
	ull("017", 0, 0, 15);
	ull("017", 10, 0, 17);
	ull("0", 0, 0, 0);
	ull("777", 8, 0, 511);
	ull("101", 2, 0, 5);
}

Test(string, kstrtoull_signs_and_newline)
{
	ull("+5", 10, 0, 5);
	ull("12\n", 10, 0, 12);
	ull("0x10\n", 0, 0, 16);
	ull("-1", 10, -EINVAL, 0);
	ull("12\n\n", 10, -EINVAL, 0);
	ull("12 ", 10, -EINVAL, 0);
	ull(" 12", 10, -EINVAL, 0);
}

Test(string, kstrtoull_garbage_and_overflow)
{
	ull("", 10, -EINVAL, 0);
	ull("+", 10, -EINVAL, 0);
	ull("\n", 10, -EINVAL, 0);
	ull("abc", 10, -EINVAL, 0);
	ull("12a", 10, -EINVAL, 0);
	ull("8", 8, -EINVAL, 0);
	ull("0x", 0, -EINVAL, 0);
	ull("0x", 16, -EINVAL, 0);
	ull("1.5", 10, -EINVAL, 0);
	ull("18446744073709551615", 10, 0, UINT64_MAX);
	ull("0xffffffffffffffff", 0, 0, UINT64_MAX);
	ull("18446744073709551616", 10, -ERANGE, 0);
	ull("0x10000000000000000", 0, -ERANGE, 0);
	ull("99999999999999999999999", 10, -ERANGE, 0);
}

Test(string, kstrtoll_range_and_signs)
{
	ll("-42", 10, 0, -42);
	ll("+42", 10, 0, 42);
	ll("-0", 10, 0, 0);
	ll("-0x10", 0, 0, -16);
	ll("9223372036854775807", 10, 0, INT64_MAX);
	ll("-9223372036854775808", 10, 0, INT64_MIN);
	ll("9223372036854775808", 10, -ERANGE, 0);
	ll("-9223372036854775809", 10, -ERANGE, 0);
	ll("-", 10, -EINVAL, 0);
	ll("--1", 10, -EINVAL, 0);
	ll("-1x", 10, -EINVAL, 0);
	ll("-7\n", 10, 0, -7);
}

Test(string, kstrtoint_and_kstrtouint_ranges)
{
	unsigned int u = 9;

	i32("2147483647", 0, INT32_MAX);
	i32("-2147483648", 0, INT32_MIN);
	i32("2147483648", -ERANGE, 0);
	i32("-2147483649", -ERANGE, 0);
	i32("42\n", 0, 42);
	i32("4 2", -EINVAL, 0);
	cr_assert_eq(kstrtouint("4294967295", 10, &u), 0);
	cr_assert_eq(u, UINT32_MAX);
	cr_assert_eq(kstrtouint("4294967296", 10, &u), -ERANGE);
	cr_assert_eq(kstrtouint("-1", 10, &u), -EINVAL);
	cr_assert_eq(u, UINT32_MAX);
}

static void size_ok(const char *s, u64 want)
{
	u64 v = 0;

	cr_assert_eq(parse_size(s, &v), 0, "parse_size(\"%s\")", s);
	cr_assert_eq(v, want, "parse_size(\"%s\") = %llu", s, v);
}

static void size_err(const char *s, int err)
{
	u64 v = SENTINEL;

	cr_assert_eq(parse_size(s, &v), err, "parse_size(\"%s\")", s);
	cr_assert_eq(v, SENTINEL);
}

Test(string, parse_size_units)
{
	size_ok("0", 0);
	size_ok("512", 512);
	size_ok("4K", 4096);
	size_ok("4k", 4096);
	size_ok("16M", 16ULL << 20);
	size_ok("1G", 1ULL << 30);
	size_ok("2T", 2ULL << 40);
	size_ok("3KiB", 3072);
	size_ok("3kib", 3072);
	size_ok("64MiB\n", 64ULL << 20);
	size_ok("16777215T", 16777215ULL << 40);
}

Test(string, parse_size_bad_input)
{
	size_err("", -EINVAL);
	size_err("K", -EINVAL);
	size_err("4X", -EINVAL);
	size_err("4KB", -EINVAL);
	size_err("4 K", -EINVAL);
	size_err("-4K", -EINVAL);
	size_err("1.5G", -EINVAL);
	size_err("4Ki", -EINVAL);
	size_err("16777216T", -ERANGE);
	size_err("17179869184G", -ERANGE);
	size_err("99999999999999999999", -ERANGE);
}

Test(string, strlcpy_truncates_and_reports_the_full_length)
{
	char buf[8];

	memset(buf, 'x', sizeof(buf));
	cr_assert_eq(strlcpy(buf, "hello world", sizeof(buf)), 11);
	cr_assert_str_eq(buf, "hello w");
	cr_assert_eq(strlcpy(buf, "1234567", sizeof(buf)), 7);
	cr_assert_str_eq(buf, "1234567");
	cr_assert_eq(strlcpy(buf, "", sizeof(buf)), 0);
	cr_assert_str_eq(buf, "");
	buf[0] = 'q';
	cr_assert_eq(strlcpy(buf, "abc", 0), 3);
	cr_assert_eq(buf[0], 'q', "size 0 writes nothing");
}

Test(string, strlcat_truncates_and_reports_the_full_length)
{
	char buf[8] = "abc";
	char full[4] = { 'w', 'x', 'y', 'z' }; /* not terminated within its size */

	cr_assert_eq(strlcat(buf, "defghij", sizeof(buf)), 10);
	cr_assert_str_eq(buf, "abcdefg");
	cr_assert_eq(strlcat(buf, "more", sizeof(buf)), 11);
	cr_assert_str_eq(buf, "abcdefg");
	cr_assert_eq(strlcat(full, "ab", sizeof(full)), 6);
	cr_assert_eq(memcmp(full, "wxyz", 4), 0, "an unterminated buffer is left alone");
	char ok[8] = "";
	cr_assert_eq(strlcat(ok, "hi", sizeof(ok)), 2);
	cr_assert_str_eq(ok, "hi");
}

Test(string, strim_trims_both_ends)
{
	char a[] = "  \t hi there \n\t", b[] = " \n ", c[] = "", d[] = "x";

	cr_assert_str_eq(strim(a), "hi there");
	cr_assert_str_eq(strim(b), "");
	cr_assert_str_eq(strim(c), "");
	cr_assert_str_eq(strim(d), "x");
	cr_assert_eq(strim(d), d);
}

Test(string, scnprintf_counts_what_was_written)
{
	char buf[5];

	cr_assert_eq(scnprintf(buf, sizeof(buf), "%s", "hello world"), 4);
	cr_assert_str_eq(buf, "hell");
	cr_assert_eq(scnprintf(buf, sizeof(buf), "%d", 42), 2);
	cr_assert_eq(scnprintf(buf, 0, "%d", 42), 0);
	cr_assert(str_has_prefix("memory.max", "memory."));
	cr_assert_not(str_has_prefix("mem", "memory"));
}

Test(string, kstrdup_and_kstrndup)
{
	char *a = kstrdup("cgroup", GFP_KERNEL), *b = kstrndup("writeback", 5, GFP_KERNEL);

	cr_assert_str_eq(a, "cgroup");
	cr_assert_str_eq(b, "write");
	cr_assert_null(kstrdup(NULL, GFP_KERNEL));
	kfree(a);
	kfree(b);
}

Test(string, errstr_names_errors_either_sign)
{
	cr_assert_str_eq(errstr(-EIO), "Input/output error");
	cr_assert_str_eq(errstr(EIO), "Input/output error");
	cr_assert_str_eq(errstr(-ENOMEM), "Cannot allocate memory");
	cr_assert_str_eq(errstr(-ENOSPC), "No space left on device");
	cr_assert_str_eq(errstr(-EUCLEAN), "Structure needs cleaning");
	cr_assert_str_eq(errstr(-9999), "Unknown error");
	cr_assert_str_eq(errstr(0), "Unknown error");
}
