/*
 * sh pattern matching (portable). A star remembers where it was: on a mismatch the match
 * resumes one character further after the last star, which is enough for patterns without
 * nested groups and needs no recursion (the kernel stack is small).
 */
#include <cgwb/string.h>
#include "pattern.h"

/*
 * Match one bracket expression at *pp against c; *pp moves past the closing ']'. A '['
 * without its ']' is an ordinary character (returns -1 so the caller compares it as one).
 */
static int match_bracket(const char **pp, char c)
{
	const char *p = *pp + 1;
	bool negate = *p == '!' || *p == '^';
	bool hit = false;

	if (negate)
		p++;
	/* A ']' first in the list is a member, not the end. */
	for (bool first = true; *p && (first || *p != ']'); first = false) {
		char lo = *p, hi;

		if (lo == '\\' && p[1])
			lo = *++p;
		p++;
		hi = lo;
		if (*p == '-' && p[1] && p[1] != ']') {
			hi = p[1];
			if (hi == '\\' && p[2])
				hi = *++p;
			p += 2;
		}
		if (c >= lo && c <= hi)
			hit = true;
	}
	if (*p != ']')
		return -1;
	*pp = p + 1;
	return hit != negate;
}

/* Match the single pattern element at *pp against c, moving *pp past it. */
static bool match_one(const char **pp, char c)
{
	const char *p = *pp;
	int r;

	if (*p == '?') {
		*pp = p + 1;
		return true;
	}
	if (*p == '[') {
		r = match_bracket(pp, c);
		if (r >= 0)
			return r;
	}
	if (*p == '\\' && p[1])
		p++;
	*pp = p + 1;
	return *p == c;
}

bool sh_pattern_match(const char *pat, const char *s, size_t len)
{
	const char *star_p = NULL;
	size_t i = 0, star_i = 0;

	for (;;) {
		if (*pat == '*') {
			while (*pat == '*')
				pat++;
			star_p = pat;
			star_i = i;
			continue;
		}
		if (!*pat && i == len)
			return true;
		if (*pat && i < len) {
			const char *next = pat;

			if (match_one(&next, s[i])) {
				pat = next;
				i++;
				continue;
			}
		}
		/* Mismatch: let the last star swallow one more character. */
		if (!star_p || star_i >= len)
			return false;
		pat = star_p;
		i = ++star_i;
	}
}

bool sh_pattern_has_magic(const char *pat)
{
	for (; *pat; pat++) {
		if (*pat == '\\' && pat[1])
			pat++;
		else if (*pat == '*' || *pat == '?')
			return true;
		/* a '[' without its ']' is an ordinary character: "[" (test) is no pattern */
		else if (*pat == '[' && pat[1] && strchr(pat + 2, ']'))
			return true;
	}
	return false;
}

void sh_pattern_unescape(char *pat)
{
	char *out = pat;

	for (; *pat; pat++) {
		if (*pat == '\\' && pat[1])
			pat++;
		*out++ = *pat;
	}
	*out = '\0';
}
