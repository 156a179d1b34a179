/*
 * The system-call layer's own structures: a program's memory (memory.c), loading it (exec.c,
 * binfmt_elf.c) and the system call table (syscall.c and the sys_*.c files).
 */
#ifndef CGWB_SYS_INTERNAL_H
#define CGWB_SYS_INTERNAL_H

#include <cgwb/types.h>
#include <cgwb/list.h>
#include <cgwb/mutex.h>
#include <cgwb/user.h>

struct file;
struct address_space;
struct task_struct;

/* A range of a program's addresses and what fills its pages, as Linux's vm_area_struct. */
struct vm_area_struct {
	struct list_head node; /* in mm->vmas, by address */
	struct mm_struct *mm;
	u64 start, end;    /* page-aligned, end exclusive */
	unsigned int prot; /* UPROT_* */
	bool shared;       /* a shared file mapping: the page cache's pages (shared-mapping.c) */
	struct file *file; /* a file mapping's file (its own reference), or NULL */
	u64 file_off;      /* the file offset at start */
	u64 file_end;      /* private: addresses from here read zeros (an ELF segment's bss) */
	struct list_head i_mmap_node; /* shared: in the file's mapping->i_mmap */
};

struct mm_struct {
	u64 *pgd;
	struct mutex lock;          /* the VMA list and the page tables below */
	spinlock_t page_table_lock; /* the entries of shared pages (the reverse map's too) */
	struct list_head vmas;
	u64 start_brk, brk; /* the heap: [start_brk, brk) */
	u64 mmap_base;      /* mmap() without a hint places areas below this, top down */
	long rss;           /* pages mapped (atomic: the reverse map changes it without mm->lock) */
	int users;          /* the threads running on it (atomic) */
};

#define STACK_TOP 0x00007ffffffde000UL
#define STACK_SIZE_MAX (8UL << 20) /* RLIMIT_STACK's default */
#define MMAP_BASE (STACK_TOP - STACK_SIZE_MAX - (1UL << 30))
#define ELF_ET_DYN_BASE 0x555555554000UL /* where a static-pie goes, as Linux's */

/*
 * The count of pages mapped: faults add under mm->lock, the reverse map removes under
 * page_table_lock only, so neither lock covers it (Linux's rss_stat is atomic too).
 */
static inline void inc_mm_counter(struct mm_struct *mm)
{
	__atomic_add_fetch(&mm->rss, 1, __ATOMIC_RELAXED);
}

static inline void dec_mm_counter(struct mm_struct *mm)
{
	__atomic_sub_fetch(&mm->rss, 1, __ATOMIC_RELAXED);
}

static inline long get_mm_counter(struct mm_struct *mm)
{
	return __atomic_load_n(&mm->rss, __ATOMIC_RELAXED);
}

/* memory.c */
/* A new address space with one user; another thread's use; the last put frees it. */
struct mm_struct *mm_alloc(void);
void mm_get(struct mm_struct *mm);
void mm_put(struct mm_struct *mm);
/*
 * With mm->lock held (mm_brk() takes it): add [start, end) (page-aligned) with prot,
 * replacing what was there; file ranges read through file (referenced).
 */
int mm_map(struct mm_struct *mm, u64 start, u64 end, unsigned int prot, struct file *file,
	   u64 file_off, u64 file_end);
/* The same for a shared mapping of file at file_off. */
int mm_map_shared(struct mm_struct *mm, u64 start, u64 end, unsigned int prot, struct file *file,
		  u64 file_off);
int mm_unmap(struct mm_struct *mm, u64 start, u64 end);
int mm_protect(struct mm_struct *mm, u64 start, u64 end, unsigned int prot);
/* Drop the pages of [start, end), keeping the areas: they read as new (MADV_DONTNEED). */
void mm_zap(struct mm_struct *mm, u64 start, u64 end);
/* A free range of len bytes below mm->mmap_base; 0 if none. */
u64 mm_get_unmapped_area(struct mm_struct *mm, u64 len);
/* The page fault of a program at addr (PF_* error code): 0, -EFAULT (no such area) or
 * -EACCES (the area forbids it), -ENXIO (a shared file page past its end: SIGBUS),
 * -ENOMEM, or the file's error. A store that dirtied a
 * shared file page is throttled as a write is (balance_dirty_pages_ratelimited()). */
