# Boot with no script: the prompt appears, piped input is executed, poweroff CODE is the
# exit status, and the kernel log reached debugcon with Linux-style timestamps.
printf 'echo hello from the prompt\rpoweroff 3\r' > "$T/stdin"
run_guest --no-script --stdin "$T/stdin"
expect_status 3
expect_output '^cgwb# '
expect_line 'hello from the prompt'
expect_log '^\[ +0\.[0-9]{6}\] clock: TSC'
expect_log 'cgwb: poweroff 3'
