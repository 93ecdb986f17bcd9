#!/usr/bin/env bash
# build-arches.sh [STEP...]: the series' builds beyond the test configs
# (`make build-arches`, issue 4 item 3), each out of tree in
# build/out-arches/STEP, from build/linux as it stands:
#   x86_64    x86_64_defconfig: the whole default target (bzImage, modules)
#   kvm       x86_64_defconfig with KVM, KVM_INTEL and KVM_AMD on, `prepare`,
#             then arch/x86/kvm/ (a user of the in-kernel counter API; the
#             x86_64 step's defconfig leaves KVM out)
#   arm64     defconfig: vmlinux, plus every object of drivers/perf/ (most
#             are modules there); FULL=1: the whole default target
#   powerpc   ppc64le_defconfig, `prepare`, then kernel/events/ and
#             arch/powerpc/perf/ (Debian's gcc-powerpc64le-linux-gnu)
#   s390      defconfig, `prepare`, then kernel/events/ and
#             arch/s390/kernel/ (gcc-s390x-linux-gnu)
#   w1        kernel/events/ with W=1 and with sparse (C=2), x86_64_defconfig,
#             for the series and for the base (a worktree of build/linux at
#             `base`, build/arches-base): fails on a W=1 warning the base
#             does not have; sparse's messages are compared the same way
#             (without line numbers) and a new one fails too, unless listed
#             in tests/sparse-known.txt with the reason
# No STEP: all of them.  One line per step, PASS or FAIL, then
# "N passed, N failed"; exit 1 on any failure.  Logs in
# build/logs/build-arches/STEP.log.  The first run is cold (x86_64 about
# 20 minutes, arm64 about 40 on 2 cores); ccache makes later ones quick.
. "$(dirname "$0")/lib.sh"
export LC_ALL=C
[ $# -gt 0 ] || set -- x86_64 kvm arm64 powerpc s390 w1
"$TOP/scripts/deps.sh" build lint
[ -e "$SRC/.git" ] || die "no kernel tree at $SRC: run 'make tree' first"
logs=$BUILD/logs/build-arches
mkdir -p "$logs"
passed=0 failed=0

# kmake SRCDIR OUTDIR ARCH CROSS ARGS...
kmake() {
	local src=$1 o=$2 a=$3 cross=$4
	shift 4
	mkdir -p "$o"
	make -s -C "$src" O="$o" ARCH="$a" CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" HOSTCC="ccache gcc" -j"$JOBS" "$@"
}

# configure SRCDIR OUTDIR ARCH CROSS DEFCONFIG: only when the out dir has
# none yet, so that a later run stays incremental
configure() {
	[ -f "$2/.config" ] || kmake "$1" "$2" "$3" "$4" "$5"
}

# warnings LOG: the compiler's and sparse's messages of a log, without
# line and column numbers (they move with any patch), sorted
warnings() {
	grep -E '(warning|error):' "$1" |
		sed -E 's/^[^ ]*\/(kernel|include|arch)\//\1\//; s/:[0-9]+:[0-9]+:/:/; s/:[0-9]+:/:/' |
		sort
}

step() { # step NAME: run step_NAME with its log, report PASS/FAIL
	local t0 log=$logs/$1.log
	t0=$(date +%s)
	say "build-arches: $1"
	if "step_$1" > "$log" 2>&1; then
		echo "PASS  $1 ($(( $(date +%s) - t0 )) s)"
		passed=$((passed + 1))
	else
		echo "FAIL  $1 ($(( $(date +%s) - t0 )) s), build/logs/build-arches/$1.log:"
		tail -25 "$log" | sed 's/^/      /'
		failed=$((failed + 1))
	fi
}

o=$BUILD/out-arches

step_x86_64() {
	configure "$SRC" "$o/x86_64" x86_64 "" x86_64_defconfig &&
	kmake "$SRC" "$o/x86_64" x86_64 "" &&
	ls -l "$o/x86_64/arch/x86/boot/bzImage"
}

step_kvm() {
	if [ ! -f "$o/kvm/.config" ]; then
		kmake "$SRC" "$o/kvm" x86_64 "" x86_64_defconfig &&
		"$SRC/scripts/config" --file "$o/kvm/.config" \
			-e VIRTUALIZATION -e KVM -e KVM_INTEL -e KVM_AMD &&
		kmake "$SRC" "$o/kvm" x86_64 "" olddefconfig || return
	fi
	grep -E '^CONFIG_KVM(_INTEL|_AMD)?=' "$o/kvm/.config" &&
	kmake "$SRC" "$o/kvm" x86_64 "" prepare &&
	kmake "$SRC" "$o/kvm" x86_64 "" arch/x86/kvm/ &&
	find "$o/kvm/arch/x86/kvm" -name '*.o' | wc -l | sed 's/$/ objects in arch\/x86\/kvm/'
}

step_arm64() {
	configure "$SRC" "$o/arm64" arm64 aarch64-linux-gnu- defconfig || return
	if [ "${FULL:-0}" = 1 ]; then
		kmake "$SRC" "$o/arm64" arm64 aarch64-linux-gnu- || return
	else
		kmake "$SRC" "$o/arm64" arm64 aarch64-linux-gnu- vmlinux drivers/perf/ || return
	fi
	ls -l "$o/arm64/vmlinux"
	find "$o/arm64/drivers/perf" -name '*.o' | wc -l | sed 's/$/ objects in drivers\/perf/'
}

step_powerpc() {
	configure "$SRC" "$o/powerpc" powerpc powerpc64le-linux-gnu- ppc64le_defconfig &&
	kmake "$SRC" "$o/powerpc" powerpc powerpc64le-linux-gnu- prepare &&
	kmake "$SRC" "$o/powerpc" powerpc powerpc64le-linux-gnu- W=1 kernel/events/ arch/powerpc/perf/ &&
	find "$o/powerpc/arch/powerpc/perf" "$o/powerpc/kernel/events" -name '*.o' | wc -l | sed 's/$/ objects/'
}

step_s390() {
	configure "$SRC" "$o/s390" s390 s390x-linux-gnu- defconfig &&
	kmake "$SRC" "$o/s390" s390 s390x-linux-gnu- prepare &&
	kmake "$SRC" "$o/s390" s390 s390x-linux-gnu- W=1 kernel/events/ arch/s390/kernel/ &&
	ls "$o/s390/arch/s390/kernel/" | grep -E '^perf_.*\.o$' | tr '\n' ' '
}

# w1 for one tree: kernel/events/ rebuilt from scratch with W=1 C=2
w1_one() { # w1_one SRCDIR OUTDIR LOG
	configure "$1" "$2" x86_64 "" x86_64_defconfig &&
	kmake "$1" "$2" x86_64 "" prepare &&
	rm -f "$2"/kernel/events/*.o &&
	kmake "$1" "$2" x86_64 "" W=1 C=2 kernel/events/ > "$3" 2>&1
}

step_w1() {
	local wt=$BUILD/arches-base new
	if [ ! -e "$wt/.git" ]; then
		git -C "$SRC" worktree prune
		git -C "$SRC" worktree add -q --detach "$wt" base
	fi
	w1_one "$wt" "$o/w1-base" "$logs/w1-base.out" || { cat "$logs/w1-base.out"; return 1; }
	w1_one "$SRC" "$o/w1" "$logs/w1-series.out" || { cat "$logs/w1-series.out"; return 1; }
	warnings "$logs/w1-base.out" > "$logs/w1-base.txt"
	warnings "$logs/w1-series.out" > "$logs/w1-series.txt"
	echo "base: $(wc -l < "$logs/w1-base.txt") messages, series: $(wc -l < "$logs/w1-series.txt")"
	# the series' messages beyond the base's, as a multiset
	new=$(comm -13 "$logs/w1-base.txt" "$logs/w1-series.txt" |
		grep -vxF -f <(grep -vE '^\s*(#|$)' "$TOP/tests/sparse-known.txt") || true)
	if [ -n "$new" ]; then
		echo "new messages:"
		echo "$new"
		return 1
	fi
	echo "no new W=1 or sparse message in kernel/events/"
}

for s in "$@"; do
	declare -F "step_$s" >/dev/null || die "unknown step $s"
	step "$s"
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
