# Put before a workload on the cgwb side of `make compare`: the setup the Linux side's
# init does (the boot may have mounted the disk already; cgroup2 is always mounted).
[ -e /mnt/lost+found ] || mount /dev/vda /mnt 2> /dev/null # unless the boot mounted it already
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
echo +io > /sys/fs/cgroup/cgroup.subtree_control
echo "===workload"
