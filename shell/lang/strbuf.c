/* Growable strings and string vectors (portable). */
#include <cgwb/string.h>
#include <cgwb/slab.h>
#include <cgwb/vmalloc.h>
#include "strbuf.h"

void sb_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
	sb->failed = false;
}

void sb_release(struct strbuf *sb)
{
	kfree(sb->buf);
	sb_init(sb);
}

static bool sb_grow(struct strbuf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;
	size_t alloc = sb->alloc ? sb->alloc : 64;
	char *p;

	if (sb->failed)
		return false;
	if (want <= sb->alloc)
		return true;
	while (alloc < want)
		alloc *= 2;
	/* past a page, not contiguous: a 4 MiB variable needs no free 8 MiB block */
	p = kvmalloc(alloc, GFP_KERNEL);
	if (!p) {
		sb->failed = true;
		return false;
	}
	if (sb->buf)
		memcpy(p, sb->buf, sb->len + 1);
	kfree(sb->buf);
	sb->buf = p;
	sb->alloc = alloc;
	return true;
}

void sb_addn(struct strbuf *sb, const char *s, size_t n)
{
	if (!sb_grow(sb, n))
		return;
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_addc(struct strbuf *sb, char c)
{
	sb_addn(sb, &c, 1);
}

void sb_adds(struct strbuf *sb, const char *s)
{
	sb_addn(sb, s, strlen(s));
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	char small[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		sb_addn(sb, small, (size_t)n);
		return;
	}
	if (!sb_grow(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void sb_truncate(struct strbuf *sb, size_t len)
{
	if (len < sb->len) {
		sb->len = len;
		sb->buf[len] = '\0';
	}
}

const char *sb_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *sb_detach(struct strbuf *sb)
{
	char *s;

	if (!sb->failed && !sb->buf)
		sb_grow(sb, 0);
	if (sb->failed) {
		sb_release(sb);
		return NULL;
	}
	sb->buf[sb->len] = '\0';
	s = sb->buf;
	sb_init(sb);
	return s;
}

void strv_push(struct strv *sv, char *s)
{
	if (!s || sv->failed) {
		sv->failed = true;
		kfree(s);
		return;
	}
	if (sv->n + 2 > sv->alloc) {
		int alloc = sv->alloc ? sv->alloc * 2 : 8;
		char **v = kmalloc((size_t)alloc * sizeof(*v), GFP_KERNEL);

		if (!v) {
			sv->failed = true;
			kfree(s);
			return;
		}
		if (sv->v)
			memcpy(v, sv->v, (size_t)sv->n * sizeof(*v));
		kfree(sv->v);
		sv->v = v;
		sv->alloc = alloc;
	}
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
}

void strv_free(struct strv *sv)
{
	for (int i = 0; i < sv->n; i++)
		kfree(sv->v[i]);
	kfree(sv->v);
	sv->v = NULL;
	sv->n = 0;
	sv->alloc = 0;
	sv->failed = false;
}

void strv_sort(struct strv *sv, int from)
{
	/* insertion sort: the lists sorted here (a directory's matches) are short */
	for (int i = from + 1; i < sv->n; i++) {
		char *s = sv->v[i];
		int j = i - 1;

		for (; j >= from && strcmp(sv->v[j], s) > 0; j--)
			sv->v[j + 1] = sv->v[j];
		sv->v[j + 1] = s;
	}
}