int handle_mm_fault(struct mm_struct *mm, u64 addr, unsigned int error_code);

/* shared-mapping.c */
void shared_mapping_init(void);
void vma_link_file(struct vm_area_struct *v);
void vma_unlink_file(struct vm_area_struct *v);
/* A fault in shared area v at va (mm->lock held): 0, -ENXIO past the file's end, ... */
int fault_shared(struct mm_struct *mm, struct vm_area_struct *v, u64 va, bool write);
/*
 * Bytes written into mm at va, pages made as needed: for an address space that is not the
 * running one (a new image's stack, a child's tid). mm->lock not held.
 */
int mm_copy_to(struct mm_struct *mm, u64 va, const void *src, size_t len);
/* A copy of old (fork): its areas, and a copy of every page it has. */
struct mm_struct *mm_dup(struct mm_struct *old);
/* If addr lies in a shared file mapping of mm: the file's page cache and addr's offset in it
 * (for futex keys; takes mm's lock). */
bool mm_shared_file_pos(struct mm_struct *mm, u64 addr, struct address_space **mapping, u64 *pos);
/* brk(2) */
u64 mm_brk(struct mm_struct *mm, u64 brk);

/* sys_file.c: descriptors and paths */
#define AT_FDCWD -100
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_EMPTY_PATH 0x1000
/* A path argument: into a kernel buffer (kfree it), resolved against dirfd; NULL and *err. */
char *get_path(int dirfd, u64 upath, long *err);

/* sys_mm.c: where mappings go, and the files behind shared memory */
#define MAP_FIXED 0x10
#define MAP_FIXED_NOREPLACE 0x100000
/*
 * Where a mapping of len bytes goes, mm's lock held: addr if MAP_FIXED (-EINVAL if it cannot
 * be), or with MAP_FIXED_NOREPLACE if nothing is mapped there (-EEXIST otherwise); a free
 * page-aligned hint; else below mmap_base (-ENOMEM: no room).
 */
long mmap_place(struct mm_struct *mm, u64 addr, u64 len, u64 flags);
/* An unnamed file of len bytes (made and unlinked at once in /tmp), or an ERR_PTR. */
struct file *shmem_file_setup(u64 len);

/* The signals faults raise (traps.c), and those whose default is to go unnoticed. */
#define SIGILL 4
#define SIGTRAP 5
#define SIGBUS 7
#define SIGFPE 8
#define SIGSEGV 11
#define SIGCHLD 17
#define SIGCONT 18
#define SIGURG 23
#define SIGWINCH 28

/* process.c: the parent and children of programs, the life of their threads */
/* End current's thread with a wait status (exit code << 8, or the signal). */
__noreturn void program_exit(int wstatus);
/* Run current's thread from regs to its end, then free it: its wait status. */
int program_run(struct pt_regs *regs);
/* current's process (task set by the caller for a child); parent NULL for the shell's */
struct program *program_alloc(struct program *parent);
/* current's program has ended with wstatus: its children are reaped or let go */
void program_release_children(int wstatus);
int program_ppid(void);
/*
 * exit(2) of current's thread. The first thread's leaves the process to the others, as
 * Linux's: it waits for the last of them (glibc's last thread then calls exit_group), and
 * an exit_group or a kill among them ends the wait with the process's status.
 */
__noreturn void program_exit_thread(int wstatus);
/* The process's end for every thread: exit_group's wait status, the others killed. */
__noreturn void program_group_exit(int wstatus);
/* The process's threads but current: killed (the process ends); and waited for, as
 * Linux's exit waits for the thread group to empty. */
void program_kill_threads(void);
void program_wait_threads(void);
/*
 * execve's de_thread(): the process's other threads end (killed, and waited for) before
 * the new image replaces the old, as Linux's. Only from the first thread: another
 * thread's execve leaves the others running (Linux's makes that thread the first).
 */
void program_de_thread(void);
/*
 * A vfork child lets its parent go on (Linux's mm_release()): at execve, once the memory
 * it ran on is the parent's alone again, and at its end.
 */
