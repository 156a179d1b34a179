# The end of a traced run of `make compare` (see trace-start.sh): the trace on the console
# between "===trace-begin" and "===trace-end", where scripts/compare/run finds it.
t=/sys/kernel/tracing
if [ -d $t/events/writeback ]; then
	echo 0 > $t/tracing_on
	echo "===trace-begin"
	cat $t/trace
	echo "===trace-end"
	echo 0 > $t/events/writeback/enable
fi
