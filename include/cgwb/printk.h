/* Kernel log: levelled messages with Linux-style timestamps, kept in a ring for dmesg. */
#ifndef CGWB_PRINTK_H
#define CGWB_PRINTK_H

#include <cgwb/compiler.h>

#define LOGLEVEL_EMERG 0
#define LOGLEVEL_ALERT 1
#define LOGLEVEL_CRIT 2
#define LOGLEVEL_ERR 3
#define LOGLEVEL_WARNING 4
#define LOGLEVEL_NOTICE 5
#define LOGLEVEL_INFO 6
#define LOGLEVEL_DEBUG 7

/* A message starts with "\001" and a level digit, as in Linux ("\0013" is KERN_ERR). */
#define KERN_SOH "\001"
#define KERN_EMERG KERN_SOH "0"
#define KERN_ALERT KERN_SOH "1"
#define KERN_CRIT KERN_SOH "2"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
#define KERN_CONT KERN_SOH "c"

/**
 * printk() - log a message
 * @fmt: the printf format, led by a level (KERN_ERR...; KERN_CONT continues the line)
 * @...: its arguments
 *
 * Each line is stamped with the time since boot, kept in the log ring for dmesg and, at or
 * below console_loglevel, written to the console. A message longer than 511 bytes is cut.
 * A printk from inside printk on the same CPU is dropped, but during a panic.
 *
 * Context: any context, interrupts included; never sleeps.
 * Return: the length of the formatted text; 0 if it was dropped.
 */
int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_emerg(fmt, ...) printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...) printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)

/* Messages at or below this level also go to the console (the rest only to the ring). */
extern int console_loglevel;

/**
 * log_buf_copy() - copy the log ring, oldest first (dmesg)
 * @buf: where to copy, not NUL-terminated
 * @size: room in @buf
 * @skip: how many of the oldest bytes held to skip
 *
 * Read without the log's lock: a message logged meanwhile may show torn.
 *
 * Context: any context.
 * Return: the number of bytes copied.
 */
size_t log_buf_copy(char *buf, size_t size, size_t skip);
/**
 * log_buf_len() - how many bytes the log ring holds
 *
 * Context: any context.
 * Return: the bytes, at most the ring's size.
 */
size_t log_buf_len(void);
/**
 * printk_emit() - write a finished log line to the platform's consoles
 * @level: the line's level
 * @line: the line, stamped
 * @len: its length
 *
 * The kernel's writes every line to debugcon and those at or below console_loglevel to
 * the serial console; the host's keeps a capture buffer.
 *
 * Context: printk(), under its lock with interrupts off.
 */
void printk_emit(int level, const char *line, size_t len);
/**
 * dump_stack() - log the calling stack, as a symbolised backtrace
 *
 * The host build logs a note saying where to look instead.
 *
 * Context: any context.
 */
void dump_stack(void);

#endif
