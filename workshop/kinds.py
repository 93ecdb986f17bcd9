"""What is particular to each judge of config/profiles.toml: the boots a
profile makes, what it adds to a boot, how its logs are judged.  The
pipeline (workshop/pipeline.py) does the rest the same way for all."""
import hashlib
import os
import random
import re
import time

from workshop import conf
from workshop.judge import check, splats, stress
from workshop.judge.result import Result
from workshop.proc import say


class Kind:
    keep_previous = False       # move the last run's logs to PROFILE/ARCH.prev
    console = False             # show the kernel log as it boots

    def boots(self, job):
        return [job.boot_settings({'name': job.name})]

    def prepare(self, job):
        pass

    def before_boot(self, job, b, kdir, logs):
        """(more perfctx.* arguments, more QEMU arguments) for boot B."""
        return {}, []

    def poller(self, job, b, logs):
        """At the first splat in the kernel log the guest gets `grace` s to
        stop on its own (it stops at a taint or when lockdep turns off, and
        still scans kmemleak); then QEMU is stopped.  Only for a boot with
        poll = "splats"."""
        seen = {}
        grace = int(b.get('grace', 600))

        def poll(console):
            if 'at' not in seen:
                with open(console, errors='replace') as f:
                    t = splats.titles(f.read())
                if t:
                    seen['at'] = time.time()
                    say('splat in the kernel log: %s (the guest has %d s to stop)' % (t[0], grace))
                    with open(os.path.join(logs, 'host-stop'), 'w') as f:
                        f.write(t[0] + '\n')
                return False
            return time.time() - seen['at'] >= grace
        return poll if b.get('poll') == 'splats' else None

    def judge(self, job, statuses):
        raise NotImplementedError

    def standalone(self, job):
        """The whole run of a profile that boots nothing."""
        raise NotImplementedError


def kdir_of(job, name=None):
    return job.prepared[name or job.boots[0]['name']][0]


class Check(Kind):
    """One boot judged against the expect list; a profile with `boots`
    may add boots that are only recorded (`record = true`, e.g. the plain
    base on the same guest): their results become figures "BOOT KEY",
    and only whether the guest ran to its end counts."""

    def boots(self, job):
        return [job.boot_settings(dict(over)) for over in job.p.get('boots', [{'name': job.name}])]

    def judge(self, job, statuses):
        from workshop.pipeline import decoder
        results, figures = [], {}
        for b in job.boots:
            logs = job.logs if len(job.boots) == 1 else os.path.join(job.logs, b['name'])
            kdir = job.prepared[b['name']][0]
            res = check.judge(logs, job.arch_name,
                              os.path.join(conf.CONFIG, 'expect', job.p.get('expect', job.arch_name) + '.txt'),
                              decoder=decoder(job, kdir, b.get('commit')))
            for what, got in check.routes(logs):
                figures['route ' + what] = ('%s | ' % figures['route ' + what]
                                            if 'route ' + what in figures else '') + \
                    '%s: %s' % (b['name'], got)
            if not b.get('record'):
                results += res
                continue
            st = statuses[b['name']]
            results.append(Result('%s:ran' % b['name'], 'PASS' if st not in (124, 125) else 'FAIL',
                                  'PASS' if st not in (124, 125) else 'FAIL',
                                  'recorded, not judged: figures "%s ..."' % b['name']))
            for r in res:
                figures['%s %s' % (b['name'], r.key)] = r.result + (' (%s)' % r.reason if r.reason else '')
        return results, figures


class Exit(Kind):
    """make run: the guest's exit status is the verdict; guest.log the show."""

    def judge(self, job, statuses):
        st = statuses[job.boots[0]['name']]
        if job.verbose:
            with open(os.path.join(job.logs, 'guest.log'), errors='replace') as f:
                print(f.read())
        return [Result('guest:exit', 'PASS' if st == 0 else 'FAIL',
                       'PASS' if st == 0 else 'FAIL', 'status %d' % st)], {}


