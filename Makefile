# The perf context series workshop.  `make help` lists the targets.
ARCH ?= arm64
S := scripts

.PHONY: help deps tree export kernel tools initramfs run check check-full \
	checkpatch mutants stress bench build-each build-arches clean

help:
	@echo "make run         build the patched kernel for ARCH (default arm64)"
	@echo "                 and boot it under QEMU, showing perf at work"
	@echo "make check       the whole test suite, x86_64 and arm64"
	@echo "make check-full  the same with every 'perf test'"
	@echo "make tree        build/linux: the base + patches/series (git am)"
	@echo "make export      build/linux base..HEAD back into patches/"
	@echo "make kernel|tools|initramfs ARCH=..   one build step"
	@echo "make checkpatch  checkpatch --strict on patches/"
	@echo "make mutants     break the perf core on purpose, one behaviour at a"
	@echo "                 time (x86_64), and show which tests notice"
	@echo "make stress      stress and fuzz the debug kernel + kmemleak under QEMU"
	@echo "                 (ARCH default x86_64 here, DURATION=1800 seconds)"
	@echo "make bench       A/B benchmarks, the series before the rewrite against"
	@echo "                 the whole series, under QEMU -icount (ARCH default x86_64)"
	@echo "make build-each  build every patch of the series in turn (x86_64) and"
	@echo "                 report the first that breaks"
	@echo "make build-arches x86_64_defconfig, KVM, arm64 defconfig, the powerpc and s390"
	@echo "                 perf objects, and kernel/events/ with W=1 and sparse"
	@echo "                 against the base"
	@echo "make deps        install the Debian packages (root)"

deps:
	$(S)/deps.sh

tree: deps
	$(S)/tree.sh

export:
	$(S)/export.sh

kernel: deps
	SYNC=1 $(S)/tree.sh
	$(S)/build-kernel.sh $(ARCH)

tools: deps
	SYNC=1 $(S)/tree.sh
	$(S)/build-tools.sh $(ARCH)

initramfs: tools
	$(S)/mkinitramfs.sh $(ARCH)

run: kernel initramfs
	CONSOLE=$(or $(CONSOLE),0) TIMEOUT=900 $(S)/qemu.sh $(ARCH) run
	@cat build/logs/$(ARCH)-run/guest.log

check:
	$(S)/check.sh core

check-full:
	$(S)/check.sh full

checkpatch:
	$(S)/check.sh checkpatch

mutants: deps
	SYNC=1 $(S)/tree.sh
	$(S)/build-tools.sh x86_64
	tests/mutants/run.sh $(N)

# `make stress` defaults to x86_64 (the other targets to arm64) unless ARCH
# is given on the command line or in the environment.
STRESS_ARCH := $(if $(filter file,$(origin ARCH)),x86_64,$(ARCH))
DURATION ?= 1800

build-each: deps
	SYNC=1 $(S)/tree.sh
	$(S)/build-each.sh $(or $(EACH_ARCH),x86_64)

build-arches: deps
	SYNC=1 $(S)/tree.sh
	$(S)/build-arches.sh $(STEPS)

stress: deps
	SYNC=1 $(S)/tree.sh
	$(S)/build-tools.sh $(STRESS_ARCH)
	$(S)/stress.sh $(STRESS_ARCH) $(DURATION)

# `make bench` defaults to x86_64 as `make stress` does.
bench: deps
	SYNC=1 $(S)/tree.sh
	$(S)/build-tools.sh $(STRESS_ARCH)
	$(S)/bench.sh $(STRESS_ARCH)

clean:
	rm -rf build/out build/logs
