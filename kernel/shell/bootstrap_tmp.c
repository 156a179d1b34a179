/* TEMPORARY bring-up loop, replaced by the real shell before the first commit. */
#include <cgwb/file.h>
#include <cgwb/string.h>
#include <cgwb/sched.h>
#include "../console.h"
#include "../power.h"
#include "shell.h"

int shell_run_console(const char *script)
{
	char line[128];
	size_t n = 0;
	(void)script;
	console_write("cgwb# ", 6);
	for (;;) {
		int c = console_getc();
		if (c == '\r' || c == '\n') {
			line[n] = 0;
			console_write("\n", 1);
			if (!strcmp(line, "poweroff"))
				machine_poweroff(0);
			n = 0;
			console_write("cgwb# ", 6);
		} else if (n < sizeof(line) - 1) {
			line[n++] = (char)c;
			char ch = (char)c;
			console_write(&ch, 1);
		}
	}
}
