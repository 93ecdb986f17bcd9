#!/usr/bin/env bash
# build-tools.sh ARCH: build perf (tools/perf) and the perf_events kselftests
# from build/linux for ARCH, and install them under build/out/tools-ARCH/root
# (perf with prefix /usr, the kselftests in /kselftest/perf_events).
. "$(dirname "$0")/lib.sh"
arch=${1:?usage: build-tools.sh ARCH}
arch_vars "$arch"
o=$OUT/tools-$arch
root=$o/root
mkdir -p "$o/perf" "$o/kselftest"

# Features perf is built without: nothing the perf-core tests need, and each
# would need more libraries in the guest.
perf_opts=(prefix=/usr PYTHON_WORD=python3 NO_LIBPYTHON=1 NO_LIBPERL=1 NO_GTK2=1 NO_SLANG=1 NO_LIBUNWIND=1
	NO_LIBAUDIT=1 NO_LIBCRYPTO=1 NO_LIBBABELTRACE=1 NO_JVMTI=1 NO_LIBNUMA=1
	NO_LIBCAP=1 NO_LIBZSTD=1 NO_LIBLLVM=1 NO_DEMANGLE=1 NO_LIBDEBUGINFOD=1
	NO_SDT=1 NO_AUXTRACE=0 WERROR=0)
tmake() { make -s -C "$SRC/$1" ARCH="$KARCH" CROSS_COMPILE="$CROSS" \
	CC="ccache ${CROSS}gcc" HOSTCC="gcc" -j"$JOBS" "${@:2}"; }

say "building perf for $arch"
tmake tools/perf O="$o/perf" "${perf_opts[@]}" >"$o/perf-build.log" 2>&1 ||
	{ tail -40 "$o/perf-build.log"; die "perf build failed for $arch (log: $o/perf-build.log)"; }
rm -rf "$root"
tmake tools/perf O="$o/perf" "${perf_opts[@]}" DESTDIR="$root" \
	install-bin >>"$o/perf-build.log" 2>&1 ||
	{ tail -40 "$o/perf-build.log"; die "perf install failed for $arch"; }

say "building perf_events kselftests for $arch"
# Straight from the test's folder: the selftests top-level Makefile would
# install uapi headers into the source tree, which O= builds refuse.
# The uapi headers in a directory of their own: `make headers` needs no
# .config, so `make stress` and `make bench` work on a fresh clone (they
# used to stop here until a test kernel had been configured).
hdr=$o/headers
make -s -C "$SRC" O="$hdr" ARCH="$KARCH" CROSS_COMPILE="$CROSS" headers >/dev/null
rm -rf "$o/kselftest"
mkdir -p "$o/kselftest"
make -s -C "$SRC/tools/testing/selftests/perf_events" ARCH="$KARCH" \
	CROSS_COMPILE="$CROSS" OUTPUT="$o/kselftest" \
	KHDR_INCLUDES="-isystem $hdr/usr/include" >"$o/kselftest-build.log" 2>&1 ||
	{ tail -40 "$o/kselftest-build.log"; die "kselftest build failed for $arch"; }
mkdir -p "$root/kselftest/perf_events"
find "$o/kselftest" -maxdepth 1 -type f -perm -u+x -exec cp {} "$root/kselftest/perf_events/" \;
cp "$SRC/tools/testing/selftests/perf_events/settings" "$root/kselftest/perf_events/" 2>/dev/null || true
