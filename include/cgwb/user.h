/*
 * The architecture's side of user mode, for the system-call layer (sys/): the registers a
 * program traps with, entering and leaving user mode, a program's page tables, its FPU and
 * TLS registers, and copying from and to its memory (x86_64: kernel/arch/user.c,
 * pgtable.c, entry_64.S, uaccess.S).
 *
 * A program runs inside a kernel task: the task calls arch_run_user(), which returns only
 * when something calls arch_leave_user() (the program exits, is killed, or faults), and the
 * task then cleans up as after any command. Between the two, the task's kernel stack below
 * the arch_run_user() frame takes the program's system calls and traps.
 */
#ifndef CGWB_USER_H
#define CGWB_USER_H

#include <cgwb/types.h>
#include <cgwb/compiler.h>
#include <cgwb/memlayout.h>

/* Registers saved at an interrupt, exception or system call, in push order reversed. */
struct pt_regs {
	u64 r15, r14, r13, r12, r11, r10, r9, r8;
	u64 rbp, rdi, rsi, rdx, rcx, rbx, rax;
	u64 vector, error_code; /* a system call: its number, 0 */
	u64 rip, cs, rflags, rsp, ss;
};

static inline bool user_mode(const struct pt_regs *regs)
{
	return (regs->cs & 3) == 3;
}

/* What the architecture keeps of a program's task (task->uthread). */
struct user_thread {
	u8 fxsave[512] __attribute__((aligned(16))); /* x87/SSE state while not on a CPU */
	u64 fs_base, gs_base;                        /* TLS bases (arch_prctl) */
	u64 *pgd;                                    /* its page tables' top */
	unsigned long kernel_sp;                     /* arch_run_user()'s frame */
	u64 clear_child_tid; /* the system-call layer's: zeroed and woken at the thread's end */
};

/* A fresh thread state for pgd (FPU state as after FNINIT, no TLS); NULL if out of memory. */
struct user_thread *user_thread_alloc(u64 *pgd);
void user_thread_free(struct user_thread *ut);
/* The registers a new program starts with: at entry, with its stack at sp. */
void user_regs_init(struct pt_regs *regs, u64 entry, u64 sp);
/*
 * Run current's program (current->uthread set) from regs until arch_leave_user(); returns
 * what that was given. Interrupts on.
 */
int user_thread_run(struct pt_regs *regs);
/* Back to user_thread_run()'s caller with code, from a system call or a trap of current's. */
__noreturn void user_thread_leave(int code);
/* fork: a copy of current's thread (its live FPU state, TLS) for a child on pgd. */
struct user_thread *user_thread_fork(u64 *pgd);
/* execve: current's thread starts afresh on pgd (FPU reset, no TLS), which is loaded. */
void user_thread_exec(u64 *pgd);
/* The registers current's program trapped or called with (on its kernel stack). */
struct pt_regs *current_user_regs(void);
/* The program's TLS bases (ARCH_SET_FS, ARCH_SET_GS). */
void user_set_fs_base(u64 base);
void user_set_gs_base(u64 base);

/* The address of the page fault being handled (CR2). */
u64 arch_fault_address(void);
#define PF_PROT 0x1   /* the page was present: a protection fault */
#define PF_WRITE 0x2  /* a write */
#define PF_USER 0x4   /* from user mode */
#define PF_INSTR 0x10 /* an instruction fetch */

/*
 * The system-call layer's hooks, called with interrupts off on the task's kernel stack:
 * user_trap() for every exception (true: handled, return to where it came from; false:
 * the kernel's own fault, which kills the kernel); exit_to_user() before every return to
 * user mode (pending kills end the program there). do_syscall_64() is the system call.
 */
struct user_mode_ops {
	bool (*user_trap)(struct pt_regs *regs);
	void (*exit_to_user)(struct pt_regs *regs);
};
void user_mode_register(const struct user_mode_ops *ops);
void do_syscall_64(struct pt_regs *regs);

/* ---------------------------------------------------------------- page tables */
#define UPROT_READ 0x1
#define UPROT_WRITE 0x2
#define UPROT_EXEC 0x4

/* A program's top table with the kernel's half in place; NULL if out of memory. */
u64 *user_pgd_alloc(void);
/* Free pgd's tables (the pages they map must have been unmapped). */
void user_pgd_free(u64 *pgd);
/* The tables down to va's entry made, so that mapping it needs no allocation: 0 or -ENOMEM. */
int user_pte_prepare(u64 *pgd, u64 va);
/* Map the page at physical address phys at va with prot: 0, -ENOMEM or -EEXIST. */
int user_map_page(u64 *pgd, u64 va, u64 phys, unsigned int prot);
/* Unmap va; the physical address it mapped, or 0. Flushes it from this CPU's TLB. */
u64 user_unmap_page(u64 *pgd, u64 va);
/* Change a present mapping's protection; false if va is not mapped. */
bool user_protect_page(u64 *pgd, u64 va, unsigned int prot);
/* What va maps to (0 if not) and its protection. */
u64 user_lookup_page(u64 *pgd, u64 va, unsigned int *prot);
/*
 * Every CPU drops its translations of [start, end) (start == end: of everything), for
 * entries changed in a program's tables that another CPU may be running. Interrupts on.
 */
void flush_tlb_user_range(u64 start, u64 end);

/* ---------------------------------------------------------------- program memory */
/* Is [addr, addr + len) inside the user half? */
static inline bool access_ok(u64 addr, u64 len)
{
	return addr + len >= addr && addr + len <= TASK_SIZE_MAX;
}
/* Copies that a bad address ends early: 0 or -EFAULT (what was copied before stays). */
int copy_from_user(void *dst, u64 src, size_t len);
int copy_to_user(u64 dst, const void *src, size_t len);
/* A NUL-terminated string of at most size - 1 bytes: its length, -EFAULT or -ENAMETOOLONG. */
long strncpy_from_user(char *dst, u64 src, size_t size);
/* The raw copy (uaccess.S): bytes not copied; a fault inside it resumes at its fixup. */
unsigned long copy_user_generic(void *dst, const void *src, unsigned long len);

#endif
