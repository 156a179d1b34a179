/*
 * Character devices (/dev/null, /dev/zero, /dev/urandom, /dev/console, ...): a registry by
 * name, each with a device number (Linux's for the well-known ones, misc numbers for the
 * rest) under which devfs creates its /dev node. Opening such a node goes through
 * def_chr_fops, which switches the file to the device's operations.
 */
#include <cgwb/fs.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/spinlock.h>
#include <cgwb/jiffies.h>
#include "vfs.h"

#define MAX_CHRDEVS 32
#define MISC_MAJOR 10
#define MISC_DYNAMIC_FIRST 64

static const struct char_device *chrdevs[MAX_CHRDEVS];
static dev_t chrdev_numbers[MAX_CHRDEVS];
static unsigned int nr_chrdevs;
static DEFINE_SPINLOCK(chrdev_lock);

static const struct {
	const char *name;
	unsigned int major, minor;
} well_known[] = {
	{ "null", 1, 3 },   { "zero", 1, 5 },    { "full", 1, 7 },
	{ "random", 1, 8 }, { "urandom", 1, 9 }, { "kmsg", 1, 11 },
	{ "tty", 5, 0 },    { "console", 5, 1 }, { "ttyS0", 4, 64 },
};

static dev_t pick_devt(const char *name, unsigned int index)
{
	for (size_t i = 0; i < ARRAY_SIZE(well_known); i++)
		if (!strcmp(well_known[i].name, name))
			return MKDEV(well_known[i].major, well_known[i].minor);
	return MKDEV(MISC_MAJOR, MISC_DYNAMIC_FIRST + index);
}

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
	if (!err) {
		chrdev_numbers[nr_chrdevs] = pick_devt(dev->name, nr_chrdevs);
		chrdevs[nr_chrdevs] = dev;
		WRITE_ONCE(nr_chrdevs, nr_chrdevs + 1);
	}
	spin_unlock_irqrestore(&chrdev_lock, flags);
	if (!err)
		devfs_add_chrdev(dev);
	return err;
}

const struct char_device *find_chrdev(const char *name)
{
	for (unsigned int i = 0; i < READ_ONCE(nr_chrdevs); i++)
		if (!strcmp(chrdevs[i]->name, name))
			return chrdevs[i];
	return NULL;
}

const struct char_device *find_chrdev_by_dev(dev_t dev)
{
	for (unsigned int i = 0; i < READ_ONCE(nr_chrdevs); i++)
		if (chrdev_numbers[i] == dev)
			return chrdevs[i];
	return NULL;
}

dev_t chrdev_devt(const struct char_device *dev)
{
	for (unsigned int i = 0; i < READ_ONCE(nr_chrdevs); i++)
		if (chrdevs[i] == dev)
			return chrdev_numbers[i];
	return 0;
}

void for_each_chrdev(void (*fn)(const struct char_device *, void *), void *arg)
{
	for (unsigned int i = 0; i < READ_ONCE(nr_chrdevs); i++)
		fn(chrdevs[i], arg);
}

/* Opening a character special file: become the device's file. */
static int chrdev_open(struct inode *inode, struct file *file)
{
	const struct char_device *dev = find_chrdev_by_dev(inode->i_rdev);

	if (!dev)
		return -ENXIO;
	file->f_op = dev->fops;
	file->private_data = dev->private_data;
	if (dev->fops->open)
		return dev->fops->open(inode, file);
	return 0;
}

const struct file_operations def_chr_fops = {
	.open = chrdev_open,
};

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

/* Seeking a stream of nothing, zeros or noise succeeds and goes nowhere (Linux's null_lseek). */
static loff_t null_lseek(struct file *f, loff_t offset, int whence)
{
	(void)offset;
	(void)whence;
	f->f_pos = 0;
	return 0;
}

static const struct file_operations null_fops = {
	.read = null_read,
	.write = null_write,
	.llseek = null_lseek,
};
static const struct file_operations zero_fops = {
	.read = zero_read,
	.write = null_write,
	.llseek = null_lseek,
};
static const struct file_operations urandom_fops = {
	.read = urandom_read,
	.write = null_write,
	.llseek = null_lseek,
};

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
