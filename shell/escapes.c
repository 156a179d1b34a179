/* Backslash escapes of echo -e, printf's format and %b: \n \t \\ \0NNN \xHH ... */
#include <cgwb/string.h>
#include "escapes.h"

static int digit_value(char c, int base)
{
	int v = c >= '0' && c <= '9' ? c - '0' :
		c >= 'a' && c <= 'f' ? c - 'a' + 10 :
		c >= 'A' && c <= 'F' ? c - 'A' + 10 :
				       99;

	return v < base ? v : -1;
}

/* Up to max digits of base at s: the value, and how many digits were used. */
static int read_digits(const char *s, int base, int max, int *used)
{
	int v = 0, d;

	for (*used = 0; *used < max && (d = digit_value(s[*used], base)) >= 0; (*used)++)
		v = v * base + d;
	return v;
}

const char *sh_unescape_one(const char *s, struct strbuf *out, bool *stop)
{
	static const char from[] = "abefnrtv\\", to[] = "\a\b\x1b\f\n\r\t\v\\";
	const char *hit = s[0] ? strchr(from, s[0]) : NULL;
	int used;

	if (hit) {
		sb_addc(out, to[hit - from]);
		return s + 1;
	}
	switch (s[0]) {
	case 'c':
		*stop = true;
		return s + 1;
	case '0':
		sb_addc(out, (char)read_digits(s + 1, 8, 3, &used));
		return s + 1 + used;
	case 'x':
		if (digit_value(s[1], 16) >= 0) {
			sb_addc(out, (char)read_digits(s + 1, 16, 2, &used));
			return s + 1 + used;
		}
		break;
	}
	sb_addc(out, '\\'); /* not an escape: kept as typed */
	return s;
}

bool sh_unescape(const char *s, struct strbuf *out)
{
	bool stop = false;

	while (*s && !stop) {
		if (*s == '\\' && s[1])
			s = sh_unescape_one(s + 1, out, &stop);
		else
			sb_addc(out, *s++);
	}
	return stop;
}
