/* Line editing on the console: cursor keys, history, command-name completion. */
#ifndef CGWB_KERNEL_SHELL_LINEEDIT_H
#define CGWB_KERNEL_SHELL_LINEEDIT_H

/*
 * Show prompt and read one line from the console's raw input: 0 and the line (without the
 * newline; valid until the next call) in *line, or -EINTR if Ctrl-C discarded it.
 */
int lineedit_read(const char *prompt, const char **line);

#endif
