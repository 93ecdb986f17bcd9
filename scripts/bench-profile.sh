#!/usr/bin/env bash
# bench-profile.sh ARCH PERFBENCH-ARGS...: where the instructions of one
# perfbench run go, on the base (A) and the patched (B) kernel of
# `make bench`, function by function.  Say
#
#   scripts/bench-profile.sh x86_64 pipe --mode self --pmus sw --loops 20000
#
# Each side boots under -icount shift=0,sleep=off with the insnprof QEMU
# plugin (tests/bench/insnprof.c, built here), which counts the guest
# kernel's instructions by translation block; scripts/profile-report.py
# maps them to the symbols of each side's vmlinux and prints, per op (the
# ops perfbench reports), the functions whose counts differ most.  The
# whole boot is counted: the scenario's functions stand out by their
# counts, boot-time ones are the same on both sides.  Logs and counts in
# build/logs/ARCH-profile/{A,B}.
#
# Needs the kernels and guest that scripts/bench.sh builds (`make bench`,
# or BENCH=quick BENCH_FILTER=none scripts/bench.sh ARCH).  Guest
# instructions are counted as QEMU executes them: a measurement tool for a
# developer, not a test.
. "$(dirname "$0")/lib.sh"
arch=${1:?usage: bench-profile.sh ARCH PERFBENCH-ARGS...}
shift
[ $# -gt 0 ] || die "usage: bench-profile.sh ARCH PERFBENCH-ARGS..."
arch_vars "$arch"
ka=${KA:-$BUILD/out-bench-a/$arch-bench}
kb=${KB:-$OUT/$arch-bench}
bo=$BUILD/out-bench
for k in "$ka" "$kb"; do
	[ -f "$k/$IMAGE" ] || die "no bench kernel in $k: run scripts/bench.sh $arch first"
done
[ -f "$bo/initramfs-$arch.cpio.gz" ] || die "no bench guest: run scripts/bench.sh $arch first"
# The guest's profile mode must be in the initramfs.
if ! gzip -dc "$bo/initramfs-$arch.cpio.gz" | cpio -it 2>/dev/null | grep -qx 'guest/profile.sh'; then
	GUEST_EXTRA_ROOT=$bo/extra-$arch OUT=$bo "$TOP/scripts/mkinitramfs.sh" "$arch"
fi
so=$bo/insnprof.so
gcc -O2 -Wall -shared -fPIC -o "$so" "$TOP/tests/bench/insnprof.c"
case $arch in
x86_64) min=0xffffffff80000000 ;;
arm64) min=0xffff000000000000 ;;
esac
joined=$(IFS=+; echo "$*")
logs=$BUILD/logs/$arch-profile
for side in A B; do
	k=$ka
	[ $side = B ] && k=$kb
	rm -rf "${logs:?}/$side"
	mkdir -p "$logs/$side"
	LOGS=$logs/$side ICOUNT=1 SMP=1 MEM=1G TIMEOUT=${TIMEOUT:-3600} \
		TEST_PMU=$BENCH_TEST_PMU CMDLINE="perfctx.prof=$joined nokaslr" \
		QEMU_EXTRA="-plugin $so,out=$logs/$side/insn.txt,min=$min" \
		OUT=$bo "$TOP/scripts/qemu.sh" "$arch" profile "" "$k" ||
		die "the $side side's guest failed: $logs/$side/guest.log"
	[ -s "$logs/$side/insn.txt" ] || die "the plugin wrote no counts for $side"
done
python3 "$TOP/scripts/profile-report.py" --cross "$CROSS" \
	"$ka/vmlinux" "$logs/A" "$kb/vmlinux" "$logs/B" ${TOP_N:+--top "$TOP_N"}
