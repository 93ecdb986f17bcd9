# Shared settings for the workshop scripts.  Sourced, not run.
# shellcheck shell=bash
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
SRC=${SRC:-$BUILD/linux}
OUT=${OUT:-$BUILD/out}
JOBS=${JOBS:-$(nproc)}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
# ccache keys on content, not mtimes or paths: a re-made tree still hits.
export CCACHE_BASEDIR=$TOP
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
# Reproducible build stamps keep init/version.c and friends cacheable.
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=perfctx KBUILD_BUILD_HOST=workshop
# One identity for the series' commits and the cover letter, whatever the
# machine's git config says.
export GIT_AUTHOR_NAME="perf-ctx workshop" GIT_AUTHOR_EMAIL="workshop@localhost"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"

# The test PMUs of the benchmark guests (scripts/bench.sh,
# scripts/bench-profile.sh), all on the one CPU: three hardware PMUs of 4
# counters, a device PMU with 128 counters (so that 100 device events are
# all active) and a 10 ms snapshot period.
BENCH_TEST_PMU="test_perf_pmu.nr_hw=3 test_perf_pmu.cpus=0x1,0x1,0x1"
BENCH_TEST_PMU+=" test_perf_pmu.dev_cpu=0 test_perf_pmu.dev_counters=128 test_perf_pmu.dev_period_us=10000"
# The same with test_hw0 alone: the "PMUs that exist" boot of scripts/bench.sh.
BENCH_TEST_PMU_FEW="test_perf_pmu.nr_hw=1 test_perf_pmu.cpus=0x1 test_perf_pmu.device=0"

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

# arch_vars ARCH: sets KARCH, CROSS, IMAGE for the kernel build.
arch_vars() {
	case "$1" in
	x86_64) KARCH=x86_64; CROSS=; IMAGE=arch/x86/boot/bzImage ;;
	arm64) KARCH=arm64; CROSS=aarch64-linux-gnu-; IMAGE=arch/arm64/boot/Image ;;
	*) die "unknown arch '$1' (x86_64 or arm64)" ;;
	esac
}
