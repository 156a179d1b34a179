/*
 * System V shared memory (Linux's ipc/shm.c): shmget, shmat, shmdt, shmctl. What fio needs
 * to run its jobs as processes: its thread_data lives in a segment the forked jobs share.
 *
 * A segment is an unnamed file (shmem_file_setup(), as a shared anonymous mapping's) that
 * shmat maps shared; the id table holds one reference and every attachment its own (the
 * mapping's file reference, which fork copies), so IPC_RMID takes the id away at once and
 * the memory goes with the last detach or exit, as Linux's SHM_DEST. The segment's file
 * carries a marker in private_data by which shmdt tells an attachment from other shared
 * mappings. Ids are slot + SHMMNI * a generation, so a removed id is not reused at once.
 * shm_nattch counts shmat and shmdt calls only (not forks nor exits). Permissions are not
 * checked (everyone is root).
 *
 * Lock order: shm_lock, then an address space's lock (shmat and shmdt take the latter
 * without the former).
 */
#include <cgwb/sched.h>
#include <cgwb/mutex.h>
#include <cgwb/file.h>
#include <cgwb/errno.h>
#include <cgwb/jiffies.h>
#include <cgwb/string.h>
#include <cgwb/mm.h>
#include "internal.h"

#define SHMMNI 64
#define SHMMAX (1ULL << 30)
#define IPC_PRIVATE 0
#define IPC_CREAT 01000
#define IPC_EXCL 02000
#define IPC_RMID 0
#define IPC_SET 1
#define IPC_STAT 2
#define IPC_64 0x100
#define SHM_LOCK 11
#define SHM_UNLOCK 12
#define SHM_RDONLY 010000
#define SHM_RND 020000
#define SHMLBA PAGE_SIZE

struct shmid_segment {
	struct file *file; /* NULL: a free slot */
	int key;
	u16 gen;
	u32 mode;
	u64 size;
	int cpid, lpid;
	u64 atime, dtime, ctime;
	unsigned long nattch;
};

/* x86-64's struct shmid64_ds (struct shmid_ds is the same there) */
struct user_shmid_ds {
	s32 key;
	u32 uid, gid, cuid, cgid, mode;
	u16 seq, pad2;
	u64 unused1, unused2;
	u64 shm_segsz;
	s64 shm_atime, shm_dtime, shm_ctime;
	s32 shm_cpid, shm_lpid;
	u64 shm_nattch, unused4, unused5;
};

static struct shmid_segment segments[SHMMNI];
static DEFINE_MUTEX(shm_lock);
static const char shm_marker; /* a segment's file: private_data == &shm_marker */

static int shm_id(const struct shmid_segment *s)
{
	return (int)(s - segments) + SHMMNI * s->gen;
}

/* The live segment of id, shm_lock held; NULL if there is none. */
static struct shmid_segment *shm_lookup(long id)
{
	struct shmid_segment *s;

	if (id < 0)
		return NULL;
	s = &segments[id % SHMMNI];
	return s->file && shm_id(s) == id ? s : NULL;
}

static struct shmid_segment *shm_find_key(int key)
{
	for (unsigned int i = 0; i < SHMMNI; i++)
		if (segments[i].file && segments[i].key == key)
			return &segments[i];
	return NULL;
}

static struct shmid_segment *shm_of_file(const struct file *file)
{
	for (unsigned int i = 0; i < SHMMNI; i++)
		if (segments[i].file == file)
			return &segments[i];
	return NULL;
}

/* A new segment of size bytes, shm_lock held: its id, or -ENOSPC, -ENOMEM... */
static long shm_create(int key, u64 size, u32 mode)
{
	struct shmid_segment *s = NULL;
	struct file *file;
	u16 gen;

	for (unsigned int i = 0; i < SHMMNI && !s; i++)
		if (!segments[i].file)
			s = &segments[i];
	if (!s)
		return -ENOSPC;
	file = shmem_file_setup(PAGE_ALIGN(size));
	if (IS_ERR(file))
		return PTR_ERR(file);
	file->private_data = (void *)&shm_marker;
	gen = (u16)((s->gen + 1) & 0x7fff); /* ids stay positive ints */
	*s = (struct shmid_segment){ .file = file,
				     .key = key,
				     .gen = gen,
				     .mode = mode & 0777,
				     .size = size,
				     .cpid = program_tgid(),
				     .ctime = ktime_get_real_seconds() };
	return shm_id(s);
}

static long sys_shmget(u64 key, u64 size, u64 flags, u64 a3, u64 a4, u64 a5)
{
	struct shmid_segment *s = NULL;
	long ret;

	mutex_lock(&shm_lock);
	if ((int)key != IPC_PRIVATE)
		s = shm_find_key((int)key);
	if (s)
		ret = (flags & IPC_CREAT) && (flags & IPC_EXCL) ? -EEXIST :
		      size > s->size                            ? -EINVAL :
								  shm_id(s);
	else if ((int)key != IPC_PRIVATE && !(flags & IPC_CREAT))
		ret = -ENOENT;
	else if (!size || size > SHMMAX)
		ret = -EINVAL;
	else
		ret = shm_create((int)key, size, (u32)flags);
	mutex_unlock(&shm_lock);
	return ret;
}

