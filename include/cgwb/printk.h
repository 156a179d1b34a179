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

/* Copy the log ring into buf (oldest first); returns the number of bytes copied. */
size_t log_buf_copy(char *buf, size_t size, size_t skip);
size_t log_buf_len(void);

/*
 * Where finished log lines go: the platform writes them to its consoles
 * (kernel: serial when level <= console_loglevel, always debugcon; host: a capture buffer).
 */
void printk_emit(int level, const char *line, size_t len);

/* The calling stack, as a symbolised backtrace (the kernel's; the host prints a note). */
void dump_stack(void);

#endif
