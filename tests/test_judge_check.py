"""The check judge on made-up logs: every case of the old
tests/harness/selftest.sh (each thing that must fail a run fails it, and
what must not, does not), and the rules of expect lists, kselftest and
perf test blocks one by one."""
import os
import tempfile
import unittest

from workshop.judge import check, expect

KTAP = '''[    1.000000] KTAP version 1
[    1.000001] 1..1
[    1.000002]     KTAP version 1
[    1.000003]     # Subtest: demo
[    1.000004]     1..1
[    1.000005]     ok 1 demo_case
[    1.000006] ok 1 demo'''
BENIGN = '''[    0.100000] KernelAddressSanitizer initialized (generic)
[    0.200000] RCU lockdep checking is enabled.'''
PERF_OK = '''=== BEGIN perftest 5 Demo test
  5: Demo test                                          :
--- start ---
---- end ----
Demo test: Ok

=== END perftest 5 rc=0'''
KS_OK = '''=== BEGIN kselftest perf_events/ok
1..1
ok 1 ok.a
=== END kselftest perf_events/ok rc=0'''
STATE = '=== STATE tainted=0\n=== STATE debug_locks=1'
KS61SKIP = '''=== BEGIN kselftest perf_events/demo
#  RUN           global.target ...
#      SKIP      needs the rewrite
#            OK  global.target
ok 1 # SKIP needs the rewrite
=== END kselftest perf_events/demo rc=0'''
KSTMO = '''=== BEGIN kselftest perf_events/demo
#  RUN           demo.slow ...
# slow: Test terminated by timeout
#          FAIL  demo.slow
not ok 1 demo.slow
=== END kselftest perf_events/demo rc=1'''
KSTMO_LIST = 'kselftest:perf_events/demo:demo.slow | timeout | slow host'
WARNING = KTAP + '''
[    2.000000] ------------[ cut here ]------------
[    2.000001] WARNING: CPU: 1 PID: 42 at kernel/events/core.c:1234 demo+0x10/0x20
[    2.000002] Call Trace:
[    2.000003]  <TASK>
[    2.000004] ---[ end trace 0000000000000000 ]---'''


def run(console, guest, expect_text='', state=STATE, raw_guest=False, kunit=True):
    """The results of one run in a temporary log directory; GUEST gets a
    passing kselftest block, the end-of-run state and GUEST-EXIT: 0."""
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, 'console.log'), 'w') as f:
            f.write(console + '\n')
        with open(os.path.join(d, 'guest.log'), 'w') as f:
            f.write(guest if raw_guest else
                    '%s\n%s\n%s\nGUEST-EXIT: 0\n' % (guest, KS_OK, state))
        e = os.path.join(d, 'expect.txt')
        with open(e, 'w') as f:
            f.write(expect_text + '\n')
        return check.judge(d, 'demo', e, kunit=kunit)


def failed(res):
    return [r.key for r in res if r.verdict == 'FAIL']


