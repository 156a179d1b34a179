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

/* ---------------------------------------------------------------- signal frames */
/*
 * The system-call layer keeps a program's handlers, masks and pending signals (sys/signal.c);
 * the architecture lays out the frame a handler runs on and reads it back at rt_sigreturn
 * (x86_64: kernel/arch/signal.c, Linux's rt_sigframe), and knows how a system call is
 * made again after a handler.
 */
#define _NSIG 64
#define SIG_DFL 0
#define SIG_IGN 1
#define SA_SIGINFO 0x00000004u
#define SA_RESTORER 0x04000000u
#define SA_ONSTACK 0x08000000u
#define SA_RESTART 0x10000000u
#define SA_NODEFER 0x40000000u
#define SA_RESETHAND 0x80000000u
#define SS_ONSTACK 1
#define SS_DISABLE 2

/* A disposition: rt_sigaction's struct sigaction, as the program passes it (x86_64). */
struct k_sigaction {
	u64 handler;  /* SIG_DFL, SIG_IGN or the handler's address */
	u64 flags;    /* SA_* */
	u64 restorer; /* SA_RESTORER: where the handler returns to (the C library's sigreturn) */
	u64 mask;     /* also blocked while the handler runs */
};

/* What siginfo_t says of a signal; trapno < 0 for one no exception raised. */
struct kernel_siginfo {
	int signo, code;
	int pid;    /* the sender's process (kill, tkill; SIGCHLD: the child) */
	int status; /* SIGCHLD: the child's exit code or signal */
	u64 addr;   /* faults: the address */
	int trapno;
	u64 error_code;
};

/* sigaltstack's stack_t */
struct user_stack {
	u64 ss_sp;
	int ss_flags;
	u64 ss_size;
};

/* Is sp on the alternate stack ss (which grows down from ss_sp + ss_size)? */
static inline bool on_sig_stack(const struct user_stack *ss, u64 sp)
{
	return ss->ss_size && sp > ss->ss_sp && sp - ss->ss_sp <= ss->ss_size;
}

/* stack_t's ss_flags for a program at sp. */
static inline int sas_ss_flags(const struct user_stack *ss, u64 sp)
{
	if (!ss->ss_size)
		return SS_DISABLE;
	return on_sig_stack(ss, sp) ? SS_ONSTACK : 0;
}

/* A signal to deliver: its disposition, its information and the thread's alternate stack. */
struct ksignal {
	int sig;
	struct k_sigaction ka;
	struct kernel_siginfo info;
	struct user_stack altstack;
};

/*
 * Push the frame of ksig's handler on the program's stack (its alternate stack with
 * SA_ONSTACK), with blocked the mask its rt_sigreturn restores, and point regs at the handler
 * with a fresh FPU state: 0, or -EFAULT if the frame cannot be written (the program is then
 * ended by SIGSEGV). Interrupts on: writing the stack may fault its pages in.
 */
int setup_rt_frame(const struct ksignal *ksig, u64 blocked, struct pt_regs *regs);
/*
 * rt_sigreturn: regs and the FPU as the frame below regs->rsp holds them, sanitised so no
 * frame gives the program more than user mode (user selectors, only the arithmetic and
 * trap flags); the mask and alternate stack it saved into *blocked and *ss. 0, or -EFAULT
 * for a frame that cannot be read or restored (the program is then ended by SIGSEGV).
 */
int restore_rt_frame(struct pt_regs *regs, u64 *blocked, struct user_stack *ss);
/* regs, after a system call a signal interrupted, make it again on the way back. */
void syscall_restart(struct pt_regs *regs);
/* Marks regs as not returning from a system call (rt_sigreturn's: nothing to restart). */
void syscall_forget(struct pt_regs *regs);
/* The system call regs returned from, or -1 (syscall_forget). */
long syscall_nr(const struct pt_regs *regs);

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
