/*
 * Random system calls with bad pointers, lengths and flags, for cgwb's system tests:
 * sysfuzz SEED COUNT makes COUNT calls of numbers from 0 to 459, each argument one of
 * zero, small numbers, -1, random words, pointers into its own buffer (near its ends too),
 * unmapped, NULL-page and kernel addresses. Calls that would leave the program (exit, a
 * fork bomb, execve, kill) or wait for ever (wait4, pause-like sleeps, pipes to read) are
 * skipped. The program may die of what it did to itself (an unmapped stack, a broken TLS);
 * the kernel must not. It prints how many calls it made when it gets to the end.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

static uint64_t state;
static pid_t watchdog;

static uint64_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

static int skipped(long nr)
{
	switch (nr) {
	case SYS_exit:
	case SYS_exit_group:
	case SYS_fork:
	case SYS_vfork:
	case SYS_clone:
	case SYS_clone3:
	case SYS_execve:
	case SYS_kill:
	case SYS_wait4:
	case SYS_pause:
	case SYS_nanosleep:
	case SYS_clock_nanosleep:
	case SYS_pipe:
	case SYS_pipe2:
	case SYS_rt_sigsuspend:
	case SYS_rt_sigtimedwait:
	case SYS_select:
	case SYS_poll:
	case SYS_ppoll:
	case SYS_pselect6:
	case SYS_epoll_wait:
	case SYS_futex:
	case SYS_tkill:
	case SYS_tgkill:
	case SYS_reboot:
	case SYS_alarm:
	case SYS_munmap:
	case SYS_arch_prctl:
	case SYS_rt_sigreturn:
	case SYS_sched_yield:
		return 1;
	default:
		return 0;
	}
}

#define BUF_SIZE 8192
/* between two inaccessible pages: a call told to write past it faults, not into libc */
static unsigned char *buf;

static uint64_t arg(void)
{
	switch (next() % 10) {
	case 0:
		return 0;
	case 1:
		return next() % 64;
	case 2:
		return (uint64_t)-1;
	case 3:
		return next();
	case 4:
		return (uint64_t)(uintptr_t)buf + next() % BUF_SIZE;
	case 5:
		return (uint64_t)(uintptr_t)buf + BUF_SIZE - next() % 16;
	case 6:
		return 0x10 + next() % 4096;
	case 7:
		return 0xffff888000000000ULL + (next() % (1 << 20)) * 8;
	case 8:
		return 0x00007ffffffff000ULL - next() % 64;
	default:
		return next() % 0x100000;
	}
}

int main(int argc, char **argv)
{
	unsigned long count = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000, done = 0;

	state = (argc > 1 ? strtoull(argv[1], NULL, 0) : 1) * 0x9e3779b97f4a7c15ULL | 1;
	buf = mmap(NULL, BUF_SIZE + 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	if (buf == MAP_FAILED || mprotect(buf, 4096, PROT_NONE) ||
	    mprotect(buf + 4096 + BUF_SIZE, 4096, PROT_NONE))
		return 2;
	buf += 4096;
	watchdog = fork(); /* a program that hung itself (libc's state written over) is ended */
	if (watchdog == 0) {
		sleep(20);
		kill(getppid(), SIGKILL);
		_exit(0);
	}
	for (size_t i = 0; i < BUF_SIZE; i++)
		buf[i] = (unsigned char)next();
	buf[BUF_SIZE - 1] = 0;
	for (; done < count; done++) {
		long nr = (long)(next() % 460);

		if (skipped(nr))
			continue;
		syscall(nr, arg(), arg(), arg(), arg(), arg(), arg());
	}
	dprintf(2, "sysfuzz: %lu calls\n", done);
	kill(watchdog, SIGKILL);
	return 0;
}
