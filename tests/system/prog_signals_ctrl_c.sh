# Ctrl-C at the console reaches a program in the foreground as SIGINT: its handler runs
# instead of its end (tests/programs/signals.c "waitsig 2": it exits 2 after the two signals
# it waits for), once per Ctrl-C; a program without a handler (busybox's sleep) still ends
# with 130. As bash, a command list goes on after a program that handled the SIGINT and
# ended by itself, with its status.
programs_image "$T/prog.img" 64M
start_guest --no-script --disk "$T/prog.img" --timeout 120
await_prompt
send '/mnt/bin/signals waitsig 2\r'
await_line 'waiting for signals'
send '\003'
await_line 'caught SIGINT'
send '\003'
await_line 'caught SIGINT'
await_prompt
send 'echo rc=$?\r'
await_line 'rc=2'
await_prompt
send '/mnt/bin/signals waitsig 1; echo went-on\r'
await_line 'waiting for signals'
send '\003'
await_line 'caught SIGINT'
await_line 'went-on'
await_prompt
send '/mnt/bin/busybox sleep 100\r'
sleep 2
interrupt_expect_130
expect_count 3 '^caught SIGINT$'
