/*
 * clone3 (Linux's kernel/fork.c: copy_clone_args_from_user(), clone3_args_valid()): clone's
 * arguments in a struct clone_args the program sizes itself, checked as Linux 6.1 checks
 * them, then the process or thread clone makes (process.c's kernel_clone()). glibc 2.34 and
 * later create their threads with it, and fall back to clone only on -ENOSYS.
 *
 * A larger struct than Linux 6.1's is accepted when its extra bytes are zero (-E2BIG
 * otherwise), a smaller one down to the first version's 64 bytes. Choosing the child's pid
 * (set_tid), starting it in another cgroup (CLONE_INTO_CGROUP) and resetting its handlers
 * (CLONE_CLEAR_SIGHAND) are not done here: once Linux's own checks pass they are -ENOSYS,
 * as kernel_clone() says of what it cannot make, on which a C library falls back to clone.
 */
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include "internal.h"

#define CLONE_ARGS_SIZE_VER0 64 /* flags ... tls */
#define CLONE_ARGS_SIZE_VER2 88 /* ... set_tid, set_tid_size, cgroup: Linux 6.1's */
#define CLONE_ARGS_SIZE_MAX 4096
#define MAX_PID_NS_LEVEL 32
#define CSIGNAL 0xffULL
#define CLONE_NEWTIME 0x80ULL
#define CLONE_SIGHAND 0x800ULL
#define CLONE_THREAD 0x10000ULL
#define CLONE_PARENT 0x8000ULL
#define CLONE_DETACHED 0x00400000ULL
#define CLONE_LEGACY_FLAGS 0xffffffffULL
#define CLONE_CLEAR_SIGHAND 0x100000000ULL
#define CLONE_INTO_CGROUP 0x200000000ULL

struct clone_args {
	u64 flags;
	u64 pidfd;
	u64 child_tid;
	u64 parent_tid;
	u64 exit_signal;
	u64 stack;
	u64 stack_size;
	u64 tls;
	u64 set_tid;
	u64 set_tid_size;
	u64 cgroup;
};

_Static_assert(sizeof(struct clone_args) == CLONE_ARGS_SIZE_VER2, "Linux 6.1's clone_args");

/* Linux's copy_struct_from_user(): the known part, and zeros past it; the rest zeroed. */
static long copy_args(struct clone_args *args, u64 uargs, size_t usize)
{
	u8 *buf = kzalloc(usize, GFP_KERNEL);
	long err = buf ? 0 : -ENOMEM;

	if (!err && copy_from_user(buf, uargs, usize))
		err = -EFAULT;
	for (size_t i = sizeof(*args); !err && i < usize; i++)
		if (buf[i])
			err = -E2BIG;
	memset(args, 0, sizeof(*args));
	if (!err)
		memcpy(args, buf, min(usize, sizeof(*args)));
	kfree(buf);
	return err;
}

/* copy_clone_args_from_user()'s checks of the fields. */
static long args_check(const struct clone_args *a, size_t usize)
{
	if (a->set_tid_size > MAX_PID_NS_LEVEL)
		return -EINVAL;
	if (!a->set_tid != !a->set_tid_size)
		return -EINVAL;
	if ((a->exit_signal & ~CSIGNAL) || a->exit_signal > _NSIG)
		return -EINVAL;
	if ((a->flags & CLONE_INTO_CGROUP) && (a->cgroup > 0x7fffffff || usize < CLONE_ARGS_SIZE_VER2))
		return -EINVAL;
	return 0;
}

/* clone3_args_valid(): unknown flags, the bits clone3 keeps for later, the stack. */
static bool args_valid(struct clone_args *a)
{
	if (a->flags & ~(CLONE_LEGACY_FLAGS | CLONE_CLEAR_SIGHAND | CLONE_INTO_CGROUP))
		return false;
	if (a->flags & (CLONE_DETACHED | (CSIGNAL & ~CLONE_NEWTIME)))
		return false;
	if ((a->flags & (CLONE_SIGHAND | CLONE_CLEAR_SIGHAND)) ==
	    (CLONE_SIGHAND | CLONE_CLEAR_SIGHAND))
		return false;
	if ((a->flags & (CLONE_THREAD | CLONE_PARENT)) && a->exit_signal)
		return false;
	if (!a->stack)
		return !a->stack_size;
	if (!a->stack_size || !access_ok(a->stack, a->stack_size))
		return false;
	a->stack += a->stack_size; /* the stack grows down from its end */
	return true;
}

static long sys_clone3(u64 uargs, u64 usize, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct clone_args a;
	long err;

	if (usize > CLONE_ARGS_SIZE_MAX)
		return -E2BIG;
	if (usize < CLONE_ARGS_SIZE_VER0)
		return -EINVAL;
	err = copy_args(&a, uargs, usize);
	if (!err)
		err = args_check(&a, usize);
	if (err)
		return err;
	if (!args_valid(&a))
		return -EINVAL;
	if (a.set_tid || (a.flags & (CLONE_INTO_CGROUP | CLONE_CLEAR_SIGHAND)))
		return -ENOSYS;
	return kernel_clone(a.flags, a.stack, a.parent_tid, a.child_tid, a.tls, (int)a.exit_signal);
}

static const struct syscall_def calls[] = {
	{ 435, "clone3", sys_clone3 },
};

const struct syscall_table sys_clone3_calls = { calls, ARRAY_SIZE(calls) };
