/*
 * The system call table and its dispatch (Linux's arch/x86/entry/common.c and
 * syscall_64.c): numbers are Linux's x86-64 ones, arguments in RDI, RSI, RDX, R10, R8, R9,
 * the result (or -errno) in RAX. An unknown or missing call returns -ENOSYS and logs one
 * line naming it, once per number. Each sys_*.c file lists its calls (a syscall_table) and
 * the table is assembled from those lists at start-up. The raw_syscalls events
 * (trace-syscalls.c) record each call's way in and out.
 */
#include <cgwb/sched.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include <cgwb/irqflags.h>
#include <cgwb/exec.h>
#include <cgwb/trace/syscalls.h>
#include "internal.h"
#include "signal.h"

#define NR_SYSCALLS 450

static struct syscall_entry sys_call_table[NR_SYSCALLS];
static unsigned long enosys_logged[(NR_SYSCALLS + 63) / 64];

static const struct syscall_table *const syscall_tables[] = {
	&sys_file_calls,    &sys_mm_calls,     &sys_misc_calls,     &sys_exec_calls,
	&sys_process_calls, &sys_futex_calls,  &sys_poll_calls,     &sys_timerfd_calls,
	&sys_time_calls,    &sys_shm_calls,    &sys_stat_calls,     &sys_sync_calls,
	&sys_signal_calls,  &sys_itimer_calls, &sys_sendfile_calls, &sys_clone3_calls,
};

static void syscalls_register(const struct syscall_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		unsigned int nr = t->defs[i].nr;

		BUG_ON(nr >= NR_SYSCALLS || sys_call_table[nr].fn);
		sys_call_table[nr].name = t->defs[i].name;
		sys_call_table[nr].fn = t->defs[i].fn;
	}
}

/* The first time a number is asked for; numbers past the table share the last slot. */
static long sys_ni_syscall(u64 nr)
{
	unsigned int slot = nr < NR_SYSCALLS ? (unsigned int)nr : NR_SYSCALLS - 1;
	unsigned long bit = 1UL << (slot % 64);

	if (!(__atomic_fetch_or(&enosys_logged[slot / 64], bit, __ATOMIC_RELAXED) & bit))
		pr_info("%s[%d]: system call %llu not implemented (-ENOSYS)\n", current->comm,
			current->pid, (unsigned long long)nr);
	return -ENOSYS;
}

void do_syscall_64(struct pt_regs *regs)
{
	u64 nr = regs->vector;
	syscall_fn fn = nr < NR_SYSCALLS ? sys_call_table[nr].fn : NULL;

	local_irq_enable();
	trace_sys_enter(regs);
	if (fn)
		regs->rax = (u64)fn(regs->rdi, regs->rsi, regs->rdx, regs->r10, regs->r8, regs->r9);
	else
		regs->rax = (u64)sys_ni_syscall(nr);
	if (current->nr_files_held)
		files_put_borrowed();
	trace_sys_exit(regs);
	local_irq_disable();
	syscall_exit_to_user_mode(regs);
}

void syscalls_init(void)
{
	syscall_trace_init();
	futex_init();
	for (size_t i = 0; i < ARRAY_SIZE(syscall_tables); i++)
		syscalls_register(syscall_tables[i]);
	traps_init();
	signal_init();
	shared_mapping_init();
}
