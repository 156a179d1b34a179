/* Open file objects and reference counting. */
#include <cgwb/fs.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/spinlock.h>
#include <cgwb/bug.h>

static DEFINE_SPINLOCK(file_lock);

struct file *alloc_file(const struct file_operations *fop, unsigned int flags, void *private_data)
{
	struct file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	f->f_op = fop;
	f->f_flags = flags;
	f->f_count = 1;
	f->private_data = private_data;
	return f;
}

struct file *get_file(struct file *file)
{
	unsigned long flags;

	spin_lock_irqsave(&file_lock, flags);
	BUG_ON(file->f_count <= 0);
	file->f_count++;
	spin_unlock_irqrestore(&file_lock, flags);
	return file;
}

void fput(struct file *file)
{
	unsigned long flags;
	int left;

	if (!file)
		return;
	spin_lock_irqsave(&file_lock, flags);
	BUG_ON(file->f_count <= 0);
	left = --file->f_count;
	spin_unlock_irqrestore(&file_lock, flags);
	if (left)
		return;
	if (file->f_op && file->f_op->release)
		file->f_op->release(file->f_inode, file);
	/* the path goes last: release may still use the inode it pins */
	if (file->f_path.dentry)
		path_put(&file->f_path);
	kfree(file);
}

ssize_t kernel_read(struct file *file, void *buf, size_t len, loff_t *pos)
{
	if (!file || !file_readable(file))
		return -EBADF;
	if (!file->f_op->read)
		return -EINVAL;
	return file->f_op->read(file, buf, len, pos);
}

ssize_t kernel_write(struct file *file, const void *buf, size_t len, loff_t *pos)
{
	if (!file || !file_writable(file))
		return -EBADF;
	if (!file->f_op->write)
		return -EINVAL;
	return file->f_op->write(file, buf, len, pos);
}

ssize_t file_read(struct file *file, void *buf, size_t len)
{
	return kernel_read(file, buf, len, file ? &file->f_pos : NULL);
}

ssize_t file_write(struct file *file, const void *buf, size_t len)
{
	return kernel_write(file, buf, len, file ? &file->f_pos : NULL);
}

ssize_t file_write_all(struct file *file, const void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = file_write(file, (const char *)buf + done, len - done);
		if (n < 0)
			return n;
		if (n == 0)
			return -EIO;
		done += (size_t)n;
	}
	return (ssize_t)len;
}

int file_vprintf(struct file *file, const char *fmt, va_list ap)
{
	char small[256];
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n < 0) {
		va_end(ap2);
		return -EINVAL;
	}
	if ((size_t)n < sizeof(small)) {
		va_end(ap2);
		ssize_t w = file_write_all(file, small, (size_t)n);
		return w < 0 ? (int)w : n;
	}
	char *big = kmalloc((size_t)n + 1, GFP_KERNEL);
	if (!big) {
		va_end(ap2);
		return -ENOMEM;
	}
	vsnprintf(big, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	ssize_t w = file_write_all(file, big, (size_t)n);
	kfree(big);
	return w < 0 ? (int)w : n;
}

int file_printf(struct file *file, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = file_vprintf(file, fmt, ap);
	va_end(ap);
	return n;
}