# name, must fail, console, guest[, expect list[, state]]: selftest.sh's cases
CASES = [
    ('clean', False, BENIGN + '\n' + KTAP, PERF_OK),
    ('warning', True, WARNING, PERF_OK),
    ('kasan', True, KTAP + '''
[    2.0] ==================================================================
[    2.1] BUG: KASAN: slab-use-after-free in perf_event_ctx_lock+0x1/0x2''', PERF_OK),
    ('lockdep', True, KTAP + '\n[    2.0] WARNING: possible circular locking dependency detected',
     PERF_OK),
    ('rcu-stall', True, KTAP + '\n[    9.0] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:',
     PERF_OK),
    ('hung-task', True, KTAP + '\n[    9.0] INFO: task perf:123 blocked for more than 240 seconds.',
     PERF_OK),
    ('oops', True, KTAP + '\n[    9.0] Unable to handle kernel NULL pointer dereference at '
     'virtual address 0', PERF_OK),
    ('kmemleak', True, KTAP + '\n[    9.0] unreferenced object 0xffff888100000000 (size 64):',
     PERF_OK),
    ('kunit-fail', True, KTAP.replace('ok 1 demo_case', 'not ok 1 demo_case'), PERF_OK),
    ('kunit-missing', True, BENIGN, PERF_OK),
    ('perftest-fail', True, KTAP, PERF_OK.replace('Demo test: Ok', 'Demo test: FAILED!')),
    ('perftest-colour-fail', True, KTAP,
     PERF_OK.replace('Demo test: Ok', 'Demo test:\x1b[31m FAILED!\n\x1b[m')),
    ('perftest-unlisted-skip', True, KTAP,
     PERF_OK.replace('Demo test: Ok', 'Demo test: Skip (no PMU)')),
    ('perftest-listed-skip', False, KTAP,
     PERF_OK.replace('Demo test: Ok', 'Demo test: Skip (no PMU)'),
     'perftest:Demo test | skip | no PMU here'),
    ('perftest-listed-but-passes', True, KTAP, PERF_OK, 'perftest:Demo test | skip | no PMU here'),
    ('perftest-no-result', True, KTAP, '=== BEGIN perftest 5 Demo test\n=== END perftest 5 rc=0'),
    ('perftest-unfinished', True, KTAP, '=== BEGIN perftest 5 Demo test\n  5: Demo test :'),
    ('kselftest-fail', True, KTAP, '''=== BEGIN kselftest perf_events/demo
ok 1 demo.a
not ok 2 demo.b
=== END kselftest perf_events/demo rc=1'''),
    ('kselftest-skip-unlisted', True, KTAP, '''=== BEGIN kselftest perf_events/demo
ok 1 demo.a # SKIP no hardware
=== END kselftest perf_events/demo rc=0'''),
    ('kselftest-61-skip-unlisted', True, KTAP, PERF_OK + '\n' + KS61SKIP),
    ('kselftest-61-skip-listed', False, KTAP, PERF_OK + '\n' + KS61SKIP,
     'kselftest:perf_events/demo:global.target | skip | demo'),
    ('kselftest-timeout-listed', False, KTAP, PERF_OK + '\n' + KSTMO, KSTMO_LIST),
    ('kselftest-timeout-unlisted', True, KTAP, PERF_OK + '\n' + KSTMO),
    ('kselftest-timeout-listed-passes', False, KTAP, PERF_OK + '''
=== BEGIN kselftest perf_events/demo
#  RUN           demo.slow ...
#            OK  demo.slow
ok 1 demo.slow
=== END kselftest perf_events/demo rc=0''', KSTMO_LIST),
    ('kselftest-timeout-listed-other-failure', True, KTAP, PERF_OK + '''
=== BEGIN kselftest perf_events/demo
#  RUN           demo.slow ...
# demo.c:10:slow:Expected 1 (1) == 2 (2)
#          FAIL  demo.slow
not ok 1 demo.slow
=== END kselftest perf_events/demo rc=1''', KSTMO_LIST),
    ('rcu-expedited-stall', True, KTAP + '\n[    9.0] rcu: INFO: rcu_preempt detected expedited '
     'stalls on CPUs/tasks: { 1-... }', PERF_OK),
    ('lockdep-non-static-key', True, KTAP + '\n[    9.0] INFO: trying to register non-static key.',
     PERF_OK),
    ('tainted-warning', True, KTAP, PERF_OK, '', '=== STATE tainted=512\n=== STATE debug_locks=1'),
    ('lockdep-off', True, KTAP, PERF_OK, '', '=== STATE tainted=0\n=== STATE debug_locks=0'),
    ('no-state', True, KTAP, PERF_OK, '', ''),
    ('kselftest-crashed-midway', True, KTAP, PERF_OK + '''
=== BEGIN kselftest perf_events/demo
1..5
ok 1 demo.a
=== END kselftest perf_events/demo rc=139'''),
    ('perftest-exit-status', True, KTAP, PERF_OK.replace('rc=0', 'rc=255')),
    ('perftest-core-missing', True, KTAP, PERF_OK + '\n=== MISSING perftest Renamed test'),
    ('perftest-core-missing-listed', False, KTAP, PERF_OK + '\n=== MISSING perftest Renamed test',
     "perftest:Renamed test | skip | not in this arch's perf"),
    ('no-perftest', True, KTAP, ''),
]


