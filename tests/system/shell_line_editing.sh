# The interactive line editor: backspace, Ctrl-U, history (Up arrow), Ctrl-C at the prompt.
printf 'echo hellx\177o\r' > "$T/stdin"
printf 'garbage words\025echo after-kill\r' >> "$T/stdin"
printf 'echo from-history\r\033[A\r' >> "$T/stdin"
printf 'half typed\003echo after-ctrl-c\r' >> "$T/stdin"
printf 'poweroff 0\r' >> "$T/stdin"
run_guest --no-script --stdin "$T/stdin"
expect_status 0
expect_line 'hello'
expect_line 'after-kill'
expect_count 2 '^from-history$'
expect_line 'after-ctrl-c'
