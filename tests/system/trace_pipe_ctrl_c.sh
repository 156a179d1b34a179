# `cat trace_pipe` streams: it prints an event's line when it comes and waits for the next
# until Ctrl-C stops it (status 130), and the shell goes on.
start_guest --no-script --timeout 60
await_prompt
send 'echo 1 > /sys/kernel/tracing/events/writeback/writeback_pages_written/enable\r'
await_prompt
send 'echo go; cat /sys/kernel/tracing/trace_pipe\r'
await_line 'go'
interrupt_expect_130
expect_no_log 'Kernel panic|kernel BUG|WARNING'
