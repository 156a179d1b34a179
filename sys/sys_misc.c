/*
 * Process and identity system calls a static C library makes on its way to main()
 * and programs make around their work (Linux's kernel/sys.c, sched/syscalls.c,
 * arch/x86/kernel/process_64.c); signals are sys_signal.c's. Everyone is root. getpid()
 * is the process's id (its first thread's), gettid() the thread's.
 */
#include <cgwb/sched.h>
#include <cgwb/mm.h>
#include <cgwb/smp.h>
#include <cgwb/jiffies.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include "internal.h"

#define ARCH_SET_GS 0x1001
#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
#define ARCH_GET_GS 0x1004
#define RLIMIT_STACK 3
#define RLIMIT_NOFILE 7
#define RLIM_INFINITY (~0ULL)
#define NSEC_PER_SEC_U 1000000000ULL

/* Wait statuses: the code above the signal byte. */
static long sys_exit(u64 code, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	program_exit_thread((int)(code & 0xff) << 8);
}

static long sys_exit_group(u64 code, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	program_group_exit((int)(code & 0xff) << 8);
}

static long sys_arch_prctl(u64 code, u64 addr, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct user_thread *ut = current->uthread;

	switch (code) {
	case ARCH_SET_FS:
	case ARCH_SET_GS:
		if (addr >= TASK_SIZE_MAX)
			return -EPERM;
		if (code == ARCH_SET_FS)
			user_set_fs_base(addr);
		else
			user_set_gs_base(addr);
		return 0;
	case ARCH_GET_FS:
		return copy_to_user(addr, &ut->fs_base, sizeof(u64));
	case ARCH_GET_GS:
		return copy_to_user(addr, &ut->gs_base, sizeof(u64));
	default:
		return -EINVAL;
	}
}

static long sys_getpid(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return program_tgid();
}

static long sys_gettid(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return current->pid;
}

static long sys_zero(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return 0;
}

struct new_utsname {
	char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

static long sys_uname(u64 buf, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct new_utsname u;

	memset(&u, 0, sizeof(u));
	strlcpy(u.sysname, "Linux", sizeof(u.sysname)); /* the ABI programs were built for */
	strlcpy(u.nodename, "cgwb", sizeof(u.nodename));
	strlcpy(u.release, "6.1.0-cgwb", sizeof(u.release));
	strlcpy(u.version, "#1 SMP cgwb", sizeof(u.version));
	strlcpy(u.machine, "x86_64", sizeof(u.machine));
	strlcpy(u.domainname, "(none)", sizeof(u.domainname));
	return copy_to_user(buf, &u, sizeof(u));
}

static long sys_sched_yield(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	cond_resched();
	return 0;
}

u64 random_state_init(void)
{
	return ktime_get_ns() ^ ((u64)current->pid << 40) ^ 0x9e3779b97f4a7c15ULL;
}

void random_fill(u64 *state, u8 *out, size_t len)
{
	u64 x = *state;

	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		out[i] = (u8)(x >> 24);
	}
	*state = x;
}

