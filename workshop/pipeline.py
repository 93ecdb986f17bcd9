"""A profile x arch end to end: prepare (the builds it needs, each made
once per run), execute (its boots), judge (one result file).  The
profile's data is config/profiles.toml; what is particular to a judge
(arguments it adds to a boot, how it reads the logs) is in
workshop/kinds.py."""
import datetime
import os
import re
import shutil

from workshop import build, conf, initramfs, kinds, qemu, tree
from workshop.judge.result import Report, Result, summary_line
from workshop.proc import Stages, die, run, say

MEMO = {}       # builds made in this run: {key: result}


def memo(key, fn, stages, name):
    """FN() once per run for KEY; the first caller's stages time it."""
    if key not in MEMO:
        with stages(name):
            MEMO[key] = fn()
    return MEMO[key]


def tree_of(commit):
    """(work tree, tag for the build directory) of a profile's `commit`."""
    if commit == 'series':
        return conf.src(), 'series'
    if commit == 'mutants':
        return kinds.mutants_tree(), 'mutants'
    if commit == 'mainline':
        from workshop import pins
        return pins.mainline(), 'mainline'
    wt = tree.worktree(tree.commit_of(commit))
    return wt, 'series' if wt == conf.src() else commit


class Job:
    """One profile on one arch."""

    def __init__(self, profile, arch_name, options=None):
        profs = conf.profiles()
        self.profiles = profs
        self.p = profs['profile'][profile]
        self.name = profile
        self.arch_name = arch_name
        self.arch = conf.arch(arch_name) if arch_name != 'host' else None
        self.options = dict(self.p.get('options', {}))
        for k, v in (options or {}).items():
            if k not in self.options:
                die('profile %s takes no option %r (it takes: %s)'
                    % (profile, k, ', '.join(self.options) or 'none'))
            self.options[k] = v
        self.lane = self.p.get('lane', 'guest')
        self.stages = Stages()
        self.logs = conf.logs(profile, arch_name)
        self.kind = kinds.KINDS[self.p['judge']]
        self.boots = self.kind.boots(self) if self.p.get('payload') else []
        self.prepared = {}      # boot name -> (kernel dir, initramfs)
        self.console = False
        self.verbose = False        # print the run's own report (./ws run)
        self.started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')

    def boot_settings(self, over=None):
        b = conf.merged(self.profiles['boot'], {k: v for k, v in self.p.get('boot', {}).items()})
        b.pop('cmdline', None)
        b['cmdline'] = self.p.get('boot', {}).get('cmdline', '')
        return conf.merged(b, over or {})

    def kernel(self, commit, flavour, absent_ok=()):
        src, tag = tree_of(commit)
        o = conf.kernel_out(self.arch_name, flavour, tag)
        frags = build.fragments(flavour, self.arch_name, self.profiles)
        absent = list(self.p.get('absent_ok', [])) + list(absent_ok)
        memo(('kernel', o), lambda: build.kernel(src, o, self.arch, frags, absent),
             self.stages, 'build %s kernel %s' % (self.arch_name, os.path.relpath(o, conf.BUILD)))
        return src, o, tag

    def prepare(self):
        """The kernels, tools and initramfs images this job's boots need."""
        for b in self.boots:
            commit = b.get('commit', self.p.get('commit', 'series'))
            src, kdir, tag = self.kernel(commit, b.get('kernel', self.p['kernel']),
                                         b.get('absent_ok', ()))
            self.prepared[b['name']] = (kdir, self.guest(src, kdir, tag))
            if b.get('dtb') and self.arch_name in conf.load_toml('dtb.toml')[b['dtb']]['archs']:
                b['dtb_path'] = self.dtb(b)
        self.kind.prepare(self)

    def dtb(self, b):
        """The device tree of boot B: [NAME] of config/dtb.toml applied
        to QEMU's own tree for the boot's machine, -smp (and sockets) and -m."""
        from workshop import dtb
        name, a = b['dtb'], self.arch
        m = qemu.machine(a, b)
        out = os.path.join(conf.BUILD, a.name, 'dtb', '%s-%s-smp%s-%s.dtb' % (
            name, m.replace(',', '_').replace('=', '-'),
            qemu.smp(b).replace(',', '_').replace('=', '-'), b.get('mem', '2G')))
        return memo(('dtb', out), lambda: dtb.make(a, m, b, name, conf.load_toml('dtb.toml')[name], out),
                    self.stages, 'device tree %s' % os.path.relpath(out, conf.BUILD))

    def guest(self, src, kdir, tag):
        a, name = self.arch, self.p['payload']
        pl = self.profiles['payload'][name]
        root = memo(('tools', a.name), lambda: build.tools(conf.src(), a),
                    self.stages, 'build %s perf and kselftests' % a.name)
        progs = memo(('programs', a.name, tuple(pl.get('programs', []))),
                     lambda: build.programs(a, pl.get('programs', [])),
                     self.stages, 'build %s guest programs' % a.name)
        mod = None
        if pl.get('module'):
            m = self.profiles['stress_module']['name']
            mod = (m, memo(('module', kdir), lambda: build.module(src, kdir, a, m),
                           self.stages, 'build %s test PMU module' % a.name))
        debs = []
        if pl.get('debs'):
            debs = conf.load_toml('deps.toml')['guest'][pl['debs']] + list(a.stress_debs)
        # Without a module the image does not depend on the kernel.
        out = conf.initramfs(a.name, name, tag if mod else 'series')
        return memo(('initramfs', out),
                    lambda: initramfs.make(a, out, root, debs, progs, mod),
                    self.stages, 'initramfs %s' % os.path.relpath(out, conf.BUILD))

    def execute(self):
        """Boot, judge, write the result file; returns the Report."""
        if os.path.isdir(self.logs) and self.kind.keep_previous:
            shutil.rmtree(self.logs + '.prev', ignore_errors=True)
            os.rename(self.logs, self.logs + '.prev')
        os.makedirs(self.logs, exist_ok=True)
        statuses = {}
        for b in self.boots:
            kdir, initrd = self.prepared[b['name']]
            logs = self.logs if len(self.boots) == 1 else os.path.join(self.logs, b['name'])
            extra, qextra = self.kind.before_boot(self, b, kdir, logs)
            with self.stages('boot %s %s%s' % (self.name, self.arch_name,
                                               '' if len(self.boots) == 1 else ' ' + b['name'])):
                statuses[b['name']] = qemu.boot(
                    self.arch, os.path.join(kdir, self.arch.image), initrd, logs, b,
                    extra, qextra, idle=self.lane == 'idle', console=self.console,
                    poll=self.kind.poller(self, b, logs))
        with self.stages('judge %s %s' % (self.name, self.arch_name)):
            results, figures = self.kind.judge(self, statuses)
        return self.write(results, figures)

    def standalone(self):
        """A job with no boot: its kind does the work, in its logs dir."""
        os.makedirs(self.logs, exist_ok=True)
        return self.kind.standalone(self)

    def write(self, results, figures=None):
        rep = Report(self.name, self.arch_name, self.p.get('kind', 'kernel'), results,
                     stages=[s[:2] for s in self.stages.items], figures=figures or {},
                     command=self.command(), started=self.started)
        rep.write(self.logs)
        return rep

    def command(self):
        opts = ''.join(' --set %s=%s' % (k, v) for k, v in self.options.items()
                       if v != self.p.get('options', {}).get(k))
        return './ws run %s --arch %s%s' % (self.name, self.arch_name, opts)

    def failed(self, what, err):
        """The result file of a job that could not run to its end."""
        os.makedirs(self.logs, exist_ok=True)
        return self.write([Result('harness:%s' % what, 'FAIL', 'FAIL', str(err))])


