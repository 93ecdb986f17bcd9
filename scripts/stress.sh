#!/usr/bin/env bash
# stress.sh ARCH [DURATION]: `make stress` (issue 5).  Builds the stress
# kernel (build-kernel.sh ARCH stress: the debug kernel + kmemleak, the test
# PMUs as a module) into build/out/ARCH-stress, a guest with trinity,
# stress-ng, perfstorm (tests/stress/perfstorm.c) and the module
# (build/out-stress/initramfs-ARCH.cpio.gz), boots it with guest/stress.sh
# for DURATION seconds (default 1800) and judges the run with
# scripts/stress-judge.py (results.py's splat scanner, kmemleak, the
# stressors' figures).
#
# While QEMU runs, the kernel log is polled for splats; at the first one the
# guest gets STRESS_GRACE seconds (600) to stop on its own (it stops at a
# taint or when lockdep turns off, and still scans kmemleak), then QEMU is
# killed.  Logs, seed and verdict: build/logs/ARCH-stress/ (console.log,
# guest.log, results.txt, results.json, seed, repro.txt, kernel.config); the
# previous run's are kept in build/logs/ARCH-stress.prev/.
#
# BASE=1: the plain base instead of the series (no test PMUs); its build,
# guest and logs get the suffix -base (build/out-base, build/logs/ARCH-stress-base).
# STRESS_LOGS: the log directory (`make check`'s smoke run has its own).
# Environment: SEED (random), MODPHASE (guest/stress.sh: DURATION/3),
# MEM (3G), SMP (4), STRESS_GRACE (600), STRESS_SLACK (1500: seconds on top
# of DURATION for boot, the kmemleak scans and the wind-down before the hard
# timeout), CMDLINE (more kernel parameters).
# perf for ARCH must be built (scripts/build-tools.sh ARCH; `make stress`
# does it).
. "$(dirname "$0")/lib.sh"
arch=${1:?usage: stress.sh ARCH [DURATION]}
duration=${2:-${DURATION:-1800}}
arch_vars "$arch"
[[ $duration =~ ^[0-9]+$ ]] || die "DURATION must be seconds, not '$duration'"
tools=$OUT/tools-$arch
sfx=
if [ "${BASE:-0}" = 1 ]; then
	# The plain base (the tag base of build/linux, no patch of the series)
	# in a worktree of its own, built into build/out-base: the base's own
	# state.  It has no test PMUs; guest/stress.sh uses software events
	# where it would use them, and skips the module loop.
	wt=$BUILD/base-linux
	[ -e "$wt/.git" ] || git -C "$SRC" worktree add -q --detach "$wt" base
	git -C "$wt" checkout -q --detach base
	SRC=$wt OUT=$BUILD/out-base sfx=-base
	export ABSENT_OK="CONFIG_TEST_PERF_PMU CONFIG_PERF_CORE_KUNIT_TEST"
fi
kdir=$OUT/$arch-stress
so=$BUILD/out-stress$sfx
logs=${STRESS_LOGS:-$BUILD/logs/$arch-stress$sfx}

# Debian packages for the guest (unpacked, not installed): trinity,
# stress-ng and the libraries stress-ng links (its EGL/GBM/GLES ones only
# need to load).  libc, zlib, libzstd... come with the base guest.
guest_debs="trinity stress-ng libapparmor1 libbsd0 libmd0 libegl1 libglvnd0
	libgbm1 libdrm2 libwayland-server0 libgles2 libjpeg62-turbo libjudydebian1
	libkmod2 libssl3 libsctp1 libxxhash0"
[ "$arch" = x86_64 ] && guest_debs+=" libipsec-mb1"

SRC=$SRC OUT=$OUT "$TOP/scripts/build-kernel.sh" "$arch" stress
ko=$kdir/lib/test_perf_pmu.ko
[ -f "$ko" ] || [ -n "$sfx" ] ||
	die "no $ko (CONFIG_TEST_PERF_PMU=m in configs/stress.config?)"
[ -x "$tools/root/usr/bin/perf" ] ||
	die "no perf for $arch: run scripts/build-tools.sh $arch (or make stress)"

