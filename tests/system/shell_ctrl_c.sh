# Ctrl-C stops the foreground command (status 130) and the shell goes on. The ^C is sent once
# the command list is running ("go" printed), so it cannot reach the prompt instead.
start_guest --no-script --timeout 60
await_prompt
send 'echo go; sleep 100; echo not-interrupted\r'
await_line 'go'
interrupt_expect_130
expect_no_output '^not-interrupted'
