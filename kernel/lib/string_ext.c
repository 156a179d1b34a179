/* String helpers outside ISO C, and number parsing (portable: kernel and host). */
#include <cgwb/string.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;
		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

size_t strlcat(char *dst, const char *src, size_t size)
{
	size_t d = strnlen(dst, size);

	if (d == size)
		return d + strlen(src);
	return d + strlcpy(dst + d, src, size - d);
}

char *kstrndup(const char *s, size_t max, gfp_t gfp)
{
	size_t n = strnlen(s, max);
	char *p = kmalloc(n + 1, gfp);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

char *kstrdup(const char *s, gfp_t gfp)
{
	return s ? kstrndup(s, strlen(s), gfp) : NULL;
}

int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, size, fmt, ap);

	if (n < 0 || !size)
		return 0;
	return (size_t)n < size ? n : (int)(size - 1);
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

char *strim(char *s)
{
	size_t n = strlen(s);

	while (n && is_space(s[n - 1]))
		s[--n] = '\0';
	while (is_space(*s))
		s++;
	return s;
}

bool str_has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Parse digits at *sp; stops at the first non-digit. */
static int parse_digits(const char **sp, unsigned int base, u64 *res)
{
	const char *s = *sp;
	u64 v = 0;
	int nd = 0;

	if (base == 0) {
		base = 10;
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2]) {
			base = 16;
			s += 2;
		} else if (s[0] == '0' && s[1]) {
			base = 8;
		}
	} else if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
	}
	for (;; s++, nd++) {
		unsigned int d;
		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A' + 10);
		else
			break;
		if (d >= base)
			break;
		if (v > (~0ULL - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (!nd)
		return -EINVAL;
	*sp = s;
	*res = v;
	return 0;
}

static bool at_end(const char *s)
{
	if (*s == '\n')
		s++;
	return *s == '\0';
}

int kstrtoull(const char *s, unsigned int base, u64 *res)
{
	u64 v;
	int err;

	if (*s == '+')
		s++;
	err = parse_digits(&s, base, &v);
	if (err)
		return err;
	if (!at_end(s))
		return -EINVAL;
	*res = v;
	return 0;
}

int kstrtoll(const char *s, unsigned int base, s64 *res)
{
	bool neg = *s == '-';
	u64 v;
	int err = kstrtoull(neg ? s + 1 : s, base, &v);

	if (err)
		return err;
	if (neg ? v > (u64)INT64_MAX + 1 : v > (u64)INT64_MAX)
		return -ERANGE;
	*res = neg ? (s64)(0 - v) : (s64)v;
	return 0;
}

int kstrtouint(const char *s, unsigned int base, unsigned int *res)
{
	u64 v;
	int err = kstrtoull(s, base, &v);

	if (err)
		return err;
	if (v > UINT32_MAX)
		return -ERANGE;
	*res = (unsigned int)v;
	return 0;
}

int kstrtoint(const char *s, unsigned int base, int *res)
{
	s64 v;
	int err = kstrtoll(s, base, &v);

	if (err)
		return err;
	if (v > INT32_MAX || v < INT32_MIN)
		return -ERANGE;
	*res = (int)v;
	return 0;
}

int parse_size(const char *s, u64 *res)
{
	u64 v;
	int err = parse_digits(&s, 10, &v);
	unsigned int shift = 0;

	if (err)
		return err;
	switch (*s) {
	case 'k':
	case 'K':
		shift = 10;
		s++;
		break;
	case 'm':
	case 'M':
		shift = 20;
		s++;
		break;
	case 'g':
	case 'G':
		shift = 30;
		s++;
		break;
	case 't':
	case 'T':
		shift = 40;
		s++;
		break;
	}
	if (shift && (*s == 'i' || *s == 'I') && (s[1] == 'B' || s[1] == 'b'))
		s += 2; /* "KiB" */
	if (!at_end(s))
		return -EINVAL;
	if (shift && v > (~0ULL >> shift))
		return -ERANGE;
	*res = v << shift;
	return 0;
}
