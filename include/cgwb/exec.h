/*
 * Programs: unmodified static x86-64 Linux executables run as tasks (sys/). The shell runs
 * a command whose name holds a '/' with run_program(), in the command's own task, so jobs,
 * pipes, redirections, cgexec and Ctrl-C work as for any command.
 */
#ifndef CGWB_EXEC_H
#define CGWB_EXEC_H

/**
 * run_program() - run a program in the calling task until it exits
 * @argc: the number of arguments (unused: @argv ends with NULL)
 * @argv: the arguments; argv[0] is the executable's path
 *
 * Loads argv[0] into a new address space; the task takes its name.
 *
 * Context: process context (a command's task); sleeps.
 * Return: its exit status, 128 + the signal that ended it, 126 when it could not be run
 * (a message on the task's stderr says why) or 127 when there is no such file.
 */
int run_program(int argc, char **argv);

/**
 * syscalls_init() - start the system-call layer
 *
 * The system-call table and its trace events, futexes, the user-mode traps and signals,
 * and shared mappings.
 *
 * Context: start-up, once.
 */
void syscalls_init(void);

#endif