def decoder(job, kdir, commit=None):
    """Stack traces of JOB's kernel in KDIR, decoded with its own tree."""
    from workshop.judge.splats import Decoder
    src = tree_of(commit or job.p.get('commit', 'series'))[0]
    return Decoder(os.path.join(kdir, 'vmlinux'), src, job.arch.cross_compile)


def describe(src, rev='HEAD'):
    n = tree.git(src, 'rev-list', '--count', 'base..' + rev)
    d = tree.git(src, 'describe', '--always', '--tags', rev)
    return 'base + %s patches (%s), %s' % (n, d, tree.git(src, 'log', '-1', '--format=%s', rev))


def config_value(kdir, opt):
    with open(os.path.join(kdir, '.config')) as f:
        m = re.search(r'^%s=(.*)$' % re.escape(opt), f.read(), re.M)
    return m.group(1) if m else None


def host_tool(name):
    """workshop/NAME.c built as a shared object for QEMU (a TCG plugin)."""
    so = os.path.join(conf.BUILD, 'host', name + '.so')
    os.makedirs(os.path.dirname(so), exist_ok=True)
    run(['gcc', '-O2', '-Wall', '-shared', '-fPIC', '-o', so,
         os.path.join(conf.TOP, 'workshop', name + '.c')])
    return so


def run_job(profile, arch_name, options=None, console=False):
    """`./ws run PROFILE --arch ARCH`: prepare and execute in this thread."""
    from workshop import deps
    job = Job(profile, arch_name, options)
    job.console = console or job.kind.console
    job.verbose = True
    deps.install(job.p.get('deps', []))
    if job.p.get('kernel') or job.p['judge'] in ('checkpatch',):
        tree.sync(as_is=True)
    if job.boots:
        job.prepare()
    rep = job.execute() if job.boots else job.standalone()
    say('%s %s: %s (%s)' % (profile, arch_name, summary_line('', rep.counts()).lstrip(': '),
                            os.path.relpath(os.path.join(job.logs, 'result.txt'), conf.TOP)))
    return rep