static long sys_getrandom(u64 ubuf, u64 len, u64 flags, u64 a3, u64 a4, u64 a5)
{
	u64 state = random_state_init();
	u8 chunk[64];
	u64 done = 0;

	len = min(len, (u64)(32u << 20));
	while (done < len) {
		u64 n = min(len - done, (u64)sizeof(chunk));

		random_fill(&state, chunk, (size_t)n);
		if (copy_to_user(ubuf + done, chunk, (size_t)n))
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return (long)done;
}

static void rlimit_of(u64 resource, u64 lim[2])
{
	lim[0] = lim[1] = RLIM_INFINITY;
	if (resource == RLIMIT_STACK)
		lim[0] = STACK_SIZE_MAX;
	if (resource == RLIMIT_NOFILE)
		lim[0] = lim[1] = TASK_NR_FILES;
}

static long sys_prlimit64(u64 pid, u64 resource, u64 newlim, u64 oldlim, u64 a4, u64 a5)
{
	u64 lim[2];

	if (pid && pid != (u64)current->pid)
		return -ESRCH;
	if (resource >= 16)
		return -EINVAL;
	rlimit_of(resource, lim);
	if (oldlim && copy_to_user(oldlim, lim, sizeof(lim)))
		return -EFAULT;
	return newlim ? -EPERM : 0; /* the limits are fixed */
}

static long sys_getrlimit(u64 resource, u64 ulim, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return sys_prlimit64(0, resource, 0, ulim, 0, 0);
}

static long sys_sched_getaffinity(u64 pid, u64 len, u64 umask, u64 a3, u64 a4, u64 a5)
{
	u64 mask = current->cpus_mask;

	if (len < sizeof(mask))
		return -EINVAL;
	if (copy_to_user(umask, &mask, sizeof(mask)))
		return -EFAULT;
	return sizeof(mask);
}

struct sysinfo_user {
	s64 uptime;
	u64 loads[3], totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	u16 procs, pad;
	u32 pad2;
	u64 totalhigh, freehigh;
	u32 mem_unit;
	char reserved[4];
};

static long sys_sysinfo(u64 uinfo, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct sysinfo_user si;
	struct sysinfo mem;

	si_meminfo(&mem);
	memset(&si, 0, sizeof(si));
	si.uptime = (s64)(ktime_get_ns() / NSEC_PER_SEC_U);
	si.totalram = (u64)mem.totalram * PAGE_SIZE;
	si.freeram = (u64)mem.freeram * PAGE_SIZE;
	si.procs = 1;
	si.mem_unit = 1;
	return copy_to_user(uinfo, &si, sizeof(si));
}

/* Everyone runs at nice 0; getpriority's answer is 20 - nice, as Linux's system call. */
static long sys_getpriority(u64 which, u64 who, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return which > 2 ? -EINVAL : 20;
}

static long sys_setpriority(u64 which, u64 who, u64 prio, u64 a3, u64 a4, u64 a5)
{
	return which > 2 ? -EINVAL : 0; /* accepted, not applied: no priorities here */
}

struct rusage_user {
	s64 utime_sec, utime_usec, stime_sec, stime_usec;
	s64 rest[14];
};

/* The calling thread's (or process's) CPU time, all of it counted as system time. */
static long sys_getrusage(u64 who, u64 uru, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct rusage_user ru;
	u64 ns = current->sum_exec_ns;

	memset(&ru, 0, sizeof(ru));
	ru.stime_sec = (s64)(ns / NSEC_PER_SEC_U);
	ru.stime_usec = (s64)(ns % NSEC_PER_SEC_U / 1000);
	return copy_to_user(uru, &ru, sizeof(ru));
}

#define PR_SET_NAME 15
#define PR_GET_NAME 16

static long sys_prctl(u64 option, u64 arg2, u64 a2, u64 a3, u64 a4, u64 a5)
{
	char name[TASK_COMM_LEN];

	if (option == PR_GET_NAME)
		return copy_to_user(arg2, current->comm, sizeof(name));
	if (option != PR_SET_NAME)
		return -EINVAL;
	if (copy_from_user(name, arg2, sizeof(name) - 1))
		return -EFAULT;
	name[sizeof(name) - 1] = 0;
	set_current_comm(name);
	return 0;
}

static const struct syscall_def calls[] = {
	{ 24, "sched_yield", sys_sched_yield },
	{ 39, "getpid", sys_getpid },
	{ 60, "exit", sys_exit },
	{ 63, "uname", sys_uname },
	{ 97, "getrlimit", sys_getrlimit },
	{ 98, "getrusage", sys_getrusage },
	{ 99, "sysinfo", sys_sysinfo },
	{ 102, "getuid", sys_zero },
	{ 104, "getgid", sys_zero },
	{ 107, "geteuid", sys_zero },
	{ 108, "getegid", sys_zero },
	{ 140, "getpriority", sys_getpriority },
	{ 141, "setpriority", sys_setpriority },
	{ 157, "prctl", sys_prctl },
	{ 158, "arch_prctl", sys_arch_prctl },
	{ 186, "gettid", sys_gettid },
	{ 204, "sched_getaffinity", sys_sched_getaffinity },
	{ 231, "exit_group", sys_exit_group },
	{ 273, "set_robust_list", sys_zero },
	{ 302, "prlimit64", sys_prlimit64 },
	{ 318, "getrandom", sys_getrandom },
};

const struct syscall_table sys_misc_calls = { calls, ARRAY_SIZE(calls) };
