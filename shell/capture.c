/*
 * The output file of a command substitution: writes append to a memory buffer, so the
 * shell can wait for the command first and read the result after (a pipe would need a
 * reader running alongside). Bounded, so $(yes) ends with an error instead of eating RAM.
 */
#include <cgwb/file.h>
#include <cgwb/mutex.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include "internal.h"

#define CAPTURE_MAX (1024 * 1024)

struct capture {
	struct mutex lock;      /* a substitution's pipeline may write from several tasks */
	struct strbuf out;
	bool overflowed;        /* output was refused: the substitution fails, nothing is cut */
};

static ssize_t capture_write(struct file *file, const char *buf, size_t len, loff_t *pos)
{
	struct capture *c = file->private_data;
	ssize_t ret = (ssize_t)len;

	mutex_lock(&c->lock);
	if (c->out.len + len > CAPTURE_MAX) {
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

static ssize_t capture_read(struct file *file, char *buf, size_t len, loff_t *pos)
{
	return 0;
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

struct file *capture_open(void)
{
	struct capture *c = kzalloc(sizeof(*c), GFP_KERNEL);
	struct file *f;

	if (!c)
		return NULL;
	mutex_init(&c->lock);
	sb_init(&c->out);
	f = alloc_file(&capture_fops, O_WRONLY, c);
	if (!f)
		kfree(c);
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
