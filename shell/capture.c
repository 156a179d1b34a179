/*
 * The output file of a command substitution: writes append to a memory buffer, so the
 * shell can wait for the command first and read the result after (a pipe would need a
 * reader running alongside). Bounded, so $(yes) ends with an error instead of eating RAM.
 * The same file, filled first, gives a here-document to the command reading it.
 */
#include <cgwb/file.h>
#include <cgwb/mutex.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include <cgwb/mm.h>
#include "internal.h"

/* An eighth of the memory, at least 1 MiB: room for what a script keeps in a variable. */
static size_t capture_max(void)
{
	return max((size_t)1 << 20, (size_t)(totalram_pages / 8) << PAGE_SHIFT);
}

struct capture {
	struct mutex lock; /* a substitution's pipeline may write from several tasks */
	struct strbuf out;
	bool overflowed; /* output was refused: the substitution fails, nothing is cut */
};

static ssize_t capture_write(struct file *file, const char *buf, size_t len, loff_t *pos)
{
	struct capture *c = file->private_data;
	ssize_t ret = (ssize_t)len;

	mutex_lock(&c->lock);
	if (c->out.len + len > capture_max()) {
		c->overflowed = true;
		ret = -EFBIG;
	} else {
		sb_addn(&c->out, buf, len);
		if (c->out.failed)
			ret = -ENOMEM;
	}
	mutex_unlock(&c->lock);
	return ret;
}

/* A here-document reads its text back from the start. */
static ssize_t capture_read(struct file *file, char *buf, size_t len, loff_t *pos)
{
	struct capture *c = file->private_data;
	size_t n = 0;

	mutex_lock(&c->lock);
	if (*pos >= 0 && (size_t)*pos < c->out.len) {
		n = min(len, c->out.len - (size_t)*pos);
		memcpy(buf, c->out.buf + *pos, n);
		*pos += (loff_t)n;
	}
	mutex_unlock(&c->lock);
	return (ssize_t)n;
}

static int capture_release(struct inode *inode, struct file *file)
{
	struct capture *c = file->private_data;

	sb_release(&c->out);
	kfree(c);
	return 0;
}

static const struct file_operations capture_fops = {
	.read = capture_read,
	.write = capture_write,
	.release = capture_release,
};

static struct file *capture_alloc(unsigned int flags)
{
	struct capture *c = kzalloc(sizeof(*c), GFP_KERNEL);
	struct file *f;

	if (!c)
		return NULL;
	mutex_init(&c->lock);
	sb_init(&c->out);
	f = alloc_file(&capture_fops, flags, c);
	if (!f)
		kfree(c);
	return f;
}

struct file *capture_open(void)
{
	return capture_alloc(O_WRONLY);
}

struct file *memfile_open(const char *text, size_t len)
{
	struct file *f = capture_alloc(O_RDONLY);
	loff_t pos = 0;

	if (f && capture_write(f, text, len, &pos) < 0) {
		fput(f);
		return NULL;
	}
	return f;
}

int capture_take(struct file *file, struct strbuf *out)
{
	struct capture *c = file->private_data;
	int err = 0;

	mutex_lock(&c->lock);
	if (c->overflowed)
		err = -EFBIG;
	else
		sb_addn(out, sb_str(&c->out), c->out.len);
	mutex_unlock(&c->lock);
	return err;
}
