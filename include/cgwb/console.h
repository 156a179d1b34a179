/* The serial console as a tty: output, line-buffered input, and Ctrl-C delivery. */
#ifndef CGWB_CONSOLE_H
#define CGWB_CONSOLE_H

#include <cgwb/types.h>

struct file_operations;

/**
 * console_receive_char() - a byte arrived from the UART
 * @c: the byte
 *
 * Ctrl-C goes to the interrupt handler first (console_set_intr_handler()); a byte it does
 * not take is queued as input, or dropped when the queue is full, and readers are woken.
 *
 * Context: the UART interrupt; never sleeps.
 */
void console_receive_char(char c);
/**
 * console_getc() - the next input byte, sleeping until one arrives
 *
 * Reading makes room: a UART stopped for a full queue resumes.
 *
 * Context: process context; sleeps, interruptibly.
 * Return: the byte (0 to 255), or -EINTR on a signal.
 */
int console_getc(void);
/**
 * console_input_full() - has the input queue no room left?
 *
 * The UART then stops receiving until some is read.
 *
 * Context: any context.
 * Return: true if it is full.
 */
bool console_input_full(void);
/* Input bytes waiting to be read. */
size_t console_pending(void);
/**
 * console_write() - write to the console
 * @buf: the bytes; "\n" becomes "\r\n"
 * @len: how many
 *
 * Context: any context; takes the output's irq-safe lock; never sleeps.
 */
void console_write(const char *buf, size_t len);
/**
 * console_set_intr_handler() - set what Ctrl-C does
 * @handler: called in interrupt context when Ctrl-C arrives; true if it used it to stop
 *           something (the byte is then not queued as input); it replaces any before
 *
 * Context: any context.
 */
void console_set_intr_handler(bool (*handler)(void));
/* A file on the console reads and writes with these (a task's stdin/stdout/stderr). */
extern const struct file_operations console_fops;
/**
 * console_init() - turn on the console's input (the UART's receive interrupt)
 *
 * Context: boot, once.
 */
void console_init(void);

#endif
