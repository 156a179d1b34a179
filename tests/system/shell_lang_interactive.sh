# The new language at the prompt: a function, a case and a here-document typed over several
# lines (the shell asks for more with its PS2 prompt until the command is complete), then
# used; the definitions stay for the next commands. Then what busybox cannot check for us:
# date +%s%N has nanoseconds, and tail -f prints lines as they are appended.
start_guest --no-script
await_prompt
send 'greet() {\r'
send '  echo "hi $1, $# args"\r'
send '}\r'
await_prompt
send 'greet you x\r'
await_line 'hi you, 2 args'
await_prompt
send 'case abc.sh in\r'
send '*.sh) echo script ;;\r'
send '*) echo other ;;\r'
send 'esac\r'
await_line 'script'
await_prompt
send 'cat <<EOF\r'
send 'body $((2 + 3))\r'
send 'EOF\r'
await_line 'body 5'
await_prompt
send 'n=$(date +%s%N); case $n in *[!0-9]*) echo "bad $n" ;; *) echo "digits ${#n}" ;; esac\r'
await_line 'digits 19'
await_prompt
# tail's output comes whenever it comes, maybe after a prompt: wait for text that only
# tail prints (the typed command has $((1)) where the output has 1)
send 'echo line$((1)) > /tmp/log; tail -f /tmp/log &\r'
await_text 'line1'
send 'echo line$((1 + 1)) >> /tmp/log\r'
await_text 'line2'
send 'kill %1; wait; echo tail-done=$((0))\r'
await_line 'tail-done=0'
await_prompt
send 'poweroff 0\r'
finish_guest
expect_status 0
