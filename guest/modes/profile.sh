# scripts/bench-profile.sh inside the guest: one perfbench run, under QEMU's
# insnprof plugin (tests/bench/insnprof.c), which counts the guest's
# instructions by address.  Kernel command line: perfctx.prof=ARGS, the
# perfbench arguments with '+' between them (say
# pipe+--mode+self+--pmus+sw+--loops+20000).
set -u
export PATH=/usr/bin:/bin:/usr/sbin:/sbin
args=
for a in $(cat /proc/cmdline); do
	case $a in
	perfctx.prof=*) args=${a#*=} ;;
	esac
done
[ -n "$args" ] || { echo "profile: no perfctx.prof= on the command line"; exit 2; }
echo -1 > /proc/sys/kernel/perf_event_paranoid
echo +cpu > /sys/fs/cgroup/cgroup.subtree_control &&
	echo -cpu > /sys/fs/cgroup/cgroup.subtree_control
# shellcheck disable=SC2086
perfbench ${args//+/ }