class SelftestCases(unittest.TestCase):
    def test_cases(self):
        for name, must_fail, console, guest, *more in CASES:
            with self.subTest(name):
                res = run(console, guest, *more)
                self.assertEqual(bool(failed(res)), must_fail, [r.line('demo', 'check') for r in res])

    def test_guest_died(self):
        res = run(KTAP, '', raw_guest=True)
        self.assertIn('guest:exit', failed(res))
        self.assertIn('guest:kselftests', failed(res))
        self.assertIn('kernel:state', failed(res))

    def test_clean_counts(self):
        res = run(BENIGN + '\n' + KTAP, PERF_OK)
        self.assertEqual(sorted(r.key for r in res), [
            'kselftest:perf_events/ok:ok.a', 'kunit:demo.demo_case', 'perftest:Demo test'])
        self.assertTrue(all(r.verdict == 'PASS' for r in res))


class Keys(unittest.TestCase):
    """What each failure is called, and why."""

    def one(self, res, key):
        r = [x for x in res if x.key == key]
        self.assertEqual(len(r), 1, [x.key for x in res])
        return r[0]

    def test_warning_title_and_detail(self):
        res = run(WARNING, PERF_OK)
        r = self.one(res, 'kernel:WARNING: CPU: 1 PID: 42 at kernel/events/core.c:1234 demo+0x10/0x20')
        self.assertIn('Call Trace:', r.detail)
        self.assertEqual(r.verdict, 'FAIL')

    def test_decoder_is_used(self):
        with tempfile.TemporaryDirectory() as d:
            for n, t in (('console.log', WARNING), ('guest.log', PERF_OK + '\n' + KS_OK + '\n' +
                                                    STATE + '\nGUEST-EXIT: 0')):
                with open(os.path.join(d, n), 'w') as f:
                    f.write(t + '\n')
            res = check.judge(d, 'demo', None, decoder=lambda tr: 'DECODED %d' % len(tr))
        self.assertEqual([r.detail for r in res if r.key.startswith('kernel:')], ['DECODED 5'])

    def test_kernel_keys_never_excused(self):
        res = run(WARNING, PERF_OK, 'kernel:* | any | no\nguest:* | any | no', state='')
        self.assertIn('kernel:state', failed(res))
        self.assertTrue(any(k.startswith('kernel:WARNING') for k in failed(res)))

    def test_taint_bits(self):
        for t, bad in ((0, False), (1 << 18, False), (4096, False), (32, True), (128, True),
                       (512, True), (16384, True), (512 | 262144, True)):
            with self.subTest(t):
                res = run(KTAP, PERF_OK, state='=== STATE tainted=%d\n=== STATE debug_locks=1' % t)
                self.assertEqual('kernel:tainted' in failed(res), bad)

    def test_taint_empty_and_unreadable(self):
        res = run(KTAP, PERF_OK, state='=== STATE tainted=\n=== STATE debug_locks=1')
        self.assertEqual(failed(res), [])
        res = run(KTAP, PERF_OK, state='=== STATE tainted=x\n=== STATE debug_locks=1')
        self.assertEqual(failed(res), ['kernel:tainted'])

    def test_guest_exit_status(self):
        g = PERF_OK + '\n' + KS_OK + '\n' + STATE + '\nGUEST-EXIT: 0\nGUEST-EXIT: 3\n'
        res = run(KTAP, g, raw_guest=True)
        r = self.one(res, 'guest:exit')
        self.assertEqual((r.verdict, r.reason),
                         ('FAIL', 'fail, not listed in expect.txt: guest script exit status 3'))
        g = PERF_OK + '\n' + KS_OK + '\n' + STATE + '\nlast words\n'
        r = self.one(run(KTAP, g, raw_guest=True), 'guest:exit')
        self.assertIn('did not finish', r.reason)
        self.assertIn('last words', r.reason)

    def test_no_kunit(self):
        res = run(BENIGN, PERF_OK, kunit=False)
        self.assertEqual(failed(res), [])

    def test_missing_logs(self):
        with tempfile.TemporaryDirectory() as d:
            res = check.judge(d, 'demo', None)
        self.assertEqual(sorted(failed(res)), ['guest:exit', 'guest:kselftests', 'guest:perftests',
                                               'kernel:state', 'kunit:(boot)'])

    def test_judge_exit(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 'console.log'), 'w') as f:
                f.write(WARNING)
            with open(os.path.join(d, 'guest.log'), 'w') as f:
                f.write('GUEST-EXIT: 0\n')
            res = check.judge_exit(d)
        self.assertEqual([(r.key[:14], r.verdict) for r in res],
                         [('kernel:WARNING', 'FAIL'), ('guest:exit', 'PASS')])


