/*
 * Open files: what a task's file descriptors point to. The console, pipes, devices and
 * regular files all present the same operations.
 */
#ifndef CGWB_FILE_H
#define CGWB_FILE_H

#include <cgwb/types.h>

struct poll_table;
struct wait_queue_head;

struct file;
struct inode;
struct dir_context;
struct dentry;
struct vfsmount;
struct address_space;

struct path {
	struct vfsmount *mnt;
	struct dentry *dentry;
};

/* Sequential readahead state of an open file. */
struct file_ra_state {
	unsigned long start;      /* first page of the current window */
	unsigned int size;        /* pages in the window */
	unsigned int async_size;  /* start the next window when this many pages are left */
	unsigned long prev_index; /* last page read */
};

#define O_RDONLY 00
#define O_WRONLY 01
#define O_RDWR 02
#define O_ACCMODE 03
#define O_CREAT 0100
#define O_EXCL 0200
#define O_TRUNC 01000
#define O_APPEND 02000
#define O_DSYNC 010000
#define O_SYNC 04010000
#define O_DIRECT 040000
#define O_DIRECTORY 0200000
#define O_NONBLOCK 04000 /* a pipe's reads and writes that would wait: -EAGAIN */

/* What a file's poll() says it can do without waiting (Linux's POLL* bits). */
#define POLLIN 0x1
#define POLLOUT 0x4
#define POLLERR 0x8
#define POLLHUP 0x10

#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

struct file_operations {
	ssize_t (*read)(struct file *file, char *buf, size_t len, loff_t *pos);
	ssize_t (*write)(struct file *file, const char *buf, size_t len, loff_t *pos);
	loff_t (*llseek)(struct file *file, loff_t offset, int whence);
	int (*fsync)(struct file *file, loff_t start, loff_t end, int datasync);
	int (*iterate)(struct file *file, struct dir_context *ctx);
	int (*open)(struct inode *inode, struct file *file);
	int (*release)(struct inode *inode, struct file *file);
	/*
	 * Optional: POLLIN/POLLOUT/POLLHUP now, never waiting (none: always both ready). With a
	 * poll table, also what will change that answer: the wait queue woken then
	 * (poll_wait()), or the time it changes by itself (poll_wait_until()).
	 */
	unsigned int (*poll)(struct file *file, struct poll_table *pt);
};

/*
 * What a poller asks of a file's poll() (Linux's poll_table): qproc queues the poller on a
 * wait queue (NULL once it is queued everywhere); next_event is the earliest time a file
 * without a wait queue changes (ktime ns, 0 for none), such as a timer's expiry.
 */
struct poll_table {
	void (*qproc)(struct file *file, struct wait_queue_head *wq, struct poll_table *pt);
	u64 next_event;
};

static inline void poll_wait(struct file *file, struct wait_queue_head *wq, struct poll_table *pt)
{
	if (pt && pt->qproc)
		pt->qproc(file, wq, pt);
}

static inline void poll_wait_until(struct poll_table *pt, u64 when)
{
	if (pt && when && (!pt->next_event || when < pt->next_event))
		pt->next_event = when;
}

struct file {
	const struct file_operations *f_op;
	struct inode *f_inode;
	struct path f_path; /* how it was opened (VFS); empty for anonymous files */
	struct address_space *f_mapping;
	struct file_ra_state f_ra;
	loff_t f_pos;
	unsigned int f_flags;
	int f_count;
	void *private_data;
};

/* A file with the given operations and one reference. */
struct file *alloc_file(const struct file_operations *fop, unsigned int flags, void *private_data);
struct file *get_file(struct file *file);
void fput(struct file *file);

/* Read or write at the file's position, advancing it. */
ssize_t file_read(struct file *file, void *buf, size_t len);
ssize_t file_write(struct file *file, const void *buf, size_t len);
/* Read or write at *pos, which advances; not the file's position (Linux's kernel_read). */
ssize_t kernel_read(struct file *file, void *buf, size_t len, loff_t *pos);
ssize_t kernel_write(struct file *file, const void *buf, size_t len, loff_t *pos);
/* Write all of buf (retrying short writes); returns len or a negative error. */
ssize_t file_write_all(struct file *file, const void *buf, size_t len);
int file_printf(struct file *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int file_vprintf(struct file *file, const char *fmt, va_list ap);

#endif
