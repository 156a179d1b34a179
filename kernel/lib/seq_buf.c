/*
 * seq_buf: text printed whole, as a pseudo file shows it at open. The buffer doubles when a
 * print does not fit, so show() callbacks never need to size anything; a large one (a full
 * trace is some 500 KiB) need not be physically contiguous (kvmalloc).
 */
#include <cgwb/seq_buf.h>
#include <cgwb/slab.h>
#include <cgwb/vmalloc.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>

#define SEQ_BUF_FIRST 256

void seq_buf_init(struct seq_buf *s)
{
	s->buf = NULL;
	s->size = 0;
	s->len = 0;
	s->err = 0;
}

void seq_buf_free(struct seq_buf *s)
{
	kvfree(s->buf);
	seq_buf_init(s);
}

/* Room for need more bytes plus a NUL; false (and s->err) if memory ran out. */
static bool seq_reserve(struct seq_buf *s, size_t need)
{
	size_t size = s->size ? s->size : SEQ_BUF_FIRST;
	char *buf;

	if (s->len + need + 1 <= s->size)
		return true;
	if (s->err)
		return false;
	while (size < s->len + need + 1)
		size *= 2;
	buf = kvmalloc(size, GFP_KERNEL);
	if (!buf) {
		s->err = -ENOMEM;
		return false;
	}
	if (s->buf)
		memcpy(buf, s->buf, s->len);
	kvfree(s->buf);
	s->buf = buf;
	s->size = size;
	return true;
}

int seq_write(struct seq_buf *s, const void *data, size_t len)
{
	if (!seq_reserve(s, len))
		return s->err;
	memcpy(s->buf + s->len, data, len);
	s->len += len;
	s->buf[s->len] = 0;
	return 0;
}

int seq_puts(struct seq_buf *s, const char *str)
{
	return seq_write(s, str, strlen(str));
}

int seq_putc(struct seq_buf *s, char c)
{
	return seq_write(s, &c, 1);
}

int seq_vprintf(struct seq_buf *s, const char *fmt, va_list ap)
{
	size_t room = s->size - s->len; /* the NUL's byte included */
	va_list ap2;
	int n;

	/* one pass when the text fits the room left (the common case), two when it grows */
	va_copy(ap2, ap);
	n = vsnprintf(room ? s->buf + s->len : NULL, room, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= room) {
		if (!seq_reserve(s, (size_t)n)) {
			if (room)
				s->buf[s->len] = 0; /* drop the part the first pass printed */
			return s->err;
		}
		vsnprintf(s->buf + s->len, s->size - s->len, fmt, ap);
	}
	s->len += (size_t)n;
	return 0;
}

int seq_printf(struct seq_buf *s, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = seq_vprintf(s, fmt, ap);
	va_end(ap);
	return err;
}
