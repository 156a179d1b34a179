/*
 * Running a program (Linux's fs/exec.c): a fresh address space with the ELF image and a
 * stack holding argv, envp and the auxiliary vector as the x86-64 System V ABI lays them
 * out. The shell's command task does it for a command (run_program(): the task enters user
 * mode and comes back when the program exits, is killed or faults, and returns its status
 * like any command's, 128 + the signal for a kill); a program does it to itself with
 * execve(), which replaces its address space only once the new one is complete.
 */
#include <cgwb/sched.h>
#include <cgwb/mm.h>
#include <cgwb/fs.h>
#include <cgwb/file.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/jiffies.h>
#include <cgwb/exec.h>
#include "internal.h"
#include "signal.h"
#include <cgwb/elf.h>

#define AT_NULL 0
#define AT_PHDR 3
#define AT_PHENT 4
#define AT_PHNUM 5
#define AT_PAGESZ 6
#define AT_BASE 7
#define AT_FLAGS 8
#define AT_ENTRY 9
#define AT_UID 11
#define AT_EUID 12
#define AT_GID 13
#define AT_EGID 14
#define AT_PLATFORM 15
#define AT_HWCAP 16
#define AT_CLKTCK 17
#define AT_SECURE 23
#define AT_RANDOM 25
#define AT_EXECFN 31
#define NR_AUXV 19
#define ARG_MAX_BYTES (128UL << 10)

#define ARGV_MAX 4096 /* strings in an execve()'s argv or envp */

static const char *const default_env[] = { "PATH=/mnt/bin:/mnt/sbin:/bin", "HOME=/", NULL };

/* Copy the strings down from *sp; their addresses into ptrs. */
static int push_strings(struct mm_struct *mm, u64 *sp, const char *const *v, int n, u64 *ptrs)
{
	for (int i = n - 1; i >= 0; i--) {
		size_t len = strlen(v[i]) + 1;
		int err;

		*sp -= len;
		err = mm_copy_to(mm, *sp, v[i], len);
		if (err)
			return err;
		ptrs[i] = *sp;
	}
	return 0;
}

static int count_strings(const char *const *v, size_t *bytes)
{
	int n = 0;

	for (; v[n]; n++)
		*bytes += strlen(v[n]) + 1;
	return n;
}

static int push_vector(struct mm_struct *mm, u64 *at, const u64 *v, int n)
{
	int err = mm_copy_to(mm, *at, v, (size_t)n * sizeof(u64));

	*at += (u64)n * sizeof(u64);
	return err;
}

