/* The VFS interface: opening files by path. */
#ifndef CGWB_FS_H
#define CGWB_FS_H

#include <cgwb/file.h>

typedef unsigned int umode_t;

/* Open path (O_* flags); ERR_PTR(-errno) on failure. */
struct file *filp_open(const char *path, unsigned int flags, umode_t mode);

/* Character devices under /dev: name, operations, and the private data files get. */
struct char_device {
	const char *name;
	const struct file_operations *fops;
	void *private_data;
};
int register_chrdev(const struct char_device *dev);
const struct char_device *find_chrdev(const char *name);
/* Call fn for each registered device (ls /dev). */
void for_each_chrdev(void (*fn)(const struct char_device *, void *), void *arg);
/* Registers the memory devices (null, zero, urandom). */
void chrdev_init(void);

#endif
