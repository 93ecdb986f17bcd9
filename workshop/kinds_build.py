"""The profiles that build: every patch in turn (build-each; with `kunit`
each build also booted for the KUnit suites of the perf core), and the
builds beyond the test configs (build-arches: defconfigs, KVM, the other
arches' perf objects, kernel/events/ with W=1 and sparse against the
base)."""
import glob
import os
import subprocess
import time

from workshop import build, conf, qemu, tree
from workshop.judge import builds
from workshop.judge.result import Result
from workshop.kinds import Kind
from workshop.proc import say


def attempt(fn, log):
    """FN() with its output in LOG: (ok, seconds)."""
    t0 = time.time()
    open(log, 'w').close()
    try:
        fn()
        ok = True
    except SystemExit as e:
        with open(log, 'a') as f:
            f.write('%s\n' % e)
        ok = False
    return ok, round(time.time() - t0)


def tail(log, n=25):
    with open(log, errors='replace') as f:
        return ''.join(f.readlines()[-n:])


class BuildEach(Kind):
    """Each commit of base..HEAD (options first, last: patches N to M)
    checked out in build/src/wt-each and built incrementally with the test
    config; stops at the first that breaks.
    With the option kunit=1 each kernel is booted too (the profile's boot
    settings) and its KUnit suites must pass."""

    def boots(self, job):
        return []       # its own boots, one per patch (kunit=1)

    def kunit(self, job, n, total, subj, wt, o, initrd, log):
        """Boot the kernel in O: a Result for patch N."""
        if not os.path.exists(os.path.join(wt, 'kernel/events/core_test.c')):
            return Result('kunit-each:%02d/%02d %s' % (n, total, subj), 'SKIP', 'SKIP',
                          'no KUnit suite of the perf core before this patch')
        st = qemu.boot(job.arch, os.path.join(o, job.arch.image), initrd, log,
                       job.boot_settings({'name': 'each'}))
        with open(os.path.join(log, 'console.log'), errors='replace') as f:
            return builds.kunit_each(n, total, subj, f.read(), st)

    def standalone(self, job):
        src = conf.src()
        a = job.arch
        wt = tree.worktree(tree.git(src, 'rev-parse', 'base'), 'each')
        commits = tree.git(src, 'rev-list', '--reverse', 'base..HEAD').split()
        # Options the series adds (the test PMU, the KUnit suite) are not
        # checked before the patch that adds them.
        diff = tree.git(src, 'diff', 'base..HEAD', '--', '*Kconfig*')
        absent = ['CONFIG_' + ln[len('+config '):].strip() for ln in diff.splitlines()
                  if ln.startswith('+config ')]
        o = conf.kernel_out(a.name, job.p['kernel'], 'each')
        frags = build.fragments(job.p['kernel'], a.name)
        res = []
        first = int(job.options.get('first', '1'))
        last = int(job.options.get('last', '0')) or len(commits)
        if not 1 <= first <= last <= len(commits):
            raise SystemExit('build-each: no patches %d to %d in a series of %d'
                             % (first, last, len(commits)))
        initrd = None
        if job.options.get('kunit') == '1':
            initrd = job.guest(src, o, 'series')
        if first > 1:
            # start from the patch before FIRST, built (its result not counted)
            tree.git(wt, 'checkout', '-q', '--detach', commits[first - 2])
            build.kernel(wt, o, a, frags, absent, log=os.path.join(job.logs, 'start.log'))
        for i, c in enumerate(commits, 1):
            if i < first or i > last:
                continue
            subj = tree.git(src, 'log', '-1', '--format=%s', c)
            tree.git(wt, 'checkout', '-q', '--detach', c)
            if 'Kconfig' in tree.git(src, 'diff-tree', '--no-commit-id', '--name-only', '-r', c):
                stamp = os.path.join(o, '.fragments.sha')
                if os.path.exists(stamp):
                    os.unlink(stamp)
            log = os.path.join(job.logs, '%02d.log' % i)
            with job.stages('build %02d' % i):
                ok, secs = attempt(lambda: build.kernel(wt, o, a, frags, absent, log=log), log)
            key = 'build-each:%02d/%02d %s' % (i, len(commits), subj)
            say('%s %s (%d s)' % ('PASS' if ok else 'FAIL', key, secs))
            res.append(Result(key, 'PASS' if ok else 'FAIL', 'PASS' if ok else 'FAIL',
                              '%d s' % secs if ok else 'does not build: %s' % log,
                              '' if ok else tail(log)))
            if not ok:
                break
            if initrd:
                with job.stages('boot %02d' % i):
                    r = self.kunit(job, i, len(commits), subj, wt, o, initrd,
                                   os.path.join(job.logs, 'kunit-%02d' % i))
                say('%s %s' % (r.result, r.key))
                res.append(r)
        return job.write(res)


