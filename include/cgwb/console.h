/* The serial console as a tty: output, line-buffered input, and Ctrl-C delivery. */
#ifndef CGWB_CONSOLE_H
#define CGWB_CONSOLE_H

#include <cgwb/types.h>

struct file_operations;

/* From the UART interrupt. */
void console_receive_char(char c);
/* Next input byte, sleeping until one arrives; -EINTR if the task is killed. */
int console_getc(void);
/* No room for more input: the UART stops receiving until some is read. */
bool console_input_full(void);
/* Input bytes waiting to be read. */
size_t console_pending(void);
/* Write to the console, "\n" becoming "\r\n". */
void console_write(const char *buf, size_t len);
/*
 * Called (in interrupt context) when Ctrl-C arrives; returns true if it was used to stop
 * something, in which case the byte is not queued as input.
 */
void console_set_intr_handler(bool (*handler)(void));
/* A file on the console reads and writes with these (a task's stdin/stdout/stderr). */
extern const struct file_operations console_fops;
void console_init(void);

#endif
