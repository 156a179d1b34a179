# Ctrl-C stops the foreground command (status 130) and the shell goes on.
# the input is produced over time, so feed it through a pipe rather than a file
mkfifo "$T/stdin.fifo"
{
	printf 'sleep 100\r'
	sleep 3
	printf '\003'
	sleep 1
	printf 'echo rc=$?\rpoweroff 0\r'
} > "$T/stdin.fifo" &
run_guest --no-script --stdin "$T/stdin.fifo" --timeout 40
wait
expect_status 0
expect_line 'rc=130'
