# The information commands: help, uptime, free, ps, dmesg, time.
guest_script <<'GUEST'
help
uptime
free
ps
dmesg
time sleep 0.2
poweroff 0
GUEST
run_guest
expect_status 0
expect_output '^ *echo +.*'
expect_output '^ *poweroff '
expect_output '^ [0-9]{2}:[0-9]{2}:[0-9]{2} up '
expect_output '^ +total +used +free +shared +buff/cache +available$'
expect_output '^Mem: +[0-9]+ +[0-9]+ +[0-9]+'
expect_output '^ +PID +STAT +PSR +TIME +CGROUP +COMMAND$'
expect_output '^ +1 +[RSD] .* init$'
expect_output '^ +[0-9]+ +R .* ps$'
expect_output '^\[ +0\.[0-9]{6}\] clock: TSC'
expect_output '^real	0m0\.[2-9][0-9]{2}s$'
expect_output '^sys	0m[0-9]+\.[0-9]{3}s$'
