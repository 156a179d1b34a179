/* The C string and memory functions the kernel build needs (the host uses its C library). */
#include <cgwb/string.h>

/*
 * Under QEMU's TCG, `rep movsq` and `rep stosq` run one iteration per pass through the
 * emulator; plain loads and stores 64 bytes at a time run as straight-line code. Measured
 * in the guest, per 4 KiB page: copy 0.9-1.2 us against 1.2-1.8 us, zeroing 0.4-0.6 us
 * against 0.8-1.4 us. These loops must not be turned back into calls of themselves.
 */
typedef u64 __attribute__((may_alias, aligned(1))) word_t;

__attribute__((optimize("no-tree-loop-distribute-patterns"))) void *memcpy(void *dst,
									   const void *src, size_t n)
{
	word_t *d = dst;
	const word_t *s = src;
	unsigned char *db;
	const unsigned char *sb;

	for (; n >= 64; n -= 64, d += 8, s += 8) {
		u64 a = s[0], b = s[1], c = s[2], e = s[3], f = s[4], g = s[5], h = s[6], k = s[7];

		d[0] = a;
		d[1] = b;
		d[2] = c;
		d[3] = e;
		d[4] = f;
		d[5] = g;
		d[6] = h;
		d[7] = k;
	}
	for (; n >= 8; n -= 8)
		*d++ = *s++;
	db = (unsigned char *)d;
	sb = (const unsigned char *)s;
	while (n--)
		*db++ = *sb++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d == s || !n)
		return dst;
	if (d < s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

__attribute__((optimize("no-tree-loop-distribute-patterns"))) void *memset(void *s, int c, size_t n)
{
	u64 v = 0x0101010101010101ULL * (u8)c;
	word_t *d = s;
	unsigned char *db;

	for (; n >= 64; n -= 64, d += 8) {
		d[0] = v;
		d[1] = v;
		d[2] = v;
		d[3] = v;
		d[4] = v;
		d[5] = v;
		d[6] = v;
		d[7] = v;
	}
	for (; n >= 8; n -= 8)
		*d++ = v;
	db = (unsigned char *)d;
	while (n--)
		*db++ = (unsigned char)c;
	return s;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (size_t i = 0; i < n; i++)
		if (p[i] != q[i])
			return p[i] - q[i];
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (size_t i = 0; i < n; i++)
		if (p[i] == (unsigned char)c)
			return (void *)(p + i);
	return NULL;
}

size_t strlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;
	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strstr(const char *h, const char *n)
{
	size_t ln = strlen(n);

	if (!ln)
		return (char *)h;
	for (; *h; h++)
		if (*h == *n && !strncmp(h, n, ln))
			return (char *)h;
	return NULL;
}

size_t strspn(const char *s, const char *accept)
{
	size_t n = 0;
	while (s[n] && strchr(accept, s[n]))
		n++;
	return n;
}

size_t strcspn(const char *s, const char *reject)
{
	size_t n = 0;
	while (s[n] && !strchr(reject, s[n]))
		n++;
	return n;
}
