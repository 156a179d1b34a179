/* poweroff [CODE]: an orderly power-off; QEMU exits with CODE. */
#include <cgwb/shell.h>
#include <cgwb/string.h>
#include <cgwb/reboot.h>

static int cmd_poweroff(int argc, char **argv)
{
	int code = 0;

	if (argc > 2 || (argc == 2 && (kstrtoint(argv[1], 10, &code) || code < 0 || code > 255)))
		return sh_usage("poweroff");
	kernel_poweroff(code);
}
DEFINE_SHELL_CMD(poweroff, "poweroff", "poweroff [CODE]",
		 "sync, then power off; QEMU exits with CODE (0-255, default 0)", cmd_poweroff, 0);
