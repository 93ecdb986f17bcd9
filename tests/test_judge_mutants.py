"""The mutants judge: what each boot failed, and the verdict (a mutant
must fail something, the unbroken kernel nothing)."""
import os
import tempfile
import unittest

from workshop.judge import mutants

CLEAN_CONSOLE = '''[    1.0]     KTAP version 1
[    1.1]     # Subtest: perf_core
[    1.2]     1..2
[    1.3]     ok 1 perf_core_rotation
[    1.4]     ok 2 perf_core_groups
[    1.5] ok 1 perf_core
'''
CLEAN_GUEST = '''=== BEGIN kselftest perf_events/mux
ok 1 global.mux_fairness
=== END kselftest perf_events/mux rc=0
perf stat multiplexing on the test PMU: Ok
GUEST-EXIT: 0
'''


def boot(d, n, console=CLEAN_CONSOLE, guest=CLEAN_GUEST):
    path = os.path.join(d, 'mutant-%d' % n)
    os.makedirs(path)
    for name, text in (('console.log', console), ('guest.log', guest)):
        if text is not None:
            with open(os.path.join(path, name), 'w') as f:
                f.write(text)
    return path


class Failures(unittest.TestCase):
    def test_clean(self):
        self.assertEqual(mutants.failures(CLEAN_CONSOLE, CLEAN_GUEST), [])

    def test_kunit(self):
        c = CLEAN_CONSOLE.replace('    ok 1 perf_core_rotation', '    not ok 1 perf_core_rotation')
        self.assertEqual(mutants.failures(c, CLEAN_GUEST), ['kunit:perf_core_rotation'])
        # only perf_core_* cases, indented: not other suites, not the suite line
        c = CLEAN_CONSOLE + '[ 2.0]     not ok 1 hw_breakpoint_test\n[ 2.1] not ok 1 perf_core_x\n'
        self.assertEqual(mutants.failures(c, CLEAN_GUEST), [])

    def test_kselftest(self):
        g = CLEAN_GUEST.replace('ok 1 global.mux_fairness', 'not ok 1 global.mux_fairness')
        self.assertEqual(mutants.failures(CLEAN_CONSOLE, g), ['kselftest:global.mux_fairness'])
        g = CLEAN_GUEST + '# not ok 2 nested\n  not ok 3 indented\n'
        self.assertEqual(mutants.failures(CLEAN_CONSOLE, g), [])

    def test_perf_stat(self):
        g = CLEAN_GUEST.replace(': Ok', ': FAILED!')
        self.assertEqual(mutants.failures(CLEAN_CONSOLE, g),
                         ['perftest:perf stat multiplexing on the test PMU: FAILED!'])

    def test_died(self):
        self.assertEqual(mutants.failures(CLEAN_CONSOLE, CLEAN_GUEST.replace('GUEST-EXIT: 0', '')),
                         ['guest:died'])
        self.assertEqual(mutants.failures(CLEAN_CONSOLE, ''), ['guest:died'])

    def test_first_splat_only(self):
        c = CLEAN_CONSOLE + ('[    3.0] WARNING: possible circular locking dependency detected\n'
                             '[    3.1] BUG: KASAN: use-after-free\n')
        self.assertEqual(mutants.failures(c, CLEAN_GUEST),
                         ['splat:WARNING: possible circular locking dependency detected'])
        for line in ('[ 1.0] Oops: 0000', '[ 1.0] [  T12] BUG: sleeping', '[ 1.0] x KASAN: y'):
            with self.subTest(line):
                self.assertEqual(len(mutants.failures(line + '\n', CLEAN_GUEST)), 1)

    def test_sorted_distinct(self):
        g = CLEAN_GUEST + 'not ok 5 b\nnot ok 6 a\nnot ok 7 a\n'
        self.assertEqual(mutants.failures(CLEAN_CONSOLE, g), ['kselftest:a', 'kselftest:b'])


class Judge(unittest.TestCase):
    def test_verdicts(self):
        with tempfile.TemporaryDirectory() as d:
            bad = CLEAN_CONSOLE.replace('    ok 2 perf_core_groups', '    not ok 2 perf_core_groups')
            boots = {0: boot(d, 0), 1: boot(d, 1, console=bad), 2: boot(d, 2),
                     3: boot(d, 3, guest=None)}
            names = {1: 'no rotation', 2: 'groups not all-or-nothing', 3: 'x'}
            res = mutants.judge(boots, names)
        self.assertEqual([(r.key, r.result, r.verdict, r.reason) for r in res], [
            ('mutant:0 unbroken', 'PASS', 'PASS', 'failed: nothing'),
            ('mutant:1 no rotation', 'FAIL', 'PASS', 'failed: kunit:perf_core_groups'),
            ('mutant:2 groups not all-or-nothing', 'PASS', 'FAIL', 'failed: nothing'),
            ('mutant:3 x', 'FAIL', 'PASS', 'failed: guest:died')])

    def test_unbroken_that_fails(self):
        with tempfile.TemporaryDirectory() as d:
            res = mutants.judge({0: boot(d, 0, guest='')}, {})
        self.assertEqual((res[0].verdict, res[0].reason), ('FAIL', 'failed: guest:died'))


if __name__ == '__main__':
    unittest.main()
