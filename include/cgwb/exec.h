/*
 * Programs: unmodified static x86-64 Linux executables run as tasks (sys/). The shell runs
 * a command whose name holds a '/' with run_program(), in the command's own task, so jobs,
 * pipes, redirections, cgexec and Ctrl-C work as for any command.
 */
#ifndef CGWB_EXEC_H
#define CGWB_EXEC_H

/*
 * Load argv[0] (a path) into a new address space and run it in the calling task until it
 * exits: its exit status, 128 + the signal that ended it, 126 when it could not be run
 * (a message on the task's stderr says why) or 127 when there is no such file. May sleep.
 */
int run_program(int argc, char **argv);

/* The system call table and the user-mode hooks, at start-up. */
void syscalls_init(void);

#endif
