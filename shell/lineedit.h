/* Line editing on the console: cursor keys, history, command-name completion. */
#ifndef CGWB_KERNEL_SHELL_LINEEDIT_H
#define CGWB_KERNEL_SHELL_LINEEDIT_H

/* The longest line, its terminating NUL included. */
#define LINEEDIT_LINE_MAX 4096

/*
 * Show prompt and read one line from the console's raw input: 0 and the line (without the
 * newline; valid until the next call) in *line, -EINTR if Ctrl-C discarded it, or -E2BIG
 * if it was longer than LINEEDIT_LINE_MAX - 1 characters (refused whole).
 */
int lineedit_read(const char *prompt, const char **line);

#endif
