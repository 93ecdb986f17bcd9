"""Builds: the kernel of a flavour, perf and the kselftests, the guest's
static programs, the out-of-tree test PMU module.  Out of tree, through
ccache, at idle CPU priority (a guest may be running beside them)."""
import hashlib
import os
import re
import shutil

from workshop import conf
from workshop.proc import die, run, say


def kmake(src, o, a, *args, log=None, cross=None):
    """make in the kernel tree SRC, out of tree in O, for conf.Arch A."""
    cross = a.cross_compile if cross is None else cross
    os.makedirs(o, exist_ok=True)
    run(['make', '-s', '-C', src, 'O=' + o, 'ARCH=' + a.kernel_arch,
         'CROSS_COMPILE=' + cross, 'CC=ccache %sgcc' % cross, 'HOSTCC=ccache gcc',
         '-j%d' % conf.jobs()] + list(args), log=log, idle=True)


def fragments(flavour, arch_name, profiles=None):
    """The config fragments of FLAVOUR (config/boots.toml [flavour])."""
    fl = (profiles or conf.profiles())['flavour']
    if flavour not in fl:
        die('unknown flavour %r (%s)' % (flavour, ', '.join(fl)))
    names = [arch_name + n[5:] if n.startswith('@arch') else n for n in fl[flavour]]
    return [os.path.join(conf.CONFIG, 'kernel', n + '.config') for n in names]


def wanted(texts):
    """{option: value} the fragments ask for, the last one winning (as in
    merge_config.sh), in the order they first appear."""
    out = {}
    for t in texts:
        for line in t.splitlines():
            m = re.match(r'^(CONFIG_\w+)=(.*)$', line.strip())
            if m:
                out[m.group(1)] = m.group(2)
    return out


def mismatches(texts, config, skip=()):
    """Every option a fragment asks for that did not stick in CONFIG (a
    .config's text): typos and unmet dependencies, which merge_config.sh
    only warns about.  SKIP: options to leave unchecked."""
    have = {}
    for line in config.splitlines():
        m = re.match(r'^(CONFIG_\w+)=(.*)$', line)
        if m:
            have[m.group(1)] = m.group(2)
    bad = []
    for opt, val in wanted(texts).items():
        if opt in skip:
            continue
        got = have.get(opt)
        if val == 'n' and got is None or got == val:
            continue
        bad.append('%s: wanted %s, got %s' % (opt, val, got if got is not None else 'unset'))
    return bad


def kconfig_symbols(src):
    """Every symbol the tree at SRC declares in a Kconfig file."""
    syms = set()
    for dp, dns, fs in os.walk(src):
        dns[:] = [d for d in dns if d != '.git']
        for f in fs:
            if f.startswith('Kconfig'):
                with open(os.path.join(dp, f), errors='replace') as fh:
                    syms.update('CONFIG_' + m for m in
                                re.findall(r'^\s*(?:menu)?config\s+(\w+)', fh.read(), re.M))
    return syms


def configure(src, o, a, frags, absent_ok=()):
    """O/.config from tinyconfig + FRAGS, re-made only when a fragment
    changed, so that incremental builds stay incremental."""
    texts = []
    for f in frags:
        with open(f) as fh:
            texts.append(fh.read())
    want = hashlib.sha256(''.join(texts).encode()).hexdigest()
    stamp = os.path.join(o, '.fragments.sha')
    if os.path.exists(os.path.join(o, '.config')) and os.path.exists(stamp):
        with open(stamp) as fh:
            if fh.read().strip() == want:
                return
    say('configuring %s in %s' % (a.name, o))
    kmake(src, o, a, 'tinyconfig', log=os.devnull)
    run([os.path.join(src, 'scripts/kconfig/merge_config.sh'), '-m', '-O', o,
         os.path.join(o, '.config')] + list(frags),
        env=conf.env(KCONFIG_CONFIG=os.path.join(o, '.config')), log=os.devnull)
    kmake(src, o, a, 'olddefconfig', log=os.devnull)
    skip = sorted(set(absent_ok) - kconfig_symbols(src)) if absent_ok else []
    for opt in skip:
        say('  %s: not in this tree, not checked' % opt)
    with open(os.path.join(o, '.config')) as fh:
        bad = mismatches(texts, fh.read(), skip)
    if bad:
        die('config fragments for %s did not apply:\n  %s' % (a.name, '\n  '.join(bad)))
    with open(stamp, 'w') as fh:
        fh.write(want + '\n')


def kernel(src, o, a, frags, absent_ok=(), log=None):
    """The kernel and its modules, in O."""
    configure(src, o, a, frags, absent_ok)
    say('building the %s kernel in %s' % (a.name, o))
    kmake(src, o, a, log=log)
    kmake(src, o, a, 'modules', log=log or os.devnull)
    return os.path.join(o, a.image)


