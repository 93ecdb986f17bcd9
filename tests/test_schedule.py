"""The suite's lanes (workshop/schedule.py): builds in order, guests as
their builds are ready, at most `guests` at a time, an `alone` job by
itself, idle work beside them."""
import threading
import time
import unittest

from workshop import schedule


class FakeJob:
    def __init__(self, name, lane='guest', alone=False, build=0.0, run=0.05, log=None):
        self.name, self.lane, self.arch_name = name, lane, 'x'
        self.p = {'alone': alone}
        self.boots = [1] if build is not None else []
        self.build, self.runtime, self.log = build, run, log

    def prepare(self):
        time.sleep(self.build)

    def execute(self):
        self.log.append(('start', self.name, time.time()))
        time.sleep(self.runtime)
        self.log.append(('end', self.name, time.time()))
        return self.name


def run(jobs, guests):
    lanes = schedule.Lanes(jobs)
    ts = [threading.Thread(target=lanes.build),
          threading.Thread(target=lanes.lane, args=('guest', guests)),
          threading.Thread(target=lanes.lane, args=('idle',))]
    for t in ts:
        t.start()
    for t in ts:
        t.join(30)
    return lanes


def spans(log):
    s = {}
    for what, name, t in log:
        s.setdefault(name, [0, 0])[what == 'end'] = t
    return s


def overlap(a, b):
    return a[0] < b[1] and b[0] < a[1]


class Lanes(unittest.TestCase):
    def test_two_guests_side_by_side_then_the_lone_one(self):
        log = []
        jobs = [FakeJob('a', log=log), FakeJob('b', log=log),
                FakeJob('s', alone=True, log=log), FakeJob('i', lane='idle', log=log)]
        lanes = run(jobs, 2)
        s = spans(log)
        self.assertTrue(overlap(s['a'], s['b']))
        self.assertFalse(overlap(s['s'], s['a']) or overlap(s['s'], s['b']))
        self.assertEqual(sorted(lanes.reports.values()), ['a', 'b', 'i', 's'])

    def test_one_at_a_time(self):
        log = []
        run([FakeJob('a', log=log), FakeJob('b', log=log)], 1)
        s = spans(log)
        self.assertFalse(overlap(s['a'], s['b']))

    def test_a_ready_job_goes_before_one_still_building(self):
        log = []
        jobs = [FakeJob('slow', log=log), FakeJob('quick', log=log)]
        lanes = schedule.Lanes(jobs)
        lanes.ready[id(jobs[1])].set()          # quick's builds are done first
        t = threading.Thread(target=lanes.lane, args=('guest', 1))
        t.start()
        time.sleep(0.2)
        lanes.ready[id(jobs[0])].set()
        with lanes.wake:
            lanes.wake.notify_all()
        t.join(10)
        self.assertEqual([n for w, n, _ in log if w == 'start'], ['quick', 'slow'])

    def test_a_failed_build_fails_its_job_only(self):
        log = []
        bad = FakeJob('bad', log=log)
        bad.prepare = lambda: (_ for _ in ()).throw(SystemExit('ERROR: no compiler'))
        bad.failed = lambda what, err: 'failed %s: %s' % (what, err)
        lanes = run([bad, FakeJob('good', log=log)], 2)
        self.assertIn('failed build: ERROR: no compiler', lanes.reports.values())
        self.assertIn('good', lanes.reports.values())
