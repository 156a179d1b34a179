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

/**
 * user_thread_alloc() - a fresh thread state for a program
 * @pgd: the top of its page tables
 *
 * The FPU state as after FNINIT, no TLS.
 *
 * Context: process context; may sleep.
 * Return: the state, or NULL if out of memory.
 */
struct user_thread *user_thread_alloc(u64 *pgd);
/**
 * user_thread_free() - free a thread state, its program over
 * @ut: the state; if it is current's, current leaves it and the CPU goes back to the
 *      kernel's page tables first, before the program's can go
 *
 * Context: process context.
 */
void user_thread_free(struct user_thread *ut);
/**
 * user_regs_init() - the registers a new program starts with
 * @regs: set to them: user code and stack selectors, interrupts on
 * @entry: where it starts
 * @sp: its stack pointer
 *
 * Context: any context.
 */
void user_regs_init(struct pt_regs *regs, u64 entry, u64 sp);
/**
 * user_thread_run() - run current's program until something makes it leave
 * @regs: the registers it starts (or goes on) from
 *
 * Loads its FPU state, TLS bases and page tables, and enters user mode; its system calls
 * and traps run on the task's kernel stack below this frame.
 *
 * Context: current's task, current->uthread set, interrupts on.
 * Return: what user_thread_leave() was given.
 */
int user_thread_run(struct pt_regs *regs);
/**
 * user_thread_leave() - back to user_thread_run()'s caller
 * @code: what user_thread_run() returns
 *
 * Context: a system call or a trap of current's program.
 */
__noreturn void user_thread_leave(int code);
/**
 * user_thread_fork() - a copy of current's thread state for a child (fork)
 * @pgd: the child's page tables
 *
 * Its live FPU state and its TLS bases.
 *
 * Context: a system call of current's program; may sleep.
 * Return: the child's state, or NULL if out of memory.
 */
struct user_thread *user_thread_fork(u64 *pgd);
/**
 * user_thread_exec() - current's thread starts afresh on new page tables (execve)
 * @pgd: the new page tables, loaded here
 *
 * The FPU is reset and the TLS bases cleared.
 *
 * Context: a system call of current's program.
 */
void user_thread_exec(u64 *pgd);
/**
 * current_user_regs() - the registers current's program trapped or called with
 *
 * Context: a system call or a trap of current's program.
 * Return: them, on the task's kernel stack.
 */
struct pt_regs *current_user_regs(void);
/**
 * user_set_fs_base() - set the program's FS base (arch_prctl ARCH_SET_FS: its TLS)
 * @base: the base
 *
 * Context: a system call of current's program.
 */
void user_set_fs_base(u64 base);
/**
 * user_set_gs_base() - set the program's GS base (arch_prctl ARCH_SET_GS)
 * @base: the base, swapped in on the return to user mode
 *
 * Context: a system call of current's program.
 */
void user_set_gs_base(u64 base);

/**
 * arch_fault_address() - the address of the page fault being handled (CR2)
 *
 * Context: a page fault's handler, before anything else can fault.
 * Return: the address.
 */
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
/**
 * user_mode_register() - register the system-call layer's user-mode hooks
 * @ops: the hooks, static
 *
 * Context: start-up, once (syscalls_init()).
 */
void user_mode_register(const struct user_mode_ops *ops);
/**
 * do_syscall_64() - a program's system call (sys/syscall.c)
 * @regs: its registers: the number in ->vector (Linux's orig_ax), the arguments in rdi,
 *        rsi, rdx, r10, r8, r9; ->rax takes the result
 *
 * Called by the SYSCALL entry (kernel/arch/entry_64.S) with interrupts off; they are on
 * while the call runs, and the way back to user mode runs exit_to_user().
 *
 * Context: the program's task, on its kernel stack; may sleep.
 */
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
#define SI_TKILL (-6) /* si_code of tkill and tgkill: the _kill layout, no value */

