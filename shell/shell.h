#ifndef CGWB_SHELL_H
#define CGWB_SHELL_H

/* Run the boot script (if any), then the interactive shell on the console. Never returns
 * unless the shell exits. */
int shell_run_console(const char *script);

#endif
