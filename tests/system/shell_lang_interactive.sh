# The new language at the prompt: a function, a case and a here-document typed over several
# lines (the shell asks for more with its PS2 prompt until the command is complete), then
# used; the definitions stay for the next commands.
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
send 'poweroff 0\r'
finish_guest
expect_status 0