class Stress(Kind):
    keep_previous = True

    def boots(self, job):
        o = job.options
        b = job.boot_settings({'name': job.name})
        b['timeout'] = int(o['duration']) + int(b.pop('timeout_after', 1500))
        seed = o['seed'] or str(random.SystemRandom().randrange(1, 2 ** 32))
        o['seed'] = seed
        b['args'] = {'duration': o['duration'], 'seed': seed, 'modphase': o['modphase']}
        return [b]

    def before_boot(self, job, b, kdir, logs):
        extra = {}
        if conf.profiles()['payload'][job.p['payload']].get('module'):
            m = job.profiles['stress_module']
            extra = {'module': m['name'], 'modparams': m['params']}
        with open(os.path.join(logs, 'seed'), 'w') as f:
            f.write(job.options['seed'] + '\n')
        with open(os.path.join(kdir, '.config')) as f, \
                open(os.path.join(logs, 'kernel.config'), 'w') as g:
            g.write(f.read())
        from workshop.pipeline import describe, tree_of
        src = tree_of(job.p.get('commit', 'series'))[0]
        with open(os.path.join(logs, 'repro.txt'), 'w') as f:
            f.write('kernel: %s (%s)\n' % (describe(src), src))
            f.write('again:  ./ws run %s --arch %s --set seed=%s --set duration=%s%s\n'
                    % (job.name, job.arch_name, job.options['seed'], job.options['duration'],
                       ' --set modphase=' + job.options['modphase'] if job.options['modphase'] else ''))
            f.write("(trinity's seeds are in guest.log, '=== STATE trinity_seed.N='; the\n"
                    " stressors run side by side, so a seed does not replay a run exactly)\n")
        say('stress: %s for %s s (seed %s, hard timeout %s s)'
            % (job.arch_name, job.options['duration'], job.options['seed'], b['timeout']))
        return extra, []


    def judge(self, job, statuses):
        from workshop.pipeline import decoder
        st = statuses[job.boots[0]['name']]
        hs = os.path.join(job.logs, 'host-stop')
        with open(os.path.join(job.logs, 'guest.log'), errors='replace') as f:
            ended = re.search(r'^GUEST-EXIT:', f.read(), re.M)
        if os.path.exists(hs) and ended and st != 125:
            os.unlink(hs)       # the guest ended by itself
        return stress.judge(job.logs, job.arch_name, decoder=decoder(job, kdir_of(job)),
                            base=job.p.get('commit') == 'base')


class Selftest(Kind):
    """The harness's own tests: tests/ (unittest) and shellcheck."""

    def standalone(self, job):
        from workshop import selftest
        with job.stages('selftest'):
            results = selftest.run()
        return job.write(results)


class Checkpatch(Kind):
    def standalone(self, job):
        from workshop.judge import checkpatch
        from workshop.tree import series
        res = []
        from workshop.judge import kerneldoc
        with job.stages('checkpatch'):
            for p in series(conf.PATCHES):
                res.append(checkpatch.run(conf.src(), os.path.join(conf.PATCHES, p),
                                          os.path.join(conf.CONFIG, 'checkpatch-exceptions.txt')))
        with job.stages('kernel-doc'):
            res.append(kerneldoc.run(conf.src()))
        from workshop.judge import anchors
        res.append(anchors.check(conf.src()))
        return job.write(res)


def mutants_tree():
    """build/src/wt-mutants: the series' HEAD with workshop/mutants.py
    applied (workshop/mutants_apply.py), committed (a commit of its own); made again when either
    changes, so that its build stays incremental otherwise."""
    from workshop import mutants, mutants_apply, tree
    src = conf.src()
    head = tree.git(src, 'rev-parse', 'HEAD')
    digest = hashlib.sha256()
    for m in (mutants, mutants_apply):
        with open(m.__file__, 'rb') as f:
            digest.update(f.read())
    key = head + ' ' + digest.hexdigest()
    wt = conf.src('mutants')
    st = os.path.join(conf.BUILD, 'src', 'mutants.stamp')
    if os.path.exists(st) and open(st).read().strip() == key and os.path.isdir(wt):
        return wt
    wt = tree.worktree(head, 'mutants')
    mutants_apply.apply(wt)
    tree.git(wt, 'commit', '-q', '-a', '-m', 'mutants (workshop/mutants.py)')
    with open(st, 'w') as f:
        f.write(key + '\n')
    return wt


class Mutants(Kind):
    def boots(self, job):
        from workshop import mutants
        names = mutants.names()
        want = job.options['mutants'].split() or [str(n) for n in names]
        out = []
        for n in want:
            if int(n) not in names:
                raise SystemExit('no mutant %s (workshop/mutants.py)' % n)
            out.append(job.boot_settings({'name': n, 'cmdline': 'perf_mutant=%s' % n}))
        return out

    def judge(self, job, statuses):
        from workshop import mutants
        from workshop.judge import mutants as mj
        return mj.judge({int(b['name']): os.path.join(job.logs, b['name']) for b in job.boots},
                        mutants.names()), {}


def _more():
    from workshop import kinds_bench, kinds_build
    return {'bench': kinds_bench.Bench(), 'profile': kinds_bench.Profile(),
            'build-each': kinds_build.BuildEach(), 'build-arches': kinds_build.BuildArches()}


KINDS = {'check': Check(), 'exit': Exit(), 'stress': Stress(), 'selftest': Selftest(),
         'checkpatch': Checkpatch(), 'mutants': Mutants()}
KINDS.update(_more())
