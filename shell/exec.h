/*
 * Starting commands as tasks, for the shell and for commands that run other commands
 * (time, and cgexec -g GROUP CMD... which places the command in another cgroup).
 */
#ifndef CGWB_KERNEL_SHELL_EXEC_H
#define CGWB_KERNEL_SHELL_EXEC_H

#include <cgwb/types.h>

struct cgroup;
struct file;
struct task_struct;

/*
 * Start argv[0] (a registered, non-special command) as a new task named after it, in
 * cgroup cg (NULL: the caller's), with files[0..2] as its stdin, stdout and stderr (the
 * task takes its own references; NULL leaves one closed). argv (NULL-terminated) is
 * copied; the task gets the caller's working directory. The task is left joinable: the
 * caller kthread_join()s it (its exit code is the command's status, SH_STATUS_KILLED if it
 * was killed) or kthread_detach()es it. A caller using kthread_join_killable() should
 * send_sig_kill() the task when that returns -EINTR, or it runs on, detached.
 * 0 and the task in *out; -ENOENT no such command; -EINVAL a special command (those run
 * only inside the shell); -ENOMEM.
 */
int shell_spawn(char **argv, struct cgroup *cg, struct file *files[3], struct task_struct **out);

/*
 * For special commands (they run in the shell's task): run argv (NULL-terminated) as a
 * foreground job of the shell, with the shell's current files, in cgroup cg (NULL: the
 * shell's), as if typed. Ctrl-C stops it. Returns its exit status (127 and a message if
 * there is no such command, 2 if not called from a shell); if cpu_ns is set, the CPU time
 * its tasks used goes there. A special argv[0] runs in the shell itself (not with another cg).
 */
int shell_run_command(int argc, char **argv, struct cgroup *cg, u64 *cpu_ns);

#endif