# Features perf is built without: nothing the perf-core tests need, and
# each would need more libraries in the guest.
PERF_OPTS = ['prefix=/usr', 'PYTHON_WORD=python3', 'NO_LIBPYTHON=1', 'NO_LIBPERL=1',
             'NO_GTK2=1', 'NO_SLANG=1', 'NO_LIBUNWIND=1', 'NO_LIBAUDIT=1',
             'NO_LIBCRYPTO=1', 'NO_LIBBABELTRACE=1', 'NO_JVMTI=1', 'NO_LIBNUMA=1',
             'NO_LIBCAP=1', 'NO_LIBZSTD=1', 'NO_LIBLLVM=1', 'NO_DEMANGLE=1',
             'NO_LIBDEBUGINFOD=1', 'NO_SDT=1', 'NO_AUXTRACE=0', 'WERROR=0']


def tools(src, a):
    """perf (installed with prefix /usr) and the perf_events kselftests
    (in /kselftest/perf_events) under build/ARCH/tools/root."""
    o = conf.tools_out(a.name)
    root = os.path.join(o, 'root')
    log = os.path.join(o, 'build.log')
    os.makedirs(o, exist_ok=True)
    open(log, 'w').close()
    tmake = ['make', '-s', 'ARCH=' + a.kernel_arch, 'CROSS_COMPILE=' + a.cross_compile,
             'CC=ccache %sgcc' % a.cross_compile, 'HOSTCC=gcc', '-j%d' % conf.jobs()]
    say('building perf for ' + a.name)
    perf = tmake + ['-C', os.path.join(src, 'tools/perf'), 'O=' + os.path.join(o, 'perf')] + PERF_OPTS
    os.makedirs(os.path.join(o, 'perf'), exist_ok=True)
    run(perf, log=log, idle=True)
    shutil.rmtree(root, ignore_errors=True)
    run(perf + ['DESTDIR=' + root, 'install-bin'], log=log, idle=True)
    say('building the perf_events kselftests for ' + a.name)
    # The uapi headers in a directory of their own (`make headers` needs no
    # .config); the kselftests straight from their folder: the selftests'
    # top-level Makefile would install headers into the source tree, which
    # O= builds then refuse.
    hdr = os.path.join(o, 'headers')
    kmake(src, hdr, a, 'headers', log=log)
    ks = os.path.join(o, 'kselftest')
    os.makedirs(ks, exist_ok=True)
    run(tmake + ['-C', os.path.join(src, 'tools/testing/selftests/perf_events'),
                 'OUTPUT=' + ks, 'KHDR_INCLUDES=-isystem %s/usr/include' % hdr], log=log, idle=True)
    dest = os.path.join(root, 'kselftest', 'perf_events')
    os.makedirs(dest)
    for f in os.listdir(ks):
        p = os.path.join(ks, f)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            shutil.copy2(p, dest)
    settings = os.path.join(src, 'tools/testing/selftests/perf_events/settings')
    if os.path.exists(settings):
        shutil.copy2(settings, dest)
    if a.kvm_selftests:
        say('building the kvm selftests %s for %s' % (' '.join(a.kvm_selftests), a.name))
        kvm = os.path.join(o, 'kselftest-kvm')
        run(tmake + ['-C', os.path.join(src, 'tools/testing/selftests/kvm'), 'OUTPUT=' + kvm,
                     'KHDR_INCLUDES=-isystem %s/usr/include' % hdr]
            + [os.path.join(kvm, t) for t in a.kvm_selftests], log=log, idle=True)
        os.makedirs(os.path.join(root, 'kselftest', 'kvm'))
        for t in a.kvm_selftests:
            shutil.copy2(os.path.join(kvm, t), os.path.join(root, 'kselftest', 'kvm'))
    return root


def programs(a, names):
    """guest/src/NAME.c built static for the guest: {name: path}."""
    o = os.path.join(conf.tools_out(a.name), 'programs')
    os.makedirs(o, exist_ok=True)
    res = {}
    for n in names:
        res[n] = os.path.join(o, n)
        run([a.cross_compile + 'gcc', '-O2', '-Wall', '-static', '-o', res[n],
             os.path.join(conf.TOP, 'guest', 'src', n + '.c')], idle=True)
    return res


def module(src, kout, a, name):
    """The test PMU driver of SRC built out of tree against the kernel in
    KOUT as NAME.ko (guest/module/), stripped of its debug info."""
    o = os.path.join(kout, 'module-' + name)
    shutil.rmtree(o, ignore_errors=True)
    shutil.copytree(os.path.join(conf.TOP, 'guest', 'module'), o)
    kmake(src, kout, a, 'M=' + o, 'TPMU_NAME=' + name, 'modules')
    ko = os.path.join(o, name + '.ko')
    run([a.cross_compile + 'strip', '--strip-debug', '-o', ko + '.stripped', ko])
    return ko + '.stripped'
