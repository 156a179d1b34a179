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

/**
 * seq_buf_init() - set up an empty text buffer (nothing allocated yet)
 * @s: the buffer
 *
 * Context: any context.
 */
void seq_buf_init(struct seq_buf *s);
/**
 * seq_buf_free() - free a text buffer's memory; it is empty again
 * @s: the buffer
 *
 * Context: process context (the memory may be vmalloc's).
 */
void seq_buf_free(struct seq_buf *s);
/**
 * seq_printf() - append printf output to a text buffer
 * @s: the buffer, grown as needed
 * @fmt: the printf format
 * @...: its arguments
 *
 * Context: process context; may sleep (the buffer grows with GFP_KERNEL).
 * Return: 0; -EINVAL for a bad format; or -ENOMEM once the buffer could not grow (the
 * output is then truncated, and the error kept in @s->err).
 */
int seq_printf(struct seq_buf *s, const char *fmt, ...) __printf(2, 3);
int seq_vprintf(struct seq_buf *s, const char *fmt, va_list ap);
/**
 * seq_puts() - append a string to a text buffer
 * @s: the buffer, grown as needed
 * @str: the string
 *
 * Context: process context; may sleep.
 * Return: 0, or -ENOMEM as seq_printf().
 */
int seq_puts(struct seq_buf *s, const char *str);
/**
 * seq_putc() - append a character to a text buffer
 * @s: the buffer, grown as needed
 * @c: the character
 *
 * Context: process context; may sleep.
 * Return: 0, or -ENOMEM as seq_printf().
 */
int seq_putc(struct seq_buf *s, char c);
int seq_write(struct seq_buf *s, const void *data, size_t len);

#endif