/* The initial stack; *sp ends at argc, 16-byte aligned. */
static int build_stack(struct mm_struct *mm, char *const *argv, const char *const *envp,
		       const struct elf_image *info, u64 *sp)
{
	size_t bytes = 0;
	int argc = count_strings((const char *const *)argv, &bytes);
	int envc = count_strings(envp, &bytes);
	u64 *argp = kmalloc((size_t)(argc + envc + 2) * sizeof(u64), GFP_KERNEL);
	u64 platform, random, at, auxv[NR_AUXV * 2];
	u8 seed[16];
	int err, n = 0;

	if (!argp)
		return -ENOMEM;
	err = bytes > ARG_MAX_BYTES ? -E2BIG : 0;
	*sp = STACK_TOP;
	if (!err)
		err = push_strings(mm, sp, envp, envc, argp + argc + 1);
	if (!err)
		err = push_strings(mm, sp, (const char *const *)argv, argc, argp);
	/* the program's stack protector and pointer mangling seed (AT_RANDOM) */
	u64 state = random_state_init();
	random_fill(&state, seed, sizeof(seed));
	*sp -= sizeof(seed);
	random = *sp;
	*sp -= 8;
	platform = *sp;
	if (!err)
		err = mm_copy_to(mm, random, seed, sizeof(seed));
	if (!err)
		err = mm_copy_to(mm, platform, "x86_64", 7);
	argp[argc] = 0;
	argp[argc + 1 + envc] = 0;

	u64 pairs[][2] = {
		{ AT_PHDR, info->phdr },
		{ AT_PHENT, sizeof(struct elf64_phdr) },
		{ AT_PHNUM, info->phnum },
		{ AT_PAGESZ, PAGE_SIZE },
		{ AT_BASE, 0 },
		{ AT_FLAGS, 0 },
		{ AT_ENTRY, info->entry },
		{ AT_UID, 0 },
		{ AT_EUID, 0 },
		{ AT_GID, 0 },
		{ AT_EGID, 0 },
		{ AT_PLATFORM, platform },
		{ AT_HWCAP, 0x178bfbff },
		{ AT_CLKTCK, 100 },
		{ AT_SECURE, 0 },
		{ AT_RANDOM, random },
		{ AT_EXECFN, argp[0] },
		{ AT_NULL, 0 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++) {
		auxv[n++] = pairs[i][0];
		auxv[n++] = pairs[i][1];
	}
	*sp = (*sp - (u64)(1 + argc + 1 + envc + 1 + n) * 8) & ~15UL;
	at = *sp;
	u64 argc64 = (u64)argc;
	if (!err)
		err = push_vector(mm, &at, &argc64, 1);
	if (!err)
		err = push_vector(mm, &at, argp, argc + 1 + envc + 1);
	if (!err)
		err = push_vector(mm, &at, auxv, n);
	kfree(argp);
	return err;
}

static int check_executable(struct file *file)
{
	umode_t mode = file->f_inode->i_mode;

	if (!S_ISREG(mode))
		return -EACCES;
	return (mode & 0111) ? 0 : -EACCES;
}

/* The new program's address space: image, stack area, stack contents. */
static int prepare(struct mm_struct *mm, struct file *file, char *const *argv,
		   const char *const *envp, u64 *entry, u64 *sp)
{
	struct elf_image *img = kmalloc(sizeof(*img), GFP_KERNEL); /* 64 segments: not on the stack */
	int err = img ? load_elf_binary(mm, file, img) : -ENOMEM;

	if (!err) {
		mutex_lock(&mm->lock);
		err = mm_map(mm, STACK_TOP - STACK_SIZE_MAX, STACK_TOP, UPROT_READ | UPROT_WRITE,
			     NULL, 0, 0);
		mutex_unlock(&mm->lock);
	}
	if (!err) {
		err = build_stack(mm, argv, envp, img, sp);
		*entry = img->entry;
	}
	kfree(img);
	return err;
}

/* Before the program runs, its errors go where the shell's would: its stderr. */
static void program_error(const char *name, const char *msg)
{
	if (current->files[2])
		file_printf(current->files[2], "%s: %s\n", name, msg);
}

static const char *exec_error(int err)
{
	switch (err) {
	case -ENOEXEC:
		return "not an x86-64 ELF executable";
	case -ELIBBAD:
		return "dynamically linked: cgwb runs static programs only";
	default:
		return errstr(err);
	}
}

/* A new address space for path, ready to enter: 0 or why not (messages are the caller's). */
static int exec_mm(const char *path, char *const *argv, const char *const *envp,
		   struct mm_struct **out, u64 *entry, u64 *sp)
{
	struct file *file = filp_open(path, O_RDONLY, 0);
	struct mm_struct *mm;
	int err;

	*out = NULL;
	if (IS_ERR(file))
		return (int)PTR_ERR(file);
	err = check_executable(file);
	mm = err ? NULL : mm_alloc();
	if (!err && !mm)
		err = -ENOMEM;
	if (!err)
		err = prepare(mm, file, argv, envp, entry, sp);
	fput(file); /* the image's areas hold their own references */
	if (err && mm)
		mm_put(mm);
	if (!err)
		*out = mm;
	return err;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static const char *signal_text(int sig)
{
	switch (sig) {
	case SIGFPE:
		return "Floating point exception";
	case SIGTRAP:
		return "Trace/breakpoint trap";
	case SIGILL:
		return "Illegal instruction";
	case SIGBUS:
		return "Bus error";
	case SIGSEGV:
		return "Segmentation fault";
	case SIGKILL:
		return "Killed";
	default:
		return NULL; /* SIGINT, as a shell: nothing */
	}
}

/*
 * The shell's status for a wait status: the exit code, or 128 + the signal, which it names
 * on stderr as a shell does ("Segmentation fault").
 */
static int shell_status(int wstatus)
{
	int sig = wstatus & 0x7f;
	const char *text = signal_text(sig);

	if (sig && text && current->files[2])
		file_printf(current->files[2], "%s\n", text);
	return sig ? 128 + sig : (wstatus >> 8) & 0xff;
}

int run_program(int argc, char **argv)
{
	struct mm_struct *mm;
	struct user_thread *ut = NULL;
	struct task_signal *sig = NULL;
	struct pt_regs regs;
	u64 entry = 0, sp = 0;
	int err = exec_mm(argv[0], argv, default_env, &mm, &entry, &sp);

	(void)argc;
	if (!err) {
		ut = user_thread_alloc(mm->pgd);
		sig = ut ? signal_alloc(false) : NULL;
		current->program = sig ? program_alloc(NULL) : NULL;
		err = current->program ? 0 : -ENOMEM;
	}
	if (err) {
		program_error(argv[0], exec_error(err));
		signal_free(sig);
		if (ut)
			kfree(ut);
		if (mm)
			mm_put(mm);
		return err == -ENOENT ? 127 : 126;
	}
	current->mm = mm;
	current->uthread = ut;
	signal_attach(current, sig, current->pid);
	set_current_comm(base_name(argv[0]));
	user_regs_init(&regs, entry, sp);
	return shell_status(program_run(&regs));
}

/* ---------------------------------------------------------------- execve */

static void free_strings(char **v)
{
	for (int i = 0; v && v[i]; i++)
		kfree(v[i]);
	kfree(v);
}

/* A NULL-terminated vector of strings from the program, copied in; NULL and *err if bad. */
static char **copy_strings(u64 uvec, long *err)
{
	char **v = kcalloc(ARGV_MAX + 1, sizeof(char *), GFP_KERNEL);
	size_t total = 0;

	*err = v ? 0 : -ENOMEM;
	for (int i = 0; v && uvec && !*err; i++) {
		u64 ustr;
		long len;

		if (i == ARGV_MAX || copy_from_user(&ustr, uvec + (u64)i * 8, 8)) {
			*err = i == ARGV_MAX ? -E2BIG : -EFAULT;
			break;
		}
		if (!ustr)
			return v;
		v[i] = kmalloc(PATH_MAX, GFP_KERNEL);
		len = v[i] ? strncpy_from_user(v[i], ustr, PATH_MAX) : -ENOMEM;
		if (len == -ENAMETOOLONG)
			len = -E2BIG;
		total += len < 0 ? 0 : (size_t)len + 1;
		if (len < 0 || total > ARG_MAX_BYTES)
			*err = len < 0 ? len : -E2BIG;
	}
	if (v && !*err)
		return v; /* a NULL vector: empty */
	free_strings(v);
	return NULL;
}

static long do_execve(const char *path, char **argv, char **envp)
{
	struct pt_regs *regs = current_user_regs();
	struct mm_struct *mm, *old = current->mm;
	char *only_path[] = { (char *)path, NULL };
	u64 entry, sp;
	long err;

	files_unshare(); /* as Linux's: a table shared by CLONE_FILES is copied at execve */
	err = exec_mm(path, argv[0] ? argv : only_path, (const char *const *)envp, &mm, &entry, &sp);
	if (err)
		return err;
	/* the point of no return: the other threads and the old image go */
	program_de_thread();
	current->mm = mm;
	user_thread_exec(mm->pgd);
	flush_signal_handlers();
	mm_put(old);
	program_vfork_release();
	set_current_comm(base_name(path));
	user_regs_init(regs, entry, sp);
	return 0; /* into the new program's RAX: it starts at 0 */
}

static long sys_execve(u64 upath, u64 uargv, u64 uenvp, u64 a3, u64 a4, u64 a5)
{
	char *path = kmalloc(PATH_MAX, GFP_KERNEL);
	long err = path ? strncpy_from_user(path, upath, PATH_MAX) : -ENOMEM;
	char **argv = err >= 0 ? copy_strings(uargv, &err) : NULL;
	char **envp = argv ? copy_strings(uenvp, &err) : NULL;

	if (envp)
		err = do_execve(path, argv, envp);
	free_strings(argv);
	free_strings(envp);
	kfree(path);
	return err;
}

static const struct syscall_def calls[] = {
	{ 59, "execve", sys_execve },
};

const struct syscall_table sys_exec_calls = { calls, ARRAY_SIZE(calls) };
