"""A suite (config/profiles.toml [suite.NAME]): several profile x arch
jobs on one machine, then their result files merged.

Three lanes, each a thread:
  build   every job's builds, in the suite's order, one at a time, at
          SCHED_IDLE: they take only the CPU time the guests leave;
  guest   the timing-sensitive boots (lane "guest"), the suite's `guests`
          at a time (a job marked `alone` by itself), each as soon as its
          builds are done, in the suite's order among the ready;
  idle    the rest (-icount boots, whose guest time is instructions, and
          host work such as checkpatch), at SCHED_IDLE beside the guests.
"""
import os
import threading
import time

from workshop import conf, deps, tree
from workshop.judge.result import Report, Result, merge
from workshop.pipeline import Job
from workshop.proc import Stages, say


def idle_thread():
    """This thread, and what it starts, at SCHED_IDLE."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (OSError, AttributeError):
        pass


def jobs_of(name, archs=None, options=None):
    suites = conf.profiles().get('suite', {})
    if name not in suites:
        raise SystemExit('unknown suite %r (%s)' % (name, ', '.join(suites)))
    out = []
    for spec in suites[name]['jobs']:
        prof, _, arch = spec.partition(':')
        arch = arch or 'host'
        if archs and arch != 'host' and arch not in archs:
            continue
        out.append(Job(prof, arch, (options or {}).get(prof)))
    return out


class Lanes:
    def __init__(self, jobs):
        self.jobs = jobs
        self.ready = {id(j): threading.Event() for j in jobs}
        self.errors = {}
        self.reports = {}
        self.wake = threading.Condition()
        for j in jobs:
            if not j.boots:
                self.ready[id(j)].set()

    def build(self):
        idle_thread()
        for j in self.jobs:
            if not j.boots:
                continue
            try:
                j.prepare()
            except BaseException as e:      # a failed build fails its job only
                self.errors[id(j)] = e
                say('%s %s: build failed: %s' % (j.name, j.arch_name, e))
            self.ready[id(j)].set()
            with self.wake:
                self.wake.notify_all()

    def lane(self, which, capacity=1):
        """Run the jobs of lane WHICH as their builds become ready, in the
        suite's order among the ready, at most CAPACITY at a time; a job
        marked `alone` only with no other beside it.  A ready job that does
        not fit yet holds back the ones after it."""
        if which == 'idle':
            idle_thread()
        todo = [j for j in self.jobs if j.lane == which]
        running = []
        while todo or running:
            with self.wake:
                running = [(t, j) for t, j in running if id(j) not in self.reports]
                if not todo and not running:
                    break
                pick = None
                for j in todo:
                    if not self.ready[id(j)].is_set():
                        continue
                    alone = any(r.p.get('alone') for _, r in running)
                    if len(running) < capacity and not alone and \
                            not (j.p.get('alone') and running):
                        pick = j
                    break
                if pick is None:
                    self.wake.wait(5)
                    continue
                todo.remove(pick)
                t = threading.Thread(target=self.finish, args=(pick,), name=pick.name)
                running.append((t, pick))
                t.start()

    def finish(self, j):
        if j.lane == 'idle':
            idle_thread()
        rep = self.run(j)
        with self.wake:
            self.reports[id(j)] = rep
            self.wake.notify_all()

    def run(self, j):
        if id(j) in self.errors:
            return j.failed('build', self.errors[id(j)])
        try:
            return j.execute() if j.boots else j.standalone()
        except BaseException as e:
            say('%s %s: %s' % (j.name, j.arch_name, e))
            return j.failed('run', e)


def prologue(jobs, stages, allow_unpinned):
    """Packages, the tree; a Report of its own when the base is unpinned."""
    groups = []
    for j in jobs:
        groups += [g for g in j.p.get('deps', []) if g not in groups]
    with stages('deps'):
        deps.install(groups)
    with stages('tree'):
        tree.sync(as_is=True)
    unpinned = os.path.join(conf.BUILD, 'BASE-UNPINNED')
    if os.path.exists(unpinned) and not allow_unpinned:
        with open(unpinned) as f:
            v = f.read().strip()
        rep = Report('base', 'host', 'kernel', [Result(
            'base:pinned', 'FAIL', 'FAIL', 'the archive serves linux-source-6.1 %s, '
            'config/base.pin pins another (--allow-unpinned to test anyway)' % v)])
        rep.write(conf.logs('base', 'host'))
        return [os.path.join(conf.logs('base', 'host'), 'result.json')]
    return []


def run(name, archs=None, options=None, allow_unpinned=False):
    t0 = time.time()
    stages = Stages()
    jobs = jobs_of(name, archs, options)
    for j in jobs:      # a job that does not get to write one is a failure
        if os.path.exists(os.path.join(j.logs, 'result.json')):
            os.unlink(os.path.join(j.logs, 'result.json'))
    extra = prologue(jobs, stages, allow_unpinned)
    lanes = Lanes(jobs)
    guests = conf.profiles()['suite'][name].get('guests', 1)
    threads = [threading.Thread(target=lanes.build, name='build'),
               threading.Thread(target=lanes.lane, args=('guest', guests), name='guest'),
               threading.Thread(target=lanes.lane, args=('idle',), name='idle')]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for t in threading.enumerate():     # the lanes' job threads
        if t is not threading.current_thread():
            t.join()
    table = ['stages (start after the suite began, seconds):']
    items = [('suite', s) for s in stages.items]
    for j in jobs:
        items += [('%s:%s' % (j.name, j.arch_name), s) for s in j.stages.items]
    for who, (what, secs, start) in sorted(items, key=lambda x: x[1][2]):
        table.append('  %6.0f %6.0f  %-24s %s' % (start - t0, secs, who, what))
    table.append('%s took %.0f s' % (name, time.time() - t0))
    paths = extra + [os.path.join(j.logs, 'result.json') for j in jobs]
    text, ok = merge(paths)
    out = '\n'.join(table) + '\n' + text
    with open(os.path.join(conf.BUILD, 'logs', 'suite-%s.txt' % name), 'w') as f:
        f.write(out)
    print(out, end='' if out.endswith('\n') else '\n')
    return ok
