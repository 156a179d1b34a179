/*
 * The kernel's vsnprintf (kernel/platform/vsprintf.c). Host builds use the C library's, so
 * the kernel's file is compiled into this test under other names; each case is checked
 * against a literal, and the common subset against the C library as well.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>
#include <sys/types.h>

#define vsnprintf kernel_vsnprintf
#define snprintf kernel_snprintf
/*
 * Its prototypes are in the kernel's half of cgwb/string.h, which a host build skips; so
 * kernel_snprintf() has no printf attribute here either, which lets through the cases a
 * compiler would warn about, kept because the kernel must still print them as it did.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#include "kernel/platform/vsprintf.c"
#pragma GCC diagnostic pop
#undef vsnprintf
#undef snprintf

TestSuite(vsprintf);

/* fmt's output must be want, in full, and the result its length. */
#define EXPECT(want, fmt, ...)                                                              \
	do {                                                                                \
		char buf_[128];                                                             \
		int r_ = kernel_snprintf(buf_, sizeof(buf_), fmt, ##__VA_ARGS__);           \
		cr_assert_str_eq(buf_, want, "format \"%s\"", fmt);                         \
		cr_assert_eq(r_, (int)strlen(want), "format \"%s\": returned %d", fmt, r_); \
	} while (0)

/* As EXPECT, and the C library must agree. */
#define SAME(want, fmt, ...)                                                                         \
	do {                                                                                         \
		char libc_[128];                                                                     \
		EXPECT(want, fmt, ##__VA_ARGS__);                                                    \
		cr_assert_eq(snprintf(libc_, sizeof(libc_), fmt, ##__VA_ARGS__), (int)strlen(want)); \
		cr_assert_str_eq(libc_, want, "C library, format \"%s\"", fmt);                      \
	} while (0)

Test(vsprintf, plain_text_and_percent)
{
	EXPECT("", "");
	SAME("hello", "hello");
	SAME("100%", "100%%");
	SAME("%%", "%%%%");
}

Test(vsprintf, signed_decimal)
{
	SAME("0", "%d", 0);
	SAME("42", "%d", 42);
	SAME("-42", "%i", -42);
	SAME("-2147483648", "%d", INT_MIN);
	SAME("2147483647", "%i", INT_MAX);
	SAME("-9223372036854775808", "%ld", LONG_MIN);
	SAME("9223372036854775807", "%lld", LLONG_MAX);
	SAME("-1", "%zd", (ssize_t)-1);
	SAME("-3", "%td", (ptrdiff_t)-3);
	SAME("-5", "%jd", (intmax_t)-5);
	SAME("-1", "%hd", 65535);
	SAME("-1", "%hhd", 255);
	SAME("+5", "%+d", 5);
	SAME(" 5", "% d", 5);
	SAME("-5", "%+d", -5);
}

Test(vsprintf, unsigned_and_hex)
{
	SAME("4294967295", "%u", UINT_MAX);
	SAME("18446744073709551615", "%lu", ULONG_MAX);
	SAME("18446744073709551615", "%llu", ULLONG_MAX);
	SAME("18446744073709551615", "%zu", SIZE_MAX);
	SAME("1", "%hhu", 257);
	SAME("1", "%hu", 65537);
	SAME("beef", "%x", 0xbeef);
	SAME("BEEF", "%X", 0xbeef);
	SAME("ffffffffffffffff", "%lx", ULONG_MAX);
	SAME("123456789abcdef0", "%llx", 0x123456789abcdef0ULL);
	SAME("0xff", "%#x", 255);
	SAME("0XFF", "%#X", 255);
	SAME("0", "%#x", 0);
	SAME("0x2a", "%#llx", 42ULL);
	SAME("10", "%o", 8);
	SAME("010", "%#o", 8);
	SAME("0755", "%04o", 0755);
}

Test(vsprintf, width_and_flags_on_numbers)
{
	SAME("   42", "%5d", 42);
	SAME("42   |", "%-5d|", 42);
	SAME("00042", "%05d", 42);
	SAME("-0042", "%05d", -42);
	SAME("+0042", "%+05d", 42);
	SAME("  -42", "%5d", -42);
	SAME("-42  |", "%-5d|", -42);
	SAME("0x00ff", "%#06x", 255);
	SAME("00000000deadbeef", "%016llx", 0xdeadbeefULL);
	SAME("   2a", "%5x", 42);
	SAME("42", "%1d", 42);
	SAME("      1234", "%10lu", 1234UL);
	SAME("007", "%03llu", 7ULL);
	SAME("00012", "%0*llu", 5, 12ULL);
	SAME("   12", "%*llu", 5, 12ULL);
	SAME("12   |", "%*u|", -5, 12u);
}

Test(vsprintf, precision_on_numbers)
{
	SAME("005", "%.3d", 5);
	SAME("-005", "%.3d", -5);
	SAME("     005", "%8.3d", 5);
	SAME("", "%.0d", 0);
	SAME("", "%.0x", 0);
	SAME("7", "%.0u", 7);
	SAME("0012", "%.*u", 4, 12u);
	/* the 0 flag gives way to a precision, and to '-' (C99 too; gcc warns of both) */
	EXPECT("     005", "%08.3d", 5);
	EXPECT("42   |", "%-05d|", 42);
}

Test(vsprintf, strings)
{
	SAME("abc", "%s", "abc");
	SAME("", "%s", "");
	SAME("  abc", "%5s", "abc");
	SAME("abc  |", "%-5s|", "abc");
	SAME("ab", "%.2s", "abc");
	SAME("", "%.0s", "abc");
	SAME("abc", "%.10s", "abc");
	SAME("   ab", "%5.2s", "abc");
	SAME("abc", "%.*s", 3, "abcdef");
	SAME("  abc", "%*s", 5, "abc");
	SAME("abc  |", "%*s|", -5, "abc");
	SAME("abcdef", "%2s", "abcdef");
	/* a negative precision through '*' is no precision */
	SAME("abcdef", "%.*s", -1, "abcdef");
	/* precision bounds the read: the string need not be terminated */
	static const char unterminated[3] = { 'x', 'y', 'z' };
	SAME("xyz", "%.3s", unterminated);
	EXPECT("(null)", "%s", (char *)NULL);
	EXPECT("(nu", "%.3s", (char *)NULL);
}

Test(vsprintf, characters)
{
	SAME("x", "%c", 'x');
	SAME("  x", "%3c", 'x');
	SAME("x  |", "%-3c|", 'x');
	SAME("a-b", "%c-%c", 'a', 'b');
}

Test(vsprintf, pointers)
{
	SAME("0x1234", "%p", (void *)0x1234);
	SAME("0xffff800000001000", "%p", (void *)0xffff800000001000UL);
	SAME("    0x1234", "%10p", (void *)0x1234);
	/* the C library prints "(nil)" */
	EXPECT("0", "%p", (void *)NULL);
}

Test(vsprintf, mixed)
{
	SAME("sda: 8:0 size=1024 ro=0", "%s: %u:%u size=%llu ro=%d", "sda", 8u, 0u, 1024ULL, 0);
	SAME("[    0.001000] x", "[%5llu.%06llu] %s", 0ULL, 1000ULL, "x");
	SAME("|a   |  12|0x1f|", "|%-4s|%4d|%#x|", "a", 12, 31);
}

/* Not C99's, but what the kernel has always done with them. */
Test(vsprintf, malformed_conversions)
{
	EXPECT("%q", "%q");
	EXPECT("a%yb", "a%yb");
	EXPECT("abc", "abc%");
	EXPECT("%", "%5%");
	/* C99 signs only d and i */
	EXPECT("+5", "%+u", 5u);
	EXPECT(" 0x10", "% p", (void *)0x10);
}

Test(vsprintf, truncation_returns_the_full_length)
{
	char buf[8];

	memset(buf, '#', sizeof(buf));
	cr_assert_eq(kernel_snprintf(buf, 4, "hello"), 5);
	cr_assert_str_eq(buf, "hel");
	cr_assert_eq(buf[4], '#', "nothing written past size");

	memset(buf, '#', sizeof(buf));
	cr_assert_eq(kernel_snprintf(buf, 1, "%d", 12345), 5);
	cr_assert_eq(buf[0], '\0');
	cr_assert_eq(buf[1], '#');

	memset(buf, '#', sizeof(buf));
	cr_assert_eq(kernel_snprintf(buf, 0, "%s-%s", "ab", "cd"), 5);
	cr_assert_eq(buf[0], '#', "size 0 writes nothing");
	cr_assert_eq(kernel_snprintf(NULL, 0, "%05d", 1), 5);

	memset(buf, '#', sizeof(buf));
	cr_assert_eq(kernel_snprintf(buf, sizeof(buf), "%-10s|", "ab"), 11);
	cr_assert_str_eq(buf, "ab     ");

	memset(buf, '#', sizeof(buf));
	cr_assert_eq(kernel_snprintf(buf, 6, "%016llx", 0xabcULL), 16);
	cr_assert_str_eq(buf, "00000");

	memset(buf, '#', sizeof(buf));
	cr_assert_eq(kernel_snprintf(buf, 6, "abcdef"), 6);
	cr_assert_str_eq(buf, "abcde");
	cr_assert_eq(kernel_snprintf(buf, 7, "abcdef"), 6);
	cr_assert_str_eq(buf, "abcdef");
}

Test(vsprintf, snprintf_is_vsnprintf)
{
	char buf[16];

	cr_assert_eq(kernel_snprintf(buf, sizeof(buf), "%s=%d", "n", 7), 3);
	cr_assert_str_eq(buf, "n=7");
	cr_assert_eq(kernel_snprintf(buf, 3, "%s=%d", "n", 700), 5);
	cr_assert_str_eq(buf, "n=");
}
