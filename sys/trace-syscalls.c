/* The raw_syscalls trace events (include/cgwb/trace/syscalls.h), and their registration. */
#include <cgwb/user.h>
#include "internal.h"

#define CREATE_TRACE_POINTS
#include <cgwb/trace/syscalls.h>

void syscall_trace_init(void)
{
	trace_register_system(&raw_syscalls_trace_system);
}
