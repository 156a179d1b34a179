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
	/* Optional: allocate (or with other modes change) a range's blocks, vfs_fallocate()
	 * having checked the mode, the file and the range as Linux's does */
	long (*fallocate)(struct file *file, int mode, loff_t offset, loff_t len);
};

/* fallocate()'s modes (Linux's include/uapi/linux/falloc.h) */
#define FALLOC_FL_KEEP_SIZE 0x01
#define FALLOC_FL_PUNCH_HOLE 0x02
#define FALLOC_FL_NO_HIDE_STALE 0x04
#define FALLOC_FL_COLLAPSE_RANGE 0x08
#define FALLOC_FL_ZERO_RANGE 0x10
#define FALLOC_FL_INSERT_RANGE 0x20
#define FALLOC_FL_UNSHARE_RANGE 0x40
#define FALLOC_FL_SUPPORTED_MASK                                                 \
	(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE | FALLOC_FL_COLLAPSE_RANGE | \
	 FALLOC_FL_ZERO_RANGE | FALLOC_FL_INSERT_RANGE | FALLOC_FL_UNSHARE_RANGE)

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

/* Opened for reading / for writing (Linux's FMODE_READ, FMODE_WRITE). */
static inline bool file_readable(const struct file *file)
{
	return (file->f_flags & O_ACCMODE) != O_WRONLY;
}

static inline bool file_writable(const struct file *file)
{
	return (file->f_flags & O_ACCMODE) != O_RDONLY;
}

/**
 * alloc_file() - a file with the given operations, not opened through a path
 * @fop: its operations
 * @flags: its O_* flags
 * @private_data: the file's private_data
 *
 * Context: process context; may sleep.
 * Return: the file with one reference, or NULL without memory.
 */
struct file *alloc_file(const struct file_operations *fop, unsigned int flags, void *private_data);
/**
 * get_file() - take another reference on a file
 * @file: the file, on which the caller holds a reference
 *
 * Context: any context; never sleeps.
 * Return: @file.
 */
struct file *get_file(struct file *file);
/**
 * fput() - drop a reference on a file
 * @file: the file, or NULL
 *
 * The last reference calls its ->release(), then drops its path and frees it.
 *
 * Context: process context; may sleep (at the last reference).
 */
void fput(struct file *file);

/**
 * file_read() - read from a file at its position, advancing it
 * @file: the file, or NULL
 * @buf: kernel memory to read into
 * @len: how many bytes at most
 *
 * Context: process context; may sleep.
 * Return: as kernel_read().
 */
ssize_t file_read(struct file *file, void *buf, size_t len);
ssize_t file_write(struct file *file, const void *buf, size_t len);
/**
 * kernel_read() - read from a file at a position of the caller's (Linux's kernel_read)
 * @file: the file, or NULL
 * @buf: kernel memory to read into
 * @len: how many bytes at most
 * @pos: where to read; advanced past what was read (the file's own position is not used)
 *
 * Context: process context; may sleep.
 * Return: the bytes read (0 at the end), or a negative errno: -EBADF for no file or one
 * opened write-only, -EINVAL for one that cannot be read, or its ->read()'s.
 */
ssize_t kernel_read(struct file *file, void *buf, size_t len, loff_t *pos);
/**
 * kernel_write() - write to a file at a position of the caller's (Linux's kernel_write)
 * @file: the file, or NULL
 * @buf: kernel memory to write from
 * @len: how many bytes
 * @pos: where to write; advanced past what was written
 *
 * Context: process context; may sleep.
 * Return: the bytes written, or a negative errno: -EBADF for no file or one opened
 * read-only, -EINVAL for one that cannot be written, or its ->write()'s.
 */
ssize_t kernel_write(struct file *file, const void *buf, size_t len, loff_t *pos);
/**
 * file_write_all() - write all of a buffer at a file's position, retrying short writes
 * @file: the file
 * @buf: kernel memory to write from
 * @len: how many bytes
 *
 * Context: process context; may sleep.
 * Return: @len, or a negative errno: the write's, or -EIO if a write wrote nothing.
 */
ssize_t file_write_all(struct file *file, const void *buf, size_t len);
/**
 * file_printf() - print to a file at its position
 * @file: the file
 * @fmt: the printf format
 * @...: its arguments
 *
 * Context: process context; may sleep.
 * Return: as file_vprintf().
 */
int file_printf(struct file *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/**
 * file_vprintf() - print to a file at its position, from a va_list
 * @file: the file
 * @fmt: the printf format
 * @ap: its arguments
 *
 * The whole text is written (file_write_all()); a long one goes through a buffer
 * allocated for it.
 *
 * Context: process context; may sleep.
 * Return: the length of the text, or a negative errno (-EINVAL for a bad format, -ENOMEM,
 * or the write's).
 */
int file_vprintf(struct file *file, const char *fmt, va_list ap);

#endif
