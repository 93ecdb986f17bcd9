#!/usr/bin/env bash
# mkinitramfs.sh ARCH: pack the guest's initramfs, build/out/initramfs-ARCH.cpio.gz:
# busybox-static and bash-static (Debian's, of ARCH), perf and the
# kselftests from build/out/tools-ARCH/root, the guest/ scripts, and the
# shared libraries they need.
. "$(dirname "$0")/lib.sh"
arch=${1:?usage: mkinitramfs.sh ARCH}
arch_vars "$arch"
case $arch in
x86_64) darch=amd64; libdirs=(/lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64) ;;
arm64) darch=arm64; libdirs=(/usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu /usr/aarch64-linux-gnu/lib) ;;
esac
tools=$OUT/tools-$arch/root
[ -x "$tools/usr/bin/perf" ] || die "no perf for $arch: run scripts/build-tools.sh $arch"

# Debian's static busybox and bash for ARCH, unpacked from their .debs.
debs=$BUILD/debs/$darch
if [ ! -x "$debs/root/bin/busybox" ] || [ ! -x "$debs/root/bin/bash-static" ]; then
	mkdir -p "$debs/root"
	(cd "$debs" && apt-get download -q "busybox-static:$darch" "bash-static:$darch" >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get download -q "busybox-static:$darch" "bash-static:$darch"; }) ||
		die "cannot download busybox-static/bash-static for $darch"
	for d in "$debs"/*.deb; do dpkg-deb -x "$d" "$debs/root"; done
fi

r=$OUT/rootfs-$arch
rm -rf "$r"
mkdir -p "$r"/{bin,sbin,usr/bin,usr/sbin,lib,proc,sys,dev,tmp,run,etc,root,guest}
cp "$debs/root/bin/busybox" "$r/bin/busybox"
# Applet links: busybox --list needs to run, so take the list from the host's
# busybox (same version, same Debian config).
for a in $(/bin/busybox --list); do
	[ -e "$r/bin/$a" ] || ln -s busybox "$r/bin/$a"
done
cp "$debs/root/bin/bash-static" "$r/bin/bash"
ln -sf bash "$r/bin/sh"
cp -a "$tools/." "$r/"
cp "$TOP/guest/init" "$r/init"
cp "$TOP"/guest/*.sh "$TOP"/tests/perf-tests-core.txt "$r/guest/"
chmod +x "$r/init" "$r"/guest/*.sh
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' > "$r/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$r/etc/group"
echo "127.0.0.1 localhost" > "$r/etc/hosts"

elves=$(find "$r/usr" "$r/kselftest" -type f -exec sh -c \
	'head -c4 "$1" | grep -q ELF && echo "$1"' _ {} \;)
# shellcheck disable=SC2086
python3 "$TOP/scripts/copy-libs.py" "$r" "${libdirs[@]}" -- $elves

(cd "$r" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
	gzip -1 > "$OUT/initramfs-$arch.cpio.gz"
say "initramfs-$arch.cpio.gz: $(du -h "$OUT/initramfs-$arch.cpio.gz" | cut -f1)"
