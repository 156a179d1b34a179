# The system call round trip of a program (tests/programs/sysbench.c on the disk, put there
# by scripts/bench/syscall): a million getppid() calls, the nanoseconds per call.
/mnt/bin/sysbench 1000000
