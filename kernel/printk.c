/*
 * printk (portable): levels, "[    0.012345] " timestamps at the start of each line, a ring
 * buffer for dmesg, and printk_emit() to hand finished text to the platform's consoles.
 */
#include <cgwb/printk.h>
#include <cgwb/string.h>
#include <cgwb/jiffies.h>
#include <cgwb/spinlock.h>

#define LOG_BUF_SIZE (128 * 1024)
#define DEFAULT_MESSAGE_LOGLEVEL LOGLEVEL_WARNING

int console_loglevel = LOGLEVEL_NOTICE;
int oops_in_progress;

static char log_buf[LOG_BUF_SIZE];
static size_t log_written; /* total bytes ever written; position = log_written % size */
static bool line_open;     /* the last message did not end with a newline */
static int line_level = DEFAULT_MESSAGE_LOGLEVEL;
static DEFINE_SPINLOCK(printk_lock); /* the log and the consoles: one message at a time */

static void log_store(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		log_buf[(log_written + i) % LOG_BUF_SIZE] = s[i];
	log_written += n;
}

size_t log_buf_len(void)
{
	return log_written < LOG_BUF_SIZE ? log_written : LOG_BUF_SIZE;
}

size_t log_buf_copy(char *buf, size_t size, size_t skip)
{
	size_t avail = log_buf_len();
	size_t start = log_written - avail + skip;
	size_t n = 0;

	if (skip >= avail)
		return 0;
	while (n < size && start + n < log_written) {
		buf[n] = log_buf[(start + n) % LOG_BUF_SIZE];
		n++;
	}
	return n;
}

static const char *parse_level(const char *fmt, int *level, bool *cont)
{
	*cont = false;
	while (fmt[0] == KERN_SOH[0] && fmt[1]) {
		if (fmt[1] == 'c')
			*cont = true;
		else if (fmt[1] >= '0' && fmt[1] <= '7')
			*level = fmt[1] - '0';
		fmt += 2;
	}
	return fmt;
}

int vprintk(const char *fmt, va_list ap)
{
	char text[512], out[560];
	int level = DEFAULT_MESSAGE_LOGLEVEL;
	bool cont, recursed;
	unsigned long flags;
	int len;

	fmt = parse_level(fmt, &level, &cont);
	len = vscnprintf(text, sizeof(text), fmt, ap);

	/* recursion (a fault inside printk) on this CPU: drop rather than deadlock */
	recursed = spin_is_held(&printk_lock);
	if (recursed && !oops_in_progress)
		return 0;
	if (recursed)
		local_irq_save(flags);
	else
		spin_lock_irqsave(&printk_lock, flags);

	/* only KERN_CONT continues an unfinished line: another message must not be glued on */
	if (line_open && !cont) {
		log_store("\n", 1);
		printk_emit(line_level, "\n", 1);
		line_open = false;
	}

	size_t n = 0;
	const char *p = text;
	while (*p) {
		if (!line_open) {
			u64 ns = ktime_get_ns();
			line_level = cont ? line_level : level;
			n += (size_t)scnprintf(out + n, sizeof(out) - n, "[%5llu.%06llu] ",
					       ns / NSEC_PER_SEC, (ns % NSEC_PER_SEC) / 1000);
			line_open = true;
		}
		const char *nl = strchr(p, '\n');
		size_t chunk = nl ? (size_t)(nl - p) + 1 : strlen(p);
		if (chunk > sizeof(out) - n)
			chunk = sizeof(out) - n;
		memcpy(out + n, p, chunk);
		n += chunk;
		p += chunk;
		if (nl && p == nl + 1)
			line_open = false;
		log_store(out, n);
		printk_emit(line_level, out, n);
		n = 0;
	}
	if (recursed)
		local_irq_restore(flags);
	else
		spin_unlock_irqrestore(&printk_lock, flags);
	return len;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vprintk(fmt, ap);
	va_end(ap);
	return r;
}