struct kernel_siginfo {
	int signo, code;
	int pid;    /* the sender's process (kill, tkill; SIGCHLD: the child) */
	int status; /* SIGCHLD: the child's exit code or signal */
	u64 addr;   /* faults: the address */
	int trapno;
	u64 error_code;
	u64 value; /* sigqueue's si_value (codes below 0 but SI_TKILL) */
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

/**
 * setup_rt_frame() - push a signal handler's frame and point the program at the handler
 * @ksig: the signal: its disposition, information and the thread's alternate stack (used
 *        with SA_ONSTACK)
 * @blocked: the mask the handler's rt_sigreturn restores
 * @regs: the program's registers, saved in the frame, then pointed at the handler
 *
 * Linux's rt_sigframe, with a fresh FPU state for the handler.
 *
 * Context: the program's task, interrupts on (writing the stack may fault its pages in).
 * Return: 0, or -EFAULT if the frame cannot be written or the disposition has no
 * SA_RESTORER (the program is then ended by SIGSEGV).
 */
int setup_rt_frame(const struct ksignal *ksig, u64 blocked, struct pt_regs *regs);
/**
 * restore_rt_frame() - rt_sigreturn: the registers and FPU a handler's frame saved
 * @regs: set from the frame below regs->rsp, sanitised so no frame gives the program more
 *        than user mode (user selectors, only the arithmetic and trap flags)
 * @blocked: set to the mask the frame saved
 * @ss: set to the alternate stack the frame saved
 *
 * Context: the program's task, interrupts on.
 * Return: 0, or -EFAULT for a frame that cannot be read or restored (the program is then
 * ended by SIGSEGV).
 */
int restore_rt_frame(struct pt_regs *regs, u64 *blocked, struct user_stack *ss);
/**
 * copy_siginfo_to_user() - a signal's information as the program's siginfo_t
 * @uinfo: the program's siginfo_t (rt_sigtimedwait's)
 * @info: the signal's information
 *
 * Context: the program's task; may fault its pages in.
 * Return: 0, or -EFAULT if @uinfo cannot be written.
 */
int copy_siginfo_to_user(u64 uinfo, const struct kernel_siginfo *info);
/**
 * copy_siginfo_from_user() - a program's siginfo_t to send (rt_sigqueueinfo)
 * @info: set from it: the code, the sender's pid and the value (trapno -1: not a fault)
 * @uinfo: the program's siginfo_t
 *
 * Context: the program's task; may fault its pages in.
 * Return: 0, or -EFAULT if @uinfo cannot be read.
 */
int copy_siginfo_from_user(struct kernel_siginfo *info, u64 uinfo);
/**
 * syscall_restart() - make an interrupted system call again on the way back
 * @regs: the registers of the system call a signal interrupted (SA_RESTART)
 *
 * Context: the program's task.
 */
void syscall_restart(struct pt_regs *regs);
/**
 * syscall_forget() - mark registers as not returning from a system call
 * @regs: the registers (rt_sigreturn's: nothing to restart)
 *
 * Context: the program's task.
 */
void syscall_forget(struct pt_regs *regs);
/**
 * syscall_nr() - the system call registers returned from
 * @regs: the registers
 *
 * Context: any context.
 * Return: its number, or -1 after syscall_forget().
 */
long syscall_nr(const struct pt_regs *regs);

/* ---------------------------------------------------------------- page tables */
#define UPROT_READ 0x1
#define UPROT_WRITE 0x2
#define UPROT_EXEC 0x4

/**
 * user_pgd_alloc() - a program's top page table, with the kernel's half in place
 *
 * Context: process context; may sleep.
 * Return: the table, or NULL if out of memory.
 */
u64 *user_pgd_alloc(void);
/**
 * user_pgd_free() - free a program's page tables
 * @pgd: the top table; the pages its tables map must have been unmapped
 *
 * Context: process context, the tables no longer loaded on any CPU.
 */
void user_pgd_free(u64 *pgd);
/**
 * user_pte_prepare() - make the tables down to an address's entry
 * @pgd: the program's top table
 * @va: the address
 *
 * So that mapping it afterwards needs no allocation (under a lock).
 *
 * Context: process context; may sleep.
 * Return: 0, or -ENOMEM.
 */
int user_pte_prepare(u64 *pgd, u64 va);
/**
 * user_map_page() - map a page into a program
 * @pgd: the program's top table
 * @va: the user address
 * @phys: the page's physical address
 * @prot: UPROT_READ, UPROT_WRITE, UPROT_EXEC
 *
 * Context: process context; may sleep (a table to make, unless user_pte_prepare() made
 * it).
 * Return: 0, -ENOMEM, or -EEXIST if @va is mapped already.
 */
int user_map_page(u64 *pgd, u64 va, u64 phys, unsigned int prot);
/**
 * user_unmap_page() - unmap a page of a program
 * @pgd: the program's top table
 * @va: the user address
 *
 * The translation is flushed from this CPU's TLB only (flush_tlb_user_range() for the
 * others).
 *
 * Context: any context; never sleeps.
 * Return: the physical address it mapped, or 0 if nothing was mapped there.
 */
u64 user_unmap_page(u64 *pgd, u64 va);
/**
 * user_protect_page() - change a present mapping's protection
 * @pgd: the program's top table
 * @va: the user address
 * @prot: UPROT_READ, UPROT_WRITE, UPROT_EXEC
 *
 * Flushed from this CPU's TLB only, as user_unmap_page().
 *
 * Context: any context; never sleeps.
 * Return: false if @va is not mapped.
 */
bool user_protect_page(u64 *pgd, u64 va, unsigned int prot);
/**
 * user_lookup_page() - what a program's address maps to
 * @pgd: the program's top table
 * @va: the user address
 * @prot: set to its protection when it is mapped
 *
 * Context: any context; never sleeps.
 * Return: the physical address of the page, or 0 if it is not mapped.
 */
u64 user_lookup_page(u64 *pgd, u64 va, unsigned int *prot);
/**
 * flush_tlb_user_range() - make every CPU drop its translations of a range
 * @start: the first address
 * @end: the end (start == end: everything; a long range flushes everything too)
 *
 * For entries changed in a program's tables that another CPU may be running.
 *
 * Context: process context, interrupts on (it waits for the other CPUs).
 */
void flush_tlb_user_range(u64 start, u64 end);

/* ---------------------------------------------------------------- program memory */
/* Is [addr, addr + len) inside the user half? */
static inline bool access_ok(u64 addr, u64 len)
{
	return addr + len >= addr && addr + len <= TASK_SIZE_MAX;
}
/**
 * copy_from_user() - copy from a program's memory
 * @dst: kernel memory
 * @src: the user address
 * @len: how many bytes
 *
 * A bad address ends the copy early; what was copied before stays.
 *
 * Context: the program's task, interrupts on; may sleep (a page faulted in).
 * Return: 0, or -EFAULT.
 */
int copy_from_user(void *dst, u64 src, size_t len);
/**
 * copy_to_user() - copy to a program's memory
 * @dst: the user address
 * @src: kernel memory
 * @len: how many bytes
 *
 * A bad address ends the copy early; what was copied before stays.
 *
 * Context: the program's task, interrupts on; may sleep (a page faulted in).
 * Return: 0, or -EFAULT.
 */
int copy_to_user(u64 dst, const void *src, size_t len);
/**
 * strncpy_from_user() - copy a NUL-terminated string from a program's memory
 * @dst: kernel memory, @size bytes
 * @src: the user address
 * @size: room in @dst, the NUL included
 *
 * Context: the program's task, interrupts on; may sleep.
 * Return: the string's length; -EFAULT; or -ENAMETOOLONG if it has no NUL within @size
 * bytes.
 */
long strncpy_from_user(char *dst, u64 src, size_t size);
/* The raw copy (uaccess.S): bytes not copied; a fault inside it resumes at its fixup. */
unsigned long copy_user_generic(void *dst, const void *src, unsigned long len);

#endif