/* Map file's first len bytes shared at addr (0: where mmap would): the address or an error. */
static long shm_map(struct file *file, u64 addr, u64 len, unsigned int prot)
{
	struct mm_struct *mm = current->mm;
	long at;

	mutex_lock(&mm->lock);
	at = mmap_place(mm, addr, len, addr ? MAP_FIXED_NOREPLACE : 0);
	if (at == -EEXIST)
		at = -EINVAL; /* Linux: no SHM_REMAP, and something is mapped there */
	if (at >= 0) {
		long err = mm_map_shared(mm, (u64)at, (u64)at + len, prot, file, 0);

		at = err ? err : at;
	}
	mutex_unlock(&mm->lock);
	return at;
}

static long sys_shmat(u64 id, u64 addr, u64 flags, u64 a3, u64 a4, u64 a5)
{
	unsigned int prot = UPROT_READ | (flags & SHM_RDONLY ? 0 : UPROT_WRITE);
	struct shmid_segment *s;
	struct file *file;
	u64 len;
	long at;

	if (flags & SHM_RND)
		addr &= ~(u64)(SHMLBA - 1);
	if (addr & (SHMLBA - 1))
		return -EINVAL;
	mutex_lock(&shm_lock);
	s = shm_lookup((long)id);
	file = s ? get_file(s->file) : NULL;
	len = s ? PAGE_ALIGN(s->size) : 0;
	mutex_unlock(&shm_lock);
	if (!file)
		return -EINVAL;
	at = shm_map(file, addr, len, prot);
	fput(file); /* the area holds its own */
	if (at < 0)
		return at;
	mutex_lock(&shm_lock);
	s = shm_lookup((long)id);
	if (s) {
		s->nattch++;
		s->lpid = program_tgid();
		s->atime = ktime_get_real_seconds();
	}
	mutex_unlock(&shm_lock);
	return at;
}

/* Unmap the attachment at addr (its areas, however mprotect split them): its file, held. */
static struct file *shm_unmap(struct mm_struct *mm, u64 addr)
{
	struct vm_area_struct *v, *first = NULL;
	struct file *file = NULL;
	u64 end = addr;

	mutex_lock(&mm->lock);
	list_for_each_entry(v, &mm->vmas, node) {
		if (!first && v->start == addr && v->shared && v->file &&
		    v->file->private_data == &shm_marker && v->file_off == 0)
			first = v;
		if (first && v->file == first->file && v->start == end)
			end = v->end;
	}
	if (first) {
		file = get_file(first->file);
		mm_unmap(mm, addr, end);
	}
	mutex_unlock(&mm->lock);
	return file;
}

static long sys_shmdt(u64 addr, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct file *file = shm_unmap(current->mm, addr);
	struct shmid_segment *s;

	if (!file)
		return -EINVAL;
	mutex_lock(&shm_lock);
	s = shm_of_file(file);
	if (s) {
		s->nattch -= s->nattch > 0;
		s->lpid = program_tgid();
		s->dtime = ktime_get_real_seconds();
	}
	mutex_unlock(&shm_lock);
	fput(file);
	return 0;
}

static void shm_stat(const struct shmid_segment *s, struct user_shmid_ds *ds)
{
	memset(ds, 0, sizeof(*ds));
	ds->key = s->key;
	ds->mode = s->mode;
	ds->seq = s->gen;
	ds->shm_segsz = s->size;
	ds->shm_atime = (s64)s->atime;
	ds->shm_dtime = (s64)s->dtime;
	ds->shm_ctime = (s64)s->ctime;
	ds->shm_cpid = s->cpid;
	ds->shm_lpid = s->lpid;
	ds->shm_nattch = s->nattch;
}

static long sys_shmctl(u64 id, u64 cmd, u64 buf, u64 a3, u64 a4, u64 a5)
{
	struct user_shmid_ds ds;
	struct shmid_segment *s;
	struct file *gone = NULL;
	long ret = 0;

	mutex_lock(&shm_lock);
	s = shm_lookup((long)id);
	if (!s) {
		ret = -EINVAL;
	} else {
		switch (cmd & ~(u64)IPC_64) {
		case IPC_RMID:
			gone = s->file;
			s->file = NULL;
			break;
		case IPC_STAT:
			shm_stat(s, &ds);
			break;
		case IPC_SET: /* nothing to set: no owners or permissions yet */
		case SHM_LOCK:
		case SHM_UNLOCK:
			break;
		default:
			ret = -EINVAL;
		}
	}
	mutex_unlock(&shm_lock);
	if (gone)
		fput(gone);
	if (!ret && (cmd & ~(u64)IPC_64) == IPC_STAT && copy_to_user(buf, &ds, sizeof(ds)))
		ret = -EFAULT;
	return ret;
}

static const struct syscall_def calls[] = {
	{ 29, "shmget", sys_shmget },
	{ 30, "shmat", sys_shmat },
	{ 31, "shmctl", sys_shmctl },
	{ 67, "shmdt", sys_shmdt },
};

const struct syscall_table sys_shm_calls = { calls, ARRAY_SIZE(calls) };