def out_dir(step, commit='series'):
    fl = 'defconfig' if step['name'] == step['arch'] else step['name']
    return conf.kernel_out(step['arch'], fl, commit)


def step_build(step, src, o, log):
    a = conf.arch(step['arch'])
    if not os.path.exists(os.path.join(o, '.config')):
        build.kmake(src, o, a, step['defconfig'], log=log)
        if step.get('enable'):
            args = []
            for opt in step['enable']:
                args += ['-e', opt]
            subprocess.run([os.path.join(src, 'scripts/config'), '--file',
                            os.path.join(o, '.config')] + args, check=True)
            build.kmake(src, o, a, 'olddefconfig', log=log)
    if step.get('prepare'):
        build.kmake(src, o, a, 'prepare', log=log)
    if step.get('against_base'):
        for f in glob.glob(os.path.join(o, 'kernel/events/*.o')):
            os.unlink(f)
    build.kmake(src, o, a, *(step.get('make_args', []) + step.get('targets', [])), log=log)


class BuildArches(Kind):
    def standalone(self, job):
        want = job.options['steps'].split()
        steps = {s['name']: s for s in job.p['steps']}
        res = []
        for name in want:
            if name not in steps:
                raise SystemExit('no build-arches step %r (%s)' % (name, ', '.join(steps)))
            s = steps[name]
            log = os.path.join(job.logs, name + '.log')
            say('build-arches: ' + name)
            with job.stages('build-arches ' + name):
                if s.get('against_base'):
                    ok, secs, why = self.against_base(job, s, log)
                else:
                    ok, secs = attempt(lambda: step_build(s, conf.src(), out_dir(s), log), log)
                    why = ''
            say('%s %s (%d s)' % ('PASS' if ok else 'FAIL', name, secs))
            res.append(Result('build-arches:' + name, 'PASS' if ok else 'FAIL',
                              'PASS' if ok else 'FAIL', why or '%d s' % secs,
                              '' if ok else tail(log)))
        return job.write(res)

    def against_base(self, job, s, log):
        """Build with the step's flags on the base and on the series: a
        message the base does not have fails, unless
        config/sparse-known.txt lists it."""
        texts = {}
        secs = 0
        for commit in ('base', 'series'):
            src = conf.src() if commit == 'series' else tree.worktree(tree.commit_of('base'))
            lg = os.path.join(job.logs, '%s-%s.out' % (s['name'], commit))
            ok, t = attempt(lambda: step_build(s, src, out_dir(s, commit), lg), lg)
            secs += t
            if not ok:
                return False, secs, 'the %s build failed: %s' % (commit, lg)
            with open(lg, errors='replace') as f:
                texts[commit] = f.read()
        with open(os.path.join(conf.CONFIG, 'sparse-known.txt')) as f:
            known = f.read()
        new = builds.new_messages(texts['base'], texts['series'],
                                  builds.known(known))
        with open(log, 'w') as f:
            f.write('\n'.join(new) + '\n')
        return not new, secs, '%d new messages' % len(new) if new else \
            'no new W=1 or sparse message'
