# The interactive line editor: backspace, Ctrl-U, history (Up arrow), Ctrl-C at the prompt.
# Each line is typed only once the shell has answered the previous one (a dialog, see lib.sh).
start_guest --no-script
await_prompt
send 'echo hellx\177o\r'
await_line 'hello'
await_prompt
send 'garbage words\025echo after-kill\r'
await_line 'after-kill'
await_prompt
send 'echo from-history\r'
await_line 'from-history'
await_prompt
send '\033[A\r'
await_line 'from-history'
await_prompt
send 'half typed'
await_text 'half typed'
send '\003'
await_prompt
send 'echo after-ctrl-c\r'
await_line 'after-ctrl-c'
await_prompt
send 'poweroff 0\r'
finish_guest
expect_status 0
expect_line 'hello'
expect_line 'after-kill'
expect_count 2 '^from-history$'
expect_line 'after-ctrl-c'
expect_no_output '^half typed'
