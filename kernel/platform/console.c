/*
 * The console: serial output with newline translation, an input ring filled by the UART
 * interrupt, and the file operations through which tasks use it as stdin/stdout (start-up
 * makes them /dev/console). Reading through a file is cooked like a tty (echo, backspace,
 * Ctrl-U, Ctrl-D for end of input); the shell reads raw bytes with console_getc() and does
 * its own line editing.
 */
#include <cgwb/fs.h>
#include <cgwb/wait.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include <cgwb/console.h>
#include "../arch/x86.h"

#define INPUT_SIZE 4096

static char input[INPUT_SIZE];
static size_t in_head, in_tail; /* head: next write; tail: next read */
static DECLARE_WAIT_QUEUE_HEAD(input_wait);
static DEFINE_SPINLOCK(output_lock);
static DEFINE_SPINLOCK(input_lock); /* the ring: the UART's interrupt and a reader on any CPU */
static bool (*intr_handler)(void);

void console_set_intr_handler(bool (*handler)(void))
{
	intr_handler = handler;
}

void console_receive_char(char c)
{
	unsigned long flags;

	if (c == 0x03 && intr_handler && intr_handler())
		return;
	spin_lock_irqsave(&input_lock, flags);
	if (in_head - in_tail < INPUT_SIZE) {
		input[in_head % INPUT_SIZE] = c;
		WRITE_ONCE(in_head, in_head + 1);
	}
	spin_unlock_irqrestore(&input_lock, flags);
	wake_up(&input_wait);
}

bool console_input_full(void)
{
	return in_head - in_tail >= INPUT_SIZE;
}

size_t console_pending(void)
{
	return READ_ONCE(in_head) - READ_ONCE(in_tail);
}

int console_getc(void)
{
	unsigned long flags;
	int c;

	if (wait_event_interruptible(input_wait, console_pending() > 0))
		return -EINTR;
	spin_lock_irqsave(&input_lock, flags);
	c = (unsigned char)input[in_tail % INPUT_SIZE];
	WRITE_ONCE(in_tail, in_tail + 1);
	spin_unlock_irqrestore(&input_lock, flags);
	serial_rx_resume();
	return c;
}

static void console_emit(const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\n')
			serial_putc('\r');
		serial_putc(buf[i]);
	}
}

void console_write(const char *buf, size_t len)
{
	unsigned long flags;

	spin_lock_irqsave(&output_lock, flags);
	console_emit(buf, len);
	spin_unlock_irqrestore(&output_lock, flags);
}

/* Kernel log lines: all to debugcon, the important ones to the console too. */
void printk_emit(int level, const char *line, size_t len)
{
	debugcon_write(line, len);
	if (level <= console_loglevel) {
		if (spin_is_locked(&output_lock)) /* a message from inside console output */
			console_emit(line, len);
		else
			console_write(line, len);
	}
}

static ssize_t console_file_write(struct file *file, const char *buf, size_t len, loff_t *pos)
{
	(void)file;
	(void)pos;
	console_write(buf, len);
	return (ssize_t)len;
}

/* One cooked line at most: returns when a newline is typed, the buffer is full, or Ctrl-D. */
static ssize_t console_file_read(struct file *file, char *buf, size_t len, loff_t *pos)
{
	size_t n = 0;

	(void)file;
	(void)pos;
	while (n < len) {
		int c = console_getc();
		if (c < 0)
			return n ? (ssize_t)n : c;
		if (c == 0x04) /* Ctrl-D */
			break;
		if (c == '\r')
			c = '\n';
		if (c == 0x7f || c == 0x08) {
			if (n) {
				n--;
				console_write("\b \b", 3);
			}
			continue;
		}
		if (c == 0x15) { /* Ctrl-U */
			while (n) {
				n--;
				console_write("\b \b", 3);
			}
			continue;
		}
		buf[n++] = (char)c;
		char ch = (char)c;
		console_write(&ch, 1);
		if (c == '\n')
			break;
	}
	return (ssize_t)n;
}

const struct file_operations console_fops = {
	.read = console_file_read,
	.write = console_file_write,
};

void console_init(void)
{
	serial_enable_irq();
}
