# wbtop without -n redraws until Ctrl-C, which stops it in its sleep between rounds
# (status 130), and the shell goes on.
start_guest --no-script --timeout 60
await_prompt
send 'wbtop -d 30\r'
await_text 'B_MORE_IO'
interrupt_expect_130
expect_no_log 'Kernel panic|kernel BUG|WARNING'
