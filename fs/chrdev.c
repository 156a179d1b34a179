/*
 * Character devices (/dev/null, /dev/zero, /dev/urandom, /dev/console, ...) and path
 * opening. Until a filesystem is mounted, paths resolve only under /dev.
 */
#include <cgwb/fs.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/spinlock.h>
#include <cgwb/jiffies.h>

#define MAX_CHRDEVS 32

static const struct char_device *chrdevs[MAX_CHRDEVS];
static unsigned int nr_chrdevs;
static DEFINE_SPINLOCK(chrdev_lock);

int register_chrdev(const struct char_device *dev)
{
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&chrdev_lock, flags);
	if (nr_chrdevs == MAX_CHRDEVS)
		err = -ENOSPC;
	for (unsigned int i = 0; i < nr_chrdevs && !err; i++)
		if (!strcmp(chrdevs[i]->name, dev->name))
			err = -EEXIST;
	if (!err)
		chrdevs[nr_chrdevs++] = dev;
	spin_unlock_irqrestore(&chrdev_lock, flags);
	return err;
}

const struct char_device *find_chrdev(const char *name)
{
	for (unsigned int i = 0; i < READ_ONCE(nr_chrdevs); i++)
		if (!strcmp(chrdevs[i]->name, name))
			return chrdevs[i];
	return NULL;
}

void for_each_chrdev(void (*fn)(const struct char_device *, void *), void *arg)
{
	for (unsigned int i = 0; i < READ_ONCE(nr_chrdevs); i++)
		fn(chrdevs[i], arg);
}

struct file *filp_open(const char *path, unsigned int flags, umode_t mode)
{
	(void)mode;
	if (!str_has_prefix(path, "/dev/"))
		return ERR_PTR(-ENOENT);
	const struct char_device *dev = find_chrdev(path + 5);
	if (!dev)
		return ERR_PTR(-ENOENT);
	struct file *f = alloc_file(dev->fops, flags, dev->private_data);
	if (!f)
		return ERR_PTR(-ENOMEM);
	if (dev->fops->open) {
		int err = dev->fops->open(NULL, f);
		if (err) {
			fput(f);
			return ERR_PTR(err);
		}
	}
	return f;
}

/* The memory devices. */
static ssize_t null_read(struct file *f, char *buf, size_t len, loff_t *pos)
{
	return 0;
}

static ssize_t null_write(struct file *f, const char *buf, size_t len, loff_t *pos)
{
	return (ssize_t)len;
}

static ssize_t zero_read(struct file *f, char *buf, size_t len, loff_t *pos)
{
	memset(buf, 0, len);
	*pos += (loff_t)len;
	return (ssize_t)len;
}

/* xorshift64*, seeded from the clock: good enough test data, not cryptography */
static u64 urandom_state;

static ssize_t urandom_read(struct file *f, char *buf, size_t len, loff_t *pos)
{
	u64 x = urandom_state ? urandom_state : (ktime_get_ns() | 1) * 0x9e3779b97f4a7c15ULL;

	for (size_t i = 0; i < len; i += 8) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		u64 v = x * 0x2545f4914f6cdd1dULL;
		memcpy(buf + i, &v, len - i < 8 ? len - i : 8);
	}
	urandom_state = x;
	*pos += (loff_t)len;
	return (ssize_t)len;
}

static const struct file_operations null_fops = { .read = null_read, .write = null_write };
static const struct file_operations zero_fops = { .read = zero_read, .write = null_write };
static const struct file_operations urandom_fops = { .read = urandom_read, .write = null_write };

static const struct char_device mem_devices[] = {
	{ .name = "null", .fops = &null_fops },
	{ .name = "zero", .fops = &zero_fops },
	{ .name = "urandom", .fops = &urandom_fops },
	{ .name = "random", .fops = &urandom_fops },
};

void chrdev_init(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(mem_devices); i++)
		register_chrdev(&mem_devices[i]);
}