# What the guest gets on top of the usual initramfs: the module at a fixed
# path (guest/stress.sh insmods it; no depmod or modprobe needed) and
# perfstorm, static.
extra=$so/extra-$arch
rm -rf "$extra"
mkdir -p "$extra/lib/modules" "$extra/usr/bin"
[ -f "$ko" ] && "${CROSS}strip" --strip-debug -o "$extra/lib/modules/test_perf_pmu.ko" "$ko"
"${CROSS}gcc" -O2 -Wall -static -o "$extra/usr/bin/perfstorm" "$TOP/tests/stress/perfstorm.c"
# mkinitramfs.sh takes perf and the kselftests from $OUT/tools-ARCH.
mkdir -p "$so"
ln -sfn "$tools" "$so/tools-$arch"
GUEST_EXTRA_DEBS=$guest_debs GUEST_EXTRA_ROOT=$extra OUT=$so \
	"$TOP/scripts/mkinitramfs.sh" "$arch"

if [ -d "$logs" ]; then
	rm -rf "$logs.prev"
	mv "$logs" "$logs.prev"
fi
mkdir -p "$logs"
seed=${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "$seed" > "$logs/seed"
cp "$kdir/.config" "$logs/kernel.config"
{
	echo "kernel: $(git -C "$SRC" describe --always --tags --dirty 2>/dev/null || echo '?') ($SRC)"
	echo "series: $(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo '?')"
	echo "again:  ${sfx:+BASE=1 }SEED=$seed${MODPHASE:+ MODPHASE=$MODPHASE} scripts/stress.sh $arch $duration"
	echo "(trinity's seeds are in guest.log, '=== STATE trinity_seed.N='; the"
	echo " stressors run side by side, so a seed does not replay a run exactly)"
} > "$logs/repro.txt"

cmdline="perfctx.duration=$duration perfctx.seed=$seed"
[ -n "${MODPHASE:-}" ] && cmdline+=" perfctx.modphase=$MODPHASE"
[ -n "${CMDLINE:-}" ] && cmdline+=" $CMDLINE"
hard=$((duration + ${STRESS_SLACK:-1500}))
say "stress: $arch for $duration s (seed $seed, hard timeout $hard s), logs in ${logs#"$TOP"/}"

# TEST_PMU= (empty): no test_perf_pmu.* parameters on the command line, the
# guest loads the module with its own.
LOGS=$logs TIMEOUT=$hard MEM=${MEM:-3G} TEST_PMU= CMDLINE=$cmdline OUT=$so \
	"$TOP/scripts/qemu.sh" "$arch" stress "" "$kdir" &
qpid=$!

# Poll the kernel log; at the first splat give the guest its grace, then
# stop QEMU (through qemu.sh's `timeout`, which passes the signal on).
grace=${STRESS_GRACE:-600}
seen=
while kill -0 "$qpid" 2>/dev/null; do
	sleep 15
	if [ -z "$seen" ]; then
		t=$(python3 "$TOP/scripts/stress-judge.py" --splats-only "$logs/console.log" 2>/dev/null) &&
			continue
		t=$(head -1 <<<"$t")
		[ -n "$t" ] || continue
		seen=$(date +%s)
		say "splat in the kernel log: $t (the guest has $grace s to stop)"
		echo "$t" > "$logs/host-stop"
	elif [ $(( $(date +%s) - seen )) -ge "$grace" ]; then
		say "stopping QEMU"
		tpid=$(ps -o pid=,comm= --ppid "$qpid" | awk '$2 == "timeout" { print $1 }')
		[ -n "$tpid" ] && kill -TERM "$tpid" 2>/dev/null
		break
	fi
done
qrc=0
wait "$qpid" || qrc=$?
# host-stop only when the guest did not end by itself.
grep -q '^GUEST-EXIT:' "$logs/guest.log" 2>/dev/null && [ "$qrc" != 125 ] &&
	rm -f "$logs/host-stop"

jrc=0
python3 "$TOP/scripts/stress-judge.py" "$arch" "$logs" \
	--vmlinux "$kdir/vmlinux" --src "$SRC" --cross "$CROSS" \
	--json "$logs/results.json" ${sfx:+--base} > "$logs/results.txt" 2>&1 || jrc=$?
grep -vE '^PASS ' "$logs/results.txt" | grep -vE '^----? kmemleak \(.*\): not perf' || true
say "qemu.sh exit status $qrc; full verdict: ${logs#"$TOP"/}/results.txt"
exit "$jrc"