void program_vfork_release(void);
/* A pending kill's end of current: the whole process with the kill's status. */
__noreturn void program_kill_exit(void);
/* Is current its process's first thread (whose end is the process's)? */
bool program_is_leader(void);
/* A thread other than the first leaves its process (program_run()). */
void program_thread_exit(void);
/* The first thread ended by a sibling's exit_group: its pending kill was that, not a kill. */
void program_leader_group_exit(void);
/* The thread's CLONE_CHILD_CLEARTID / set_tid_address word: zeroed, its waiter woken. */
void thread_clear_child_tid(void);
/* getpid(): the process's id, its first thread's. */
int program_tgid(void);
/*
 * clone and clone3 (CSIGNAL's bits and clone3's checks done): a process, or a thread of
 * current's (CLONE_VM | CLONE_SIGHAND | CLONE_THREAD). Linux's refusals are -EINVAL; what
 * cgwb cannot make (shared memory without a thread group, namespaces...) -ENOSYS.
 */
long kernel_clone(u64 flags, u64 stack, u64 ptid, u64 ctid, u64 tls, int exit_signal);

/* sys_time.c */
struct timespec_user {
	s64 tv_sec, tv_nsec;
};
/* A program's struct timespec as nanoseconds: 0, -EFAULT or -EINVAL. */
long get_timespec_ns(u64 uts, u64 *ns);

/* sys_misc.c */
/* A xorshift generator seeded by the clock and the task (AT_RANDOM, getrandom): not a
 * cryptographic source (docs/programs.md). */
u64 random_state_init(void);
void random_fill(u64 *state, u8 *out, size_t len);

/* futex.c */
/* Wake up to nr waiters of the futex at uaddr in mm (keyed as a shared one, as Linux wakes
 * CLONE_CHILD_CLEARTID's): how many were woken. */
long futex_wake(struct mm_struct *mm, u64 uaddr, int nr, u32 bitset);

/* syscall.c */
typedef long (*syscall_fn)(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5);
struct syscall_entry {
	const char *name;
	syscall_fn fn;
};
/* Each sys_*.c file's calls, by number: the table is assembled at start-up. */
struct syscall_def {
	unsigned int nr;
	const char *name;
	syscall_fn fn;
};
struct syscall_table {
	const struct syscall_def *defs;
	size_t n;
};
/* Each file's calls, which syscalls_init() puts in the table. */
extern const struct syscall_table sys_file_calls, sys_mm_calls, sys_misc_calls, sys_exec_calls,
	sys_process_calls, sys_futex_calls, sys_poll_calls, sys_timerfd_calls, sys_time_calls,
	sys_shm_calls, sys_stat_calls, sys_sync_calls, sys_signal_calls, sys_itimer_calls,
	sys_sendfile_calls, sys_clone3_calls;
/* futex.c's buckets, before the first futex call. */
void futex_init(void);

/* trace-syscalls.c: the raw_syscalls events (<cgwb/trace/syscalls.h>) join tracefs */
void syscall_trace_init(void);

/* traps.c: the hooks of <cgwb/user.h> */
void traps_init(void);
/* The way back to user mode after a trap or interrupt, and after a system call. */
void exit_to_user_mode(struct pt_regs *regs);
void syscall_exit_to_user_mode(struct pt_regs *regs);

/*
 * files.c: current's descriptor table. fd's file, or NULL (held until the system call ends);
 * the lowest free descriptor >= from for file (its reference), or -EMFILE.
 */
struct file *fd_file(int fd);
int fd_install(struct file *file, int from);
/* fd's file taken out of the table (the caller puts it), or NULL. */
struct file *fd_remove(int fd);
/* file (its reference) at fd, 0 <= fd < TASK_NR_FILES: what was there (the caller puts it). */
struct file *fd_replace(int fd, struct file *file);
/* The end of a system call: the files it looked up in a shared table are put. */
void files_put_borrowed(void);
/* fork: t's files[] a copy of current's table. */
void files_copy_to(struct task_struct *t);
/* CLONE_FILES: current's table made shareable (0, -ENOMEM); then shared with t. */
int files_make_shared(void);
void files_share_with(struct task_struct *t);
/* execve, a task's end: current's table its own again (files[]), shared with nobody. */
void files_unshare(void);

#endif
