/*
 * seq_buf: a growable text buffer (kernel/lib/seq_buf.c), what pseudo files and the trace
 * ring print into.
 */
#ifndef CGWB_SEQ_BUF_H
#define CGWB_SEQ_BUF_H

#include <cgwb/types.h>
#include <cgwb/compiler.h>

/* A growable text buffer. Printing never fails; an allocation failure is remembered. */
struct seq_buf {
	char *buf;
	size_t size; /* allocated */
	size_t len;  /* used */
	int err;     /* -ENOMEM once growing failed (the content is then truncated) */
};

void seq_buf_init(struct seq_buf *s);
void seq_buf_free(struct seq_buf *s);
int seq_printf(struct seq_buf *s, const char *fmt, ...) __printf(2, 3);
int seq_vprintf(struct seq_buf *s, const char *fmt, va_list ap);
int seq_puts(struct seq_buf *s, const char *str);
int seq_putc(struct seq_buf *s, char c);
int seq_write(struct seq_buf *s, const void *data, size_t len);

#endif
