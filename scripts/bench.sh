#!/usr/bin/env bash
# bench.sh [ARCH]: `make bench` (issue 6), A/B benchmarks of the perf core.
#
#   A: the series up to its last patch before the rewrite, named by subject
#      in tests/bench/a-side (the test PMUs and the suites, no rewrite);
#   B: the whole series (build/linux as it stands, like `make check`).
#
# Both are built with the same non-debug config (build-kernel.sh ARCH
# bench: configs/base + ARCH + bench), A in a worktree of its own
# (build/bench-a, out build/out-bench-a), B in build/out/ARCH-bench.  Each
# boots under QEMU TCG with -icount shift=0,sleep=off and -smp 1, so guest
# nanoseconds are guest instructions and a run repeats exactly; the guest
# (guest/bench.sh) runs the scenarios of tests/bench/perfbench.c, each
# repeated, and scripts/bench-report.py prints per scenario the base, the
# patched, the ratio patched/base and the spread of the repeats (flagged
# over 2%).  The report, with the command, the kernels and the date, goes
# to bench/results/DATE-ARCH.md (and .json), plots of the scaling
# scenarios to bench/results/DATE-ARCH-*.png.
#
# While A and B are the same commit (no rewrite patch yet) both sides still
# boot: the ratios then show the harness's own noise (1.000 expected).
#
# Environment: BENCH=full|quick (quick: fewer loops and repeats, the smoke
# run of `make check`; its report goes to build/logs/ARCH-bench/ only),
# BENCH_FILTER (a regex over scenario names, e.g. 'pipe|open'),
# TIMEOUT (QEMU, s; default 3600), BENCH_KERNEL (a kernel build directory,
# such as build/out/x86_64 of `make check`: boot it as A and as B and build
# nothing; the smoke run of `make check` uses the debug kernel that way, so
# that the harness is tested end to end without two more cold builds; its
# KUnit suites are skipped at boot with kunit.filter_glob).
# Benchmarks never fail on a timing: the exit status says only whether the
# harness ran end to end.
#
# B boots a second time with test_hw0 the only test PMU and runs the pipe
# scenarios of the PMUs it has (guest/bench.sh, perfctx.benchset=exist):
# the report compares them with B's first boot, where three more PMUs
# exist (test_hw1, test_hw2, test_dev) without events in those scenarios.
. "$(dirname "$0")/lib.sh"
arch=${1:-${ARCH:-x86_64}}
arch_vars "$arch"
mode=${BENCH:-full}
case $mode in full|quick) ;; *) die "BENCH must be full or quick, not '$mode'" ;; esac
"$TOP/scripts/deps.sh" build run bench
[ -e "$SRC/.git" ] || die "no kernel tree at $SRC: run 'make tree' first"

# ---- the two sides
aside=$(grep -vE '^\s*(#|$)' "$TOP/tests/bench/a-side" | head -1)
[ -n "$aside" ] || die "tests/bench/a-side names no patch"
b_commit=$(git -C "$SRC" rev-parse HEAD)
a_commit=$(git -C "$SRC" log --format='%H %s' base..HEAD |
	awk -v s="$aside" '{ h = $1; sub(/^[^ ]* /, ""); if ($0 == s) { print h; exit } }')
[ -n "$a_commit" ] || die "tests/bench/a-side: no patch '$aside' in build/linux base..HEAD"
if [ -n "$(git -C "$SRC" status --porcelain --untracked-files=no)" ]; then
	say "build/linux has uncommitted edits: B is built with them"
	b_desc="$(git -C "$SRC" describe --always --tags HEAD)-dirty"
else
	b_desc=$(git -C "$SRC" describe --always --tags HEAD)
fi
a_desc=$(git -C "$SRC" describe --always --tags "$a_commit")
a_n=$(git -C "$SRC" rev-list --count "base..$a_commit")
b_n=$(git -C "$SRC" rev-list --count base..HEAD)
say "A: base + $a_n patches ($a_desc); B: base + $b_n patches ($b_desc)"

# One build at a time (2 cores): A, then B.  When A is B's own commit
# (no rewrite patch yet) and build/linux is clean, A boots B's kernel.
kb=$OUT/$arch-bench
extra_cmdline=
if [ -n "${BENCH_KERNEL:-}" ]; then
	[ -f "$BENCH_KERNEL/.config" ] || die "BENCH_KERNEL=$BENCH_KERNEL: no kernel build there"
	say "BENCH_KERNEL: $BENCH_KERNEL booted as A, B and B-few, nothing built"
	kb=$BENCH_KERNEL ka=$BENCH_KERNEL
	a_desc="$BENCH_KERNEL" b_desc="$BENCH_KERNEL"
	a_commit=$b_commit a_n=$b_n
	grep -q '^CONFIG_KUNIT=y' "$kb/.config" && extra_cmdline=" kunit.filter_glob=none.none"
