/*
 * Running a program (Linux's fs/exec.c, one program per task): the shell's command task
 * opens the file, builds a fresh address space with the ELF image and a stack holding
 * argv, envp and the auxiliary vector as the x86-64 System V ABI lays them out, and enters
 * user mode. It comes back when the program exits, is killed or faults, frees the address
 * space and returns the program's status like any command (128 + the signal for a kill).
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
#include "elf.h"

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

static const char *const default_env[] = { "PATH=/mnt/bin:/mnt/sbin:/bin", "HOME=/", NULL };

/* Bytes written into mm at va (pages made as needed), before the program runs. */
static int mm_write(struct mm_struct *mm, u64 va, const void *src, size_t len)
{
	while (len) {
		size_t off = va & ~PAGE_MASK, n = min(len, PAGE_SIZE - off);
		unsigned int prot;
		u64 phys = user_lookup_page(mm->pgd, va & PAGE_MASK, &prot);
		int err = phys ? 0 : handle_mm_fault(mm, va, PF_WRITE | PF_USER);

		if (err)
			return err;
		if (!phys)
			phys = user_lookup_page(mm->pgd, va & PAGE_MASK, &prot);
		memcpy((char *)phys_to_virt(phys) + off, src, n);
		va += n;
		src = (const char *)src + n;
		len -= n;
	}
	return 0;
}

/* Copy the strings down from *sp; their addresses into ptrs. */
static int push_strings(struct mm_struct *mm, u64 *sp, const char *const *v, int n, u64 *ptrs)
{
	for (int i = n - 1; i >= 0; i--) {
		size_t len = strlen(v[i]) + 1;
		int err;

		*sp -= len;
		err = mm_write(mm, *sp, v[i], len);
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

/* A 16-byte seed for the program's stack protector and pointer mangling (AT_RANDOM). */
static void random_seed(u8 out[16])
{
	u64 x = ktime_get_ns() ^ ((u64)current->pid << 32) ^ 0x9e3779b97f4a7c15ULL;

	for (int i = 0; i < 16; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		out[i] = (u8)x;
	}
}

struct stack_layout {
	u64 ptrs[NR_AUXV * 2 + 3]; /* reused for argv, then envp */
};

static int push_vector(struct mm_struct *mm, u64 *at, const u64 *v, int n)
{
	int err = mm_write(mm, *at, v, (size_t)n * sizeof(u64));

	*at += (u64)n * sizeof(u64);
	return err;
}

/* The initial stack; *sp ends at argc, 16-byte aligned. */
static int build_stack(struct mm_struct *mm, char **argv, const struct elf_load_info *info, u64 *sp)
{
	size_t bytes = 0;
	int argc = count_strings((const char *const *)argv, &bytes);
	int envc = count_strings(default_env, &bytes);
	u64 *argp = kmalloc((size_t)(argc + envc + 2) * sizeof(u64), GFP_KERNEL);
	u64 platform, random, at, auxv[NR_AUXV * 2];
	u8 seed[16];
	int err, n = 0;

	if (!argp)
		return -ENOMEM;
	err = bytes > ARG_MAX_BYTES ? -E2BIG : 0;
	*sp = STACK_TOP;
	if (!err)
		err = push_strings(mm, sp, default_env, envc, argp + argc + 1);
	if (!err)
		err = push_strings(mm, sp, (const char *const *)argv, argc, argp);
	random_seed(seed);
	*sp -= sizeof(seed);
	random = *sp;
	*sp -= 8;
	platform = *sp;
	if (!err)
		err = mm_write(mm, random, seed, sizeof(seed));
	if (!err)
		err = mm_write(mm, platform, "x86_64", 7);
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
static int prepare(struct mm_struct *mm, struct file *file, char **argv, u64 *entry, u64 *sp)
{
	struct elf_load_info info;
	int err = load_elf_binary(mm, file, &info);

	if (err)
		return err;
	mutex_lock(&mm->lock);
	err = mm_map(mm, STACK_TOP - STACK_SIZE_MAX, STACK_TOP, UPROT_READ | UPROT_WRITE, NULL, 0, 0);
	mutex_unlock(&mm->lock);
	if (!err)
		err = build_stack(mm, argv, &info, sp);
	*entry = info.entry;
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

int run_program(int argc, char **argv)
{
	struct file *file = filp_open(argv[0], O_RDONLY, 0);
	struct mm_struct *mm;
	struct user_thread *ut;
	struct pt_regs regs;
	u64 entry = 0, sp = 0;
	int err, status;

	if (IS_ERR(file)) {
		program_error(argv[0], errstr((int)PTR_ERR(file)));
		return PTR_ERR(file) == -ENOENT ? 127 : 126;
	}
	err = check_executable(file);
	mm = err ? NULL : mm_alloc();
	if (!err && !mm)
		err = -ENOMEM;
	if (!err)
		err = prepare(mm, file, argv, &entry, &sp);
	ut = err ? NULL : user_thread_alloc(mm->pgd);
	if (!err && !ut)
		err = -ENOMEM;
	if (err) {
		program_error(argv[0], exec_error(err));
		if (mm)
			mm_free(mm);
		fput(file);
		return 126;
	}
	(void)argc;
	current->mm = mm;
	current->uthread = ut;
	set_current_comm(strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0]);
	user_regs_init(&regs, entry, sp);
	status = user_thread_run(&regs);
	user_thread_free(ut);
	current->mm = NULL;
	mm_free(mm);
	fput(file);
	return status;
}

__noreturn void program_exit(int code)
{
	user_thread_leave(code);
}
