# The perf context series workshop: the README's entry points, each a thin
# alias of ./ws (`./ws --help`; the run kinds are config/profiles.toml).
WS := ./ws
# The arch of the targets that take one; each profile has its own default.
ARCH_OPT := $(if $(ARCH),--arch $(ARCH))
ARCHS_OPT := $(foreach a,$(ARCHS),--arch $(a))
set = $(if $(2),--set '$(1)=$(2)')
space := $() $()

.PHONY: help deps tree export kernel tools initramfs run check check-full \
	checkpatch selftest mutants stress bench bench-profile build-each \
	build-arches clean

help:
	@echo "make run          build the patched kernel (ARCH=arm64|x86_64) and boot it, perf at work"
	@echo "make check        the whole test suite, x86_64 and arm64 (ARCHS= for fewer)"
	@echo "make check-full   the same with every 'perf test'"
	@echo "make selftest     the harness's own tests"
	@echo "make stress       stress and fuzz the debug kernel (ARCH, DURATION, SEED, MODPHASE, BASE=1)"
	@echo "make bench        A/B benchmarks under -icount (ARCH, BENCH_FILTER)"
	@echo "make bench-profile ARGS='pipe --mode self --pmus sw'  instructions by function, A and B"
	@echo "make mutants      the perf core broken on purpose, one boot each (N='1 3')"
	@echo "make build-each   every patch of the series built in turn (FIRST=N: from patch N, LAST=M: up to M; KUNIT=1: each booted, the perf core's KUnit must pass)"
	@echo "make build-arches defconfigs, KVM, powerpc, s390, W=1 and sparse (STEPS=)"
	@echo "make tree|export  build/src/linux from patches/, and back (FORCE=1)"
	@echo "make kernel|tools|initramfs ARCH=..  one build step"
	@echo "make checkpatch   checkpatch --strict on patches/"
	@echo "make deps         install the Debian packages (root)"
	@echo "make clean        remove every build output (build/, the trees kept)"

deps:
	$(WS) deps build run bench lint selftest

tree:
	$(WS) tree $(if $(FORCE),--force)

export:
	$(WS) export $(if $(FORCE),--force)

kernel:
	$(WS) build $(or $(ARCH),arm64) debug

tools:
	$(WS) tools $(or $(ARCH),arm64)

initramfs:
	$(WS) initramfs $(or $(ARCH),arm64) check

run:
	$(WS) run run $(ARCH_OPT) $(if $(CONSOLE),--console)

check:
	$(WS) suite check $(ARCHS_OPT)

check-full:
	$(WS) suite check-full $(ARCHS_OPT)

checkpatch:
	$(WS) run checkpatch

selftest:
	$(WS) run selftest

mutants:
	$(WS) run mutants $(call set,mutants,$(N))

stress:
	$(WS) run $(if $(BASE),stress-base,stress) $(ARCH_OPT) $(call set,duration,$(DURATION)) \
		$(call set,seed,$(SEED)) $(call set,modphase,$(MODPHASE))

bench:
	$(WS) run bench $(ARCH_OPT) $(call set,benchfilter,$(BENCH_FILTER))

bench-profile:
	$(WS) run bench-profile $(ARCH_OPT) $(call set,prof,$(subst $(space),+,$(strip $(ARGS))))

build-each:
	$(WS) run build-each $(ARCH_OPT) $(call set,first,$(FIRST)) $(call set,last,$(LAST)) $(call set,kunit,$(KUNIT))

build-arches:
	$(WS) run build-arches $(call set,steps,$(STEPS))

clean:
	$(WS) clean