elif [ "$a_commit" = "$b_commit" ] && [[ $b_desc != *-dirty ]]; then
	say "A is B's commit: one kernel, booted as A, B and B-few"
	ka=$kb
else
	wt=$BUILD/bench-a
	if ! git -C "$wt" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		rm -rf "$wt"
		git -C "$SRC" worktree prune
		git -C "$SRC" worktree add -q --detach "$wt" "$a_commit"
	fi
	git -C "$wt" checkout -q --detach "$a_commit"
	SRC=$wt OUT=$BUILD/out-bench-a "$TOP/scripts/build-kernel.sh" "$arch" bench
	ka=$BUILD/out-bench-a/$arch-bench
fi
[ -n "${BENCH_KERNEL:-}" ] || "$TOP/scripts/build-kernel.sh" "$arch" bench

# ---- the guest: the usual initramfs plus perfbench, static
[ -x "$OUT/tools-$arch/root/usr/bin/perf" ] ||
	die "no perf for $arch: run scripts/build-tools.sh $arch (or make bench)"
bo=$BUILD/out-bench
extra=$bo/extra-$arch
rm -rf "$extra"
mkdir -p "$extra/usr/bin"
"${CROSS}gcc" -O2 -Wall -static -o "$extra/usr/bin/perfbench" "$TOP/tests/bench/perfbench.c"
mkdir -p "$bo"
ln -sfn "$OUT/tools-$arch" "$bo/tools-$arch"
GUEST_EXTRA_ROOT=$extra OUT=$bo "$TOP/scripts/mkinitramfs.sh" "$arch"

# The test PMUs on the one CPU (scripts/lib.sh).
tpmu=$BENCH_TEST_PMU
logs=$BUILD/logs/$arch-bench
rm -rf "$logs/A" "$logs/B" "$logs/B-few"
mkdir -p "$logs"
hz=$(sed -n 's/^CONFIG_HZ=//p' "$kb/.config")
rc=0
# boot NAME KERNEL TEST_PMU [CMDLINE...]: one guest, logs in $logs/NAME.
# Every guest runs even when one fails: the report says which.
boot() {
	local name=$1 k=$2 tp=$3
	shift 3
	LOGS=$logs/$name ICOUNT=1 SMP=1 MEM=1G TIMEOUT=${TIMEOUT:-3600} TEST_PMU=$tp \
		CMDLINE="perfctx.bench=$mode perfctx.hz=${hz:-250}${BENCH_FILTER:+ perfctx.benchfilter=$BENCH_FILTER}${*:+ $*}$extra_cmdline" \
		OUT=$bo "$TOP/scripts/qemu.sh" "$arch" bench "" "$k" ||
		{ rc=$?; say "bench: the $name guest failed (status $rc), see $logs/$name/"; }
}
boot A "$ka" "$tpmu"
boot B "$kb" "$tpmu"
# B once more with test_hw0 the only test PMU (no test_hw1, test_hw2 nor
# test_dev): its pipe runs against B's own show whether a context switch
# costs more for PMUs that exist but have no events (issue 6, goals 1 and
# 2).  Not when BENCH_FILTER leaves the pipe runs out.
few=()
if [ -z "${BENCH_FILTER:-}" ] || [[ pipe =~ $BENCH_FILTER ]]; then
	boot B-few "$kb" "$BENCH_TEST_PMU_FEW" perfctx.benchset=exist
	few=(--b-few "$logs/B-few/guest.log")
fi

args=(--arch "$arch" --mode "$mode" --a "$logs/A/guest.log" --b "$logs/B/guest.log"
	"${few[@]}"
	--a-desc "base + $a_n patches ($a_desc), $(git -C "$SRC" log -1 --format=%s "$a_commit")"
	--b-desc "base + $b_n patches ($b_desc), $(git -C "$SRC" log -1 --format=%s HEAD)"
	--same "$([ "$ka" = "$kb" ] && echo 1 || echo 0)"
	--command "${BENCH_COMMAND:-make bench ARCH=$arch${BENCH_FILTER:+ BENCH_FILTER=$(printf %q "$BENCH_FILTER")}}"
	--logdir "$logs")
if [ "$mode" = full ] && [ $rc = 0 ]; then
	args+=(--out "$TOP/bench/results/$(date -u +%Y-%m-%d)-$arch")
fi
python3 "$TOP/scripts/bench-report.py" "${args[@]}" || rc=$?
exit $rc