class Expect(unittest.TestCase):
    def verdict(self, st, kind, key='perftest:X'):
        exp = [('perftest:*', kind, 'why')] if kind else []
        return expect.verdict(key, st, 'r', exp, 'x.txt')

    def test_rules(self):
        want = {
            ('PASS', None): 'PASS', ('FAIL', None): 'FAIL', ('SKIP', None): 'FAIL',
            ('TIMEOUT', None): 'FAIL',
            ('PASS', 'skip'): 'FAIL', ('PASS', 'fail'): 'FAIL', ('PASS', 'timeout'): 'PASS',
            ('PASS', 'any'): 'PASS',
            ('SKIP', 'skip'): 'SKIP', ('FAIL', 'skip'): 'FAIL', ('TIMEOUT', 'skip'): 'FAIL',
            ('FAIL', 'fail'): 'XFAIL', ('TIMEOUT', 'fail'): 'XFAIL', ('SKIP', 'fail'): 'FAIL',
            ('TIMEOUT', 'timeout'): 'XFAIL', ('FAIL', 'timeout'): 'FAIL',
            ('SKIP', 'timeout'): 'FAIL',
            ('FAIL', 'any'): 'XFAIL', ('SKIP', 'any'): 'SKIP', ('TIMEOUT', 'any'): 'XFAIL',
        }
        for (st, kind), v in want.items():
            with self.subTest(st=st, kind=kind):
                self.assertEqual(self.verdict(st, kind)[0], v)

    def test_reasons(self):
        self.assertEqual(self.verdict('PASS', 'skip')[1],
                         'listed as "skip" in x.txt but passes: take it off the list')
        self.assertEqual(self.verdict('SKIP', 'skip')[1], 'why')
        self.assertEqual(self.verdict('SKIP', None)[1], 'skip, not listed in x.txt: r')
        self.assertEqual(self.verdict('FAIL', 'skip')[1], 'failed, listed as "skip": r')
        self.assertEqual(self.verdict('TIMEOUT', 'skip')[1], 'timeout, not listed in x.txt: r')

    def test_first_match_wins_and_case(self):
        exp = [('perftest:A*', 'skip', 'one'), ('perftest:*', 'fail', 'two')]
        self.assertEqual(expect.entry('perftest:Ab', exp)[2], 'one')
        self.assertEqual(expect.entry('perftest:ab', exp)[2], 'two')
        self.assertIsNone(expect.entry('kernel:x', [('*', 'any', 'x')]))
        self.assertIsNone(expect.entry('guest:x', [('*', 'any', 'x')]))

    def test_load(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, 'e.txt')
            with open(p, 'w') as f:
                f.write('# comment\n\n a | skip | why \nb|timeout|slow\n')
            self.assertEqual(expect.load(p), [('a', 'skip', 'why'), ('b', 'timeout', 'slow')])
            self.assertEqual(expect.load(os.path.join(d, 'none.txt')), [])
            for bad in ('a | skip', 'a | maybe | why', 'a | skip | ', 'a | skip | b | c'):
                with open(p, 'w') as f:
                    f.write('# c\n' + bad + '\n')
                with self.subTest(bad), self.assertRaisesRegex(expect.ExpectError, r'e\.txt:2:'):
                    expect.load(p)

    def test_real_lists_load(self):
        top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        for arch in ('x86_64', 'arm64'):
            p = os.path.join(top, 'config', 'expect', arch + '.txt')
            if os.path.exists(p):
                self.assertTrue(expect.load(p))


if __name__ == '__main__':
    unittest.main()

