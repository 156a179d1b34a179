# Signal handlers (tests/programs/signals.c, glibc's sigaction, raise, sigsetjmp): siginfo
# of kill, raise and tgkill; registers, the FPU state and MXCSR across a handler, which
# starts on an aligned stack; masks, pending signals and their delivery at the unblock;
# SA_NODEFER, SA_RESETHAND, SA_ONSTACK; SIGSEGV (both si_codes), SIGILL and SIGFPE with
# si_addr, left with siglongjmp; a frame that cannot be written ends the process by
# SIGSEGV; a pipe read interrupted (EINTR) or restarted (SA_RESTART); a thread spinning in
# user mode gets its signal from an interrupt; SIGALRM from setitimer and alarm; tgkill reaches its thread and kill a thread
# that does not block the signal; a forked child keeps the handlers and its end sends
# SIGCHLD; execve resets handlers but not SIG_IGN or the mask; forged rt_sigreturn frames
# (garbage, kernel selectors, IOPL, MXCSR's reserved bits, a non-canonical RIP) end the
# program or are sanitised; bad sigaction pointers and signal numbers are refused. The
# shell's kill -INT and -TERM run a program's handlers; kill -9 ends it (137).
programs_image "$T/prog.img" 64M
guest_script <<'GUEST'
/mnt/bin/signals
echo signals=$?
/mnt/bin/signals waitsig 99 /tmp/sigready &
P=$!
while ! test -e /tmp/sigready; do sleep 0.1; done
kill -INT $P
sleep 0.5
kill -s TERM $P
sleep 0.5
kill -9 $P
wait $P
echo killed=$?
poweroff 0
GUEST
run_guest --disk "$T/prog.img" --timeout 180
expect_status 0
for c in raise kill tgkill "registers survive a handler" "FPU state survives a handler" \
	"handler stack alignment" "blocked signal stays pending" "unblock delivers" \
	"nothing pending after" "SIGKILL and SIGSTOP cannot be blocked" \
	"signal blocked in its handler" SA_NODEFER SA_RESETHAND \
	"SIGSEGV handler and siglongjmp" SEGV_ACCERR SIGILL SIGFPE \
	"a bad stack at delivery ends the process" sigaltstack \
	"pipe read interrupted: EINTR" "pipe read restarted (SA_RESTART)" \
	"signal to a thread spinning in user mode" "SIGALRM from setitimer" \
	"SIGALRM from alarm, pause" "alarm(0) says what was left" "tgkill reaches its thread" \
	"kill goes to a thread not blocking it" "a forked child has the handlers" SIGCHLD \
	"execve resets handlers, keeps SIG_IGN and the mask" \
	"rt_sigreturn with a garbage frame" "rt_sigreturn sanitises a forged frame" \
	"rt_sigreturn to a non-canonical address" "sigaction with a bad act" \
	"sigaction with a bad oldact" "sigaction of signal 0" "sigaction of signal 65" \
	"sigaction of SIGKILL" "kill with signal 65" "rt_sigprocmask with a bad set"; do
	expect_line "PASS $c"
done
expect_no_output "^FAIL"
expect_line "signals: 0 failed"
expect_line "signals=0"
expect_line "caught SIGINT"
expect_line "caught SIGTERM"
expect_line "killed=137"
