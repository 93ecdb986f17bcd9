#!/usr/bin/env bash
# qemu.sh ARCH MODE [FILTER] [KDIR]: boot build/out/ARCH (or KDIR) with
# build/out/initramfs-ARCH.cpio.gz under QEMU TCG and run guest/MODE.sh.
# Logs go to build/logs/ARCH-MODE/: console.log (the whole kernel log) and
# guest.log (what the guest reported, ending in "GUEST-EXIT: N").
# Exit status: the guest's, 124 on timeout, 125 when the guest died without
# reporting (panic, triple fault, QEMU error).
#
# Environment: TIMEOUT (s, default 2400), SMP (4), MEM (2G), ICOUNT=1 for
# -icount shift=0,sleep=off (guest ns = guest instructions; single-threaded;
# for benchmarks), ICOUNT=auto for -icount shift=auto (instructions are
# counted, the guest clock follows the host's: for tests with timeouts),
# CONSOLE=1 to also show the kernel log on the terminal, QEMU_EXTRA for
# more QEMU options (scripts/bench-profile.sh: its -plugin).
. "$(dirname "$0")/lib.sh"
arch=${1:?usage: qemu.sh ARCH MODE [FILTER] [KDIR]}
mode=${2:?usage: qemu.sh ARCH MODE [FILTER] [KDIR]}
filter=${3:-}
kdir=${4:-$OUT/$arch}
arch_vars "$arch"
logs=${LOGS:-$BUILD/logs/$arch-$mode}
mkdir -p "$logs"
: > "$logs/console.log"; : > "$logs/guest.log"

# Watchdogs sized for TCG: -smp 4 on a 2-core host lets a vCPU thread starve
# for seconds, never for a minute.  Soft lockups fire after 2 x 30 s, RCU
# stalls after 60 s, hung tasks after 240 s: a report is a real lockup.
cmdline="panic=-1 watchdog_thresh=30 rcupdate.rcu_cpu_stall_timeout=60"
cmdline+=" sysctl.kernel.hung_task_timeout_secs=240 loglevel=7 perfctx.mode=$mode"
[ -n "$filter" ] && cmdline+=" perfctx.filter=$filter"
# The test PMUs (lib/test_perf_pmu.c): test_hw0 on every CPU, and a
# hybrid-style pair, test_hw1 on CPUs 0-1 and test_hw2 on CPUs 2-3; 4
# counters each; test_dev on the last CPU.  `make run` adds test_hw3 on
# every CPU, for its per-PMU multiplexing demo.  TEST_PMU= replaces this.
tpmu="test_perf_pmu.nr_hw=3 test_perf_pmu.cpus=0,0x3,0xc"
[ "$mode" = run ] && tpmu="test_perf_pmu.nr_hw=4 test_perf_pmu.cpus=0,0x3,0xc,0"
cmdline+=" ${TEST_PMU-$tpmu}"
[ -n "${CMDLINE:-}" ] && cmdline+=" $CMDLINE"

accel="-accel tcg,thread=multi"
case ${ICOUNT:-0} in
1) accel="-accel tcg -icount shift=0,sleep=off" ;;
auto) accel="-accel tcg -icount shift=auto" ;;
esac
case $arch in
x86_64)
	qemu=(qemu-system-x86_64 -M q35 -cpu max)
	cons=ttyS0; vser=virtio-serial-pci ;;
arm64)
	qemu=(qemu-system-aarch64 -M virt,gic-version=3 -cpu max,pauth-impdef=on)
	cons=ttyAMA0; vser=virtio-serial-device ;;
esac
# shellcheck disable=SC2206
qemu+=($accel -smp "${SMP:-4}" -m "${MEM:-2G}" -nodefaults -display none -no-reboot
	-kernel "$kdir/$IMAGE" -initrd "$OUT/initramfs-$arch.cpio.gz"
	-append "console=$cons $cmdline"
	-chardev "file,id=con,path=$logs/console.log" -serial chardev:con
	-chardev "file,id=res,path=$logs/guest.log"
	-device "$vser" -device virtconsole,chardev=res
	-monitor none)
# shellcheck disable=SC2206
[ -n "${QEMU_EXTRA:-}" ] && qemu+=($QEMU_EXTRA)

say "booting $arch ($mode${filter:+, $filter}), logs in ${logs#"$TOP"/}"
tail_pid=
if [ "${CONSOLE:-0}" = 1 ]; then
	tail -n +1 -f "$logs/console.log" & tail_pid=$!
fi
rc=0
timeout --foreground -k 10 "${TIMEOUT:-2400}" "${qemu[@]}" </dev/null ||
	rc=$?
[ -n "$tail_pid" ] && kill "$tail_pid" 2>/dev/null
if [ $rc = 124 ] || [ $rc = 137 ]; then
	echo "TIMEOUT: $arch $mode ran past ${TIMEOUT:-2400} s" | tee -a "$logs/guest.log" >&2
	exit 124
fi
g=$(sed -n 's/^GUEST-EXIT: \([0-9]*\).*/\1/p' "$logs/guest.log" | tail -1)
if [ -z "$g" ]; then
	echo "GUEST DIED: $arch $mode ended (qemu status $rc) without reporting" | tee -a "$logs/guest.log" >&2
	exit 125
fi
exit "$g"
