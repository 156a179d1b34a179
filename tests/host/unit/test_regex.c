/* grep's regular expressions (shell/lang/regex.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <cgwb/errno.h>
#include "host.h"
#include "../../../shell/lang/regex.h"

static void setup(void)
{
	host_platform_init(16 << 20);
}

static void teardown(void)
{
	host_platform_exit();
}

TestSuite(regex, .init = setup, .fini = teardown);

static bool m(const char *pattern, bool ere, const char *line)
{
	struct regex *re;
	cr_assert_eq(regex_compile(&re, pattern, ere, false), 0, "compile %s", pattern);
	bool r = regex_match(re, line);
	regex_free(re);
	return r;
}

Test(regex, literals_anchors_and_dot)
{
	cr_assert(m("file", false, "memory file 12"));
	cr_assert_not(m("^file", false, "memory file 12"));
	cr_assert(m("^file ", false, "file 12"));
	cr_assert(m("12$", false, "file 12"));
	cr_assert_not(m("1$", false, "file 12"));
	cr_assert(m("f.le", false, "a fxle b"));
	cr_assert(m("^$", false, ""));
	cr_assert_not(m("^$", false, "x"));
}

Test(regex, classes_and_quantifiers)
{
	cr_assert(m("[0-9][0-9]*", false, "abc 7"));
	cr_assert_not(m("[0-9]", false, "abc"));
	cr_assert(m("^[^0-9]*$", false, "abc"));
	cr_assert(m("^ab+c$", true, "abbbc"));
	cr_assert_not(m("^ab+c$", true, "ac"));
	cr_assert(m("^ab?c$", true, "ac"));
	cr_assert(m("^ab+c$", false, "ab+c"), "in BRE '+' is literal");
	cr_assert(m("^a\\+$", false, "aaa"), "escaped in BRE it is the quantifier");
	cr_assert(m("^(ab)*$", true, "ababab"));
	cr_assert_not(m("^(ab)*$", true, "ababa"));
}

Test(regex, alternation_and_groups)
{
	cr_assert(m("cat|dog", true, "hot dog"));
	cr_assert(m("^(wbytes|rbytes)=", true, "rbytes=1"));
	cr_assert_not(m("^(wbytes|rbytes)=", true, "dbytes=1"));
	cr_assert(m("a|", true, "zzz"), "an empty alternative matches anywhere");
	cr_assert(m("^(a*)*b$", true, "aaab"));
}

Test(regex, errors_and_pathological_patterns)
{
	struct regex *re;
	cr_assert_eq(regex_compile(&re, "(", true, false), -EINVAL);
	cr_assert_eq(regex_compile(&re, "a)", true, false), -EINVAL);
	cr_assert_eq(regex_compile(&re, "[abc", false, false), -EINVAL);
	/* exponential backtracking gives up instead of hanging */
	cr_assert_eq(regex_compile(&re, "^(a|a)*(a|a)*(a|a)*b$", true, false), 0);
	cr_assert_not(regex_match(re, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
	regex_free(re);
	cr_assert_eq(regex_compile(&re, "abc", false, true), 0);
	cr_assert(regex_match(re, "xABCx"), "-i");
	regex_free(re);
}

Test(regex, intervals)
{
	cr_assert(m("^a{2}$", true, "aa"));
	cr_assert_not(m("^a{2}$", true, "aaa"));
	cr_assert(m("^a{2,}$", true, "aaaa"));
	cr_assert(m("^a{1,3}b$", true, "aaab"));
	cr_assert_not(m("^a{1,3}b$", true, "aaaab"));
	cr_assert(m("^(ab){2}$", true, "abab"));
	cr_assert(m("^[0-9]\\{3\\}$", false, "123"), "BRE: \\{m\\}");
	cr_assert(m("^a{2}$", false, "a{2}"), "BRE: a plain { is literal");
	struct regex *re;
	cr_assert_eq(regex_compile(&re, "a{3,1}", true, false), -EINVAL);
	cr_assert_eq(regex_compile(&re, "a{2", true, false), -EINVAL);
	cr_assert_eq(regex_compile(&re, "a{999}", true, false), -EINVAL);
}

/* regex_search from offset from: "so-eo" of the match, or "none". */
static const char *search(const char *pattern, const char *line, int from)
{
	static char out[32];
	struct regex *re;
	int so, eo;

	cr_assert_eq(regex_compile(&re, pattern, true, false), 0, "compile %s", pattern);
	if (regex_search(re, line, from, &so, &eo))
		snprintf(out, sizeof(out), "%d-%d", so, eo);
	else
		snprintf(out, sizeof(out), "none");
	regex_free(re);
	return out;
}

Test(regex, search_positions_for_grep_o)
{
	cr_assert_str_eq(search("[0-9]+", "up 123.45 s", 0), "3-6");
	cr_assert_str_eq(search("[0-9]+", "up 123.45 s", 6), "7-9");
	cr_assert_str_eq(search("[0-9]+", "up 123.45 s", 9), "none");
	cr_assert_str_eq(search("^up", "up up", 1), "none");
	cr_assert_str_eq(search("x*", "abc", 0), "0-0");
	cr_assert_str_eq(search("b+$", "abb", 0), "1-3");
}
