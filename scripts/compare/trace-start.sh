# The start of a traced run of `make compare`, on both kernels (busybox sh sources it; the
# cgwb side's boot script has it pasted in): the writeback events the plots draw
# (scripts/plot), in an empty ring big enough for a workload. Nothing where there is no
# tracefs.
t=/sys/kernel/tracing
if [ -d $t/events/writeback ]; then
	echo 4096 > $t/buffer_size_kb
	for e in global_dirty_state balance_dirty_pages bdi_dirty_ratelimit writeback_single_inode \
		writeback_written writeback_wake_background inode_switch_wbs inode_foreign_history \
		flush_foreign; do
		echo 1 > $t/events/writeback/$e/enable
	done
	echo > $t/trace
	echo 1 > $t/tracing_on
fi
