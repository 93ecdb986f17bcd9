"""./ws: the workshop's one command.  Small steps with explicit arguments
(tree, export, build, tools, initramfs, boot, judge), the run kinds of
config/profiles.toml (run PROFILE), suites of them (suite NAME), and the
merge of result files from anywhere (merge FILE...)."""
import argparse
import os
import shutil
import sys

from workshop import conf


def kv(items):
    out = {}
    for it in items or []:
        k, sep, v = it.partition('=')
        if not sep:
            raise SystemExit('want KEY=VALUE, not %r' % it)
        out[k] = v
    return out


def cmd_deps(a):
    from workshop import deps
    deps.install(a.groups or ['build', 'run'])


def cmd_tree(a):
    from workshop import tree
    tree.sync(force=a.force, as_is=a.as_is)


def cmd_export(a):
    from workshop import export
    export.export(force=a.force)


def cmd_build(a):
    from workshop import build
    from workshop.pipeline import tree_of
    src, tag = tree_of(a.commit)
    o = conf.kernel_out(a.arch, a.flavour, tag)
    frags = build.fragments(a.flavour, a.arch)
    # Another commit may lack options the fragments name (the test PMU on
    # the base): those are not checked there.
    absent = [] if a.commit == 'series' else list(build.wanted(
        [open(f).read() for f in frags]))
    print(build.kernel(src, o, conf.arch(a.arch), frags, absent))


def cmd_tools(a):
    from workshop import build
    print(build.tools(conf.src(), conf.arch(a.arch)))


def cmd_initramfs(a):
    from workshop.pipeline import Job
    job = Job(a.profile, a.arch)
    job.prepare()
    for name, (kdir, initrd) in job.prepared.items():
        print('%s: %s (kernel %s)' % (name, initrd, kdir))


def cmd_boot(a):
    from workshop import qemu
    arch = conf.arch(a.arch)
    b = conf.merged(conf.profiles()['boot'], {
        'mode': a.mode, 'args': kv(a.arg), 'cmdline': a.cmdline or '', 'test_pmu': a.test_pmu})
    for k in ('smp', 'mem', 'icount', 'timeout'):
        if getattr(a, k) is not None:
            b[k] = getattr(a, k)
    kdir = a.kernel or conf.kernel_out(a.arch, 'debug')
    initrd = a.initramfs or conf.initramfs(a.arch, 'base')
    logs = a.logs or conf.logs('boot', a.arch)
    if a.script:
        from workshop import initramfs
        initrd = initramfs.overlay(initrd, {'guest/modes/%s.sh' % a.mode: a.script},
                                   os.path.join(logs, 'initramfs.cpio.gz'))
    st = qemu.boot(arch, os.path.join(kdir, arch.image), initrd, logs, b, console=a.console)
    print(open(os.path.join(logs, 'guest.log'), errors='replace').read(), end='')
    return st


def cmd_judge(a):
    from workshop.judge import check, stress
    from workshop.judge.result import Report
    from workshop.judge.splats import Decoder
    arch = conf.arch(a.arch)
    dec = Decoder(a.vmlinux, conf.src(), arch.cross_compile) if a.vmlinux else None
    figures = {}
    if a.kind == 'check':
        res = check.judge(a.logdir, a.arch, a.expect or os.path.join(
            conf.CONFIG, 'expect', a.arch + '.txt'), decoder=dec)
    else:
        res, figures = stress.judge(a.logdir, a.arch, decoder=dec, base=a.base)
    rep = Report(a.kind, a.arch, 'kernel', res, figures=figures)
    rep.write(a.logdir)
    print(open(os.path.join(a.logdir, 'result.txt')).read(), end='')
    return 1 if rep.counts()['failed'] else 0


def cmd_run(a):
    from workshop import pipeline
    profs = conf.profiles()['profile']
    if a.profile not in profs:
        raise SystemExit('unknown profile %r (%s)' % (a.profile, ', '.join(profs)))
    archs = a.arch or profs[a.profile].get('archs', ['host'])[:1]
    bad = 0
    for arch in archs:
        rep = pipeline.run_job(a.profile, arch, kv(a.set), console=a.console)
        bad |= rep.counts()['failed'] > 0
    return 1 if bad else 0


