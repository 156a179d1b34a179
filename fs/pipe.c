/* Pipes: a ring buffer between a read end and a write end, with a wait queue for each. */
#include <cgwb/file.h>
#include <cgwb/sched.h>
#include <cgwb/wait.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/pipe.h>

#define PIPE_SIZE 16384

struct pipe {
	spinlock_t lock;
	wait_queue_head_t rd_wait; /* readers waiting for data or the end */
	wait_queue_head_t wr_wait; /* writers waiting for room or for no reader */
	size_t head, tail;         /* bytes ever written / read */
	int readers, writers;      /* open ends */
	char *buf;
};

static bool pipe_readable(const struct pipe *p)
{
	return READ_ONCE(p->head) != READ_ONCE(p->tail) || !READ_ONCE(p->writers);
}

static bool pipe_writable(const struct pipe *p)
{
	return READ_ONCE(p->head) - READ_ONCE(p->tail) < PIPE_SIZE || !READ_ONCE(p->readers);
}

/* Copy in and out of the ring at byte position pos, wrapping at the end. */
static void ring_put(struct pipe *p, size_t pos, const char *src, size_t n)
{
	size_t off = pos % PIPE_SIZE, first = min(n, PIPE_SIZE - off);

	memcpy(p->buf + off, src, first);
	memcpy(p->buf, src + first, n - first);
}

static void ring_get(const struct pipe *p, size_t pos, char *dst, size_t n)
{
	size_t off = pos % PIPE_SIZE, first = min(n, PIPE_SIZE - off);

	memcpy(dst, p->buf + off, first);
	memcpy(dst + first, p->buf, n - first);
}

static ssize_t pipe_read(struct file *file, char *buf, size_t len, loff_t *pos)
{
	struct pipe *p = file->private_data;
	size_t n;

	if (!len)
		return 0;
	if ((file->f_flags & O_NONBLOCK) && !pipe_readable(p))
		return -EAGAIN;
	if (wait_event_interruptible(p->rd_wait, pipe_readable(p)))
		return -EINTR;
	spin_lock(&p->lock);
	n = min(len, p->head - p->tail);
	ring_get(p, p->tail, buf, n);
	p->tail += n;
	spin_unlock(&p->lock);
	if (n)
		wake_up(&p->wr_wait);
	return (ssize_t)n; /* 0: every writer is gone */
}

static ssize_t pipe_write(struct file *file, const char *buf, size_t len, loff_t *pos)
{
	struct pipe *p = file->private_data;
	size_t done = 0;

	while (done < len) {
		size_t n;

		if ((file->f_flags & O_NONBLOCK) && !pipe_writable(p))
			return done ? (ssize_t)done : -EAGAIN;
		if (wait_event_interruptible(p->wr_wait, pipe_writable(p)))
			return done ? (ssize_t)done : -EINTR;
		if (!READ_ONCE(p->readers)) {
			send_sig_kill(current); /* SIGPIPE: a writer nobody reads has nothing to do */
			return done ? (ssize_t)done : -EPIPE;
		}
		spin_lock(&p->lock);
		n = min(len - done, PIPE_SIZE - (p->head - p->tail));
		ring_put(p, p->head, buf + done, n);
		p->head += n;
		spin_unlock(&p->lock);
		wake_up(&p->rd_wait);
		done += n;
	}
	return (ssize_t)done;
}

static int pipe_release(struct inode *inode, struct file *file)
{
	struct pipe *p = file->private_data;
	bool reader = (file->f_flags & O_ACCMODE) == O_RDONLY;
	bool last;

	spin_lock(&p->lock);
	if (reader) {
		p->readers--;
		wake_up(&p->wr_wait);
	} else {
		p->writers--;
		wake_up(&p->rd_wait);
	}
	/* woken under the lock: once the other end sees last, nothing here touches p */
	last = !p->readers && !p->writers;
	spin_unlock(&p->lock);
	if (last) {
		kfree(p->buf);
		kfree(p);
	}
	return 0;
}

/* The end's own side: a reader sees data or its writers gone, a writer room or no reader. */
static unsigned int pipe_poll(struct file *file, struct poll_table *pt)
{
	struct pipe *p = file->private_data;
	bool reader = (file->f_flags & O_ACCMODE) == O_RDONLY;

	poll_wait(file, reader ? &p->rd_wait : &p->wr_wait, pt);
	if (reader)
		return (READ_ONCE(p->head) != READ_ONCE(p->tail) ? POLLIN : 0) |
		       (!READ_ONCE(p->writers) ? POLLHUP | POLLIN : 0);
	return (pipe_writable(p) ? POLLOUT : 0) | (!READ_ONCE(p->readers) ? POLLERR : 0);
}

static const struct file_operations pipe_fops = {
	.read = pipe_read,
	.write = pipe_write,
	.release = pipe_release,
	.poll = pipe_poll,
};

int create_pipe_files(struct file **rd, struct file **wr)
{
	struct pipe *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	p->buf = kmalloc(PIPE_SIZE, GFP_KERNEL);
	*rd = p->buf ? alloc_file(&pipe_fops, O_RDONLY, p) : NULL;
	*wr = *rd ? alloc_file(&pipe_fops, O_WRONLY, p) : NULL;
	if (!*wr) {
		kfree(*rd); /* not fput: its release would count an end never opened */
		kfree(p->buf);
		kfree(p);
		return -ENOMEM;
	}
	spin_lock_init(&p->lock);
	init_waitqueue_head(&p->rd_wait);
	init_waitqueue_head(&p->wr_wait);
	p->readers = 1;
	p->writers = 1;
	return 0;
}

bool pipe_broken(const struct file *f)
{
	const struct pipe *p;

	if (!f || f->f_op != &pipe_fops)
		return false;
	p = f->private_data;
	return !READ_ONCE(p->readers);
}

bool file_is_pipe(const struct file *f)
{
	return f && f->f_op == &pipe_fops;
}