def cmd_suite(a):
    from workshop import schedule
    opts = {}
    for k, v in kv(a.set).items():
        prof, _, key = k.partition('.')
        opts.setdefault(prof, {})[key] = v
    return 0 if schedule.run(a.name, a.arch, opts, a.allow_unpinned) else 1


def cmd_merge(a):
    from workshop.judge.result import merge
    text, ok = merge(a.files)
    print(text, end='' if text.endswith('\n') else '\n')
    return 0 if ok else 1


def cmd_list(a):
    d = conf.profiles()
    for n, p in d['profile'].items():
        print('%-14s %-16s %s' % (n, ','.join(p.get('archs', [])), p['judge']))
    for n, s in d.get('suite', {}).items():
        print('suite %-8s %s' % (n, ' '.join(s['jobs'])))


def cmd_clean(a):
    """Every build output; the kernel trees too with --all."""
    for d in os.listdir(conf.BUILD) if os.path.isdir(conf.BUILD) else []:
        if d != 'src' or a.all:
            p = os.path.join(conf.BUILD, d)
            shutil.rmtree(p) if os.path.isdir(p) else os.unlink(p)


def parser():
    ap = argparse.ArgumentParser(prog='ws', description=__doc__)
    sub = ap.add_subparsers(dest='cmd', required=True)
    s = sub.add_parser('deps', help='install Debian packages (root)')
    s.add_argument('groups', nargs='*')
    s = sub.add_parser('tree', help='build/src/linux: the base + patches/series')
    s.add_argument('--force', action='store_true', help='throw away unexported work')
    s.add_argument('--as-is', action='store_true', help='use a tree with unexported work as it is')
    s = sub.add_parser('export', help='build/src/linux base..HEAD into patches/')
    s.add_argument('--force', action='store_true')
    s = sub.add_parser('build', help='a kernel: ARCH FLAVOUR')
    s.add_argument('arch')
    s.add_argument('flavour')
    s.add_argument('--commit', default='series')
    s = sub.add_parser('tools', help='perf and the kselftests for ARCH')
    s.add_argument('arch')
    s = sub.add_parser('initramfs', help="everything a profile's boots need, built")
    s.add_argument('arch')
    s.add_argument('profile')
    s = sub.add_parser('boot', help='one boot under QEMU')
    s.add_argument('arch')
    s.add_argument('mode')
    s.add_argument('--kernel', help='a kernel build directory (default: the debug kernel)')
    s.add_argument('--initramfs')
    s.add_argument('--arg', action='append', help='perfctx.KEY=VALUE for the guest')
    s.add_argument('--test-pmu', default='std')
    s.add_argument('--cmdline')
    s.add_argument('--smp', type=int)
    s.add_argument('--mem')
    s.add_argument('--icount', choices=['off', 'on', 'auto'])
    s.add_argument('--timeout', type=int)
    s.add_argument('--logs')
    s.add_argument('--console', action='store_true')
    s.add_argument('--script', help='a shell script of your own, run as the guest mode MODE')
    s = sub.add_parser('judge', help='judge the logs of a boot')
    s.add_argument('kind', choices=['check', 'stress'])
    s.add_argument('logdir')
    s.add_argument('--arch', required=True)
    s.add_argument('--expect')
    s.add_argument('--vmlinux')
    s.add_argument('--base', action='store_true')
    s = sub.add_parser('run', help='a profile of config/profiles.toml')
    s.add_argument('profile')
    s.add_argument('--arch', action='append')
    s.add_argument('--set', action='append', help="NAME=VALUE, one of the profile's options")
    s.add_argument('--console', action='store_true')
    s = sub.add_parser('suite', help='a suite of profiles, scheduled, then merged')
    s.add_argument('name')
    s.add_argument('--arch', action='append')
    s.add_argument('--set', action='append', help='PROFILE.NAME=VALUE')
    s.add_argument('--allow-unpinned', action='store_true')
    s = sub.add_parser('merge', help='the summary of any set of result files')
    s.add_argument('files', nargs='*')
    sub.add_parser('list', help='the profiles and suites')
    s = sub.add_parser('clean', help='remove build outputs (--all: the trees too)')
    s.add_argument('--all', action='store_true')
    return ap


def main(argv=None):
    a = parser().parse_args(argv)
    rc = globals()['cmd_' + a.cmd](a)
    sys.exit(rc or 0)
