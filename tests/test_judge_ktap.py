"""Our KTAP parser (KUnit at boot) against what the kernel tree's
`kunit.py parse` gives for the same logs: each case's expected results were
taken from kunit.py (tools/testing/kunit of 6.1), except the missing part
of a test whose plan promised more (kunit.py counts each missing subtest as
a crashed test with no name, keyed 'kunit:SUITE.'; here one FAIL keyed
kunit:SUITE, or kunit:(boot) at the top level)."""
import os
import unittest

from workshop.judge import ktap

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures', 'judge')


def stamp(text, caller=False):
    """TEXT as the kernel logs it: timestamps, optionally caller ids."""
    return ''.join('[%5d.%06d] %s%s\n' % (1, i, '[    T1] ' if caller else '', line)
                   for i, line in enumerate(text.strip('\n').split('\n')))


# name, KTAP as printed (without timestamps), [(key, status)]
CASES = [
    ('plain', '''KTAP version 1
1..2
    KTAP version 1
    # Subtest: s1
    1..2
    ok 1 a
    not ok 2 b
ok 1 s1
    KTAP version 1
    # Subtest: s2
    1..1
    ok 1 c # SKIP no hw
ok 2 s2 # SKIP''',
     [('kunit:s1.a', 'PASS'), ('kunit:s1.b', 'FAIL'), ('kunit:s2.c', 'SKIP')]),
    ('tap14', '''TAP version 14
1..1
    # Subtest: s1
    1..1
    ok 1 - a
ok 1 - s1''',
     [('kunit:s1.a', 'PASS')]),
    ('params', '''KTAP version 1
1..1
    KTAP version 1
    # Subtest: s1
    1..2
        KTAP version 1
        # Subtest: pcase
        ok 1 p0
        not ok 2 p1
    # pcase: pass:1 fail:1 skip:0 total:2
    not ok 1 pcase
    ok 2 plain
# s1: pass:1 fail:1 skip:0 total:2
not ok 1 s1''',
     [('kunit:s1.pcase.p0', 'PASS'), ('kunit:s1.pcase.p1', 'FAIL'), ('kunit:s1.plain', 'PASS')]),
    ('crash mid suite', '''KTAP version 1
1..2
    KTAP version 1
    # Subtest: s1
    1..3
    ok 1 a
BUG: kernel NULL pointer dereference, address: 0000000000000000
Oops: 0000 [#1] PREEMPT SMP
Call Trace:
 <TASK>
Kernel panic - not syncing: Fatal exception''',
     [('kunit:s1.a', 'PASS'), ('kunit:s1', 'FAIL'), ('kunit:(boot)', 'FAIL')]),
    ('crash after last case', '''KTAP version 1
1..2
    KTAP version 1
    # Subtest: s1
    1..1
    ok 1 a
Oops''',
     [('kunit:s1.a', 'PASS'), ('kunit:(boot)', 'FAIL')]),
    ('suite init failed', '''KTAP version 1
1..2
    # failed to initialize (-12)
not ok 1 s0
    KTAP version 1
    # Subtest: s1
    1..1
    ok 1 a
ok 1 s1''',
     [('kunit:s0', 'FAIL'), ('kunit:s1.a', 'PASS')]),
    ('empty suite', '''KTAP version 1
1..1
    KTAP version 1
    # Subtest: s1
    1..0
ok 1 s1''',
     [('kunit:s1', 'FAIL')]),
    ('diagnostics and other kernel lines', '''KTAP version 1
1..1
    KTAP version 1
    # Subtest: s1
    1..2
    # a: EXPECTATION FAILED at lib/x.c:10
    Expected x == y, but
random: crng init done
    not ok 1 a
perf: interrupt took too long (2500 > 2500)
    ok 2 b
# s1: pass:1 fail:1 skip:0 total:2
# Totals: pass:1 fail:1 skip:0 total:2
not ok 1 s1''',
     [('kunit:s1.a', 'FAIL'), ('kunit:s1.b', 'PASS')]),
    ('trailing lines after the plan', '''KTAP version 1
1..1
    KTAP version 1
    # Subtest: s1
    1..1
    ok 1 a
ok 1 s1
ok 5 unrelated''',
     [('kunit:s1.a', 'PASS')]),
    ('end marker', '''KTAP version 1
1..2
    KTAP version 1
    # Subtest: s1
    1..1
    ok 1 a
ok 1 s1
reboot: System halted
    KTAP version 1''',
     [('kunit:s1.a', 'PASS'), ('kunit:(boot)', 'FAIL')]),
    ('no plan at top', '''KTAP version 1
    KTAP version 1
    # Subtest: s1
    1..1
    ok 1 a
ok 1 s1''',
     [('kunit:s1.a', 'PASS')]),
    ('header without ktap line', '''KTAP version 1
1..1
    # Subtest: s1
    1..1
    ok 1 a
ok 1 s1''',
     [('kunit:s1.a', 'PASS')]),
    ('all cases skipped', '''KTAP version 1
1..1
    KTAP version 1
    # Subtest: s1
    1..2
    ok 1 a # SKIP x
    ok 2 b # SKIP y
ok 1 s1 # SKIP''',
     [('kunit:s1.a', 'SKIP'), ('kunit:s1.b', 'SKIP')]),
    ('ktap with no tests', '''KTAP version 1
1..0''',
     [('kunit:(boot)', 'FAIL')]),
    ('missing suites at top', '''KTAP version 1
1..3
    KTAP version 1
    # Subtest: s1
    1..1
    ok 1 a
ok 1 s1''',
     [('kunit:s1.a', 'PASS'), ('kunit:(boot)', 'FAIL')]),
    ('param crash', '''KTAP version 1
1..1
    KTAP version 1
    # Subtest: s1
    1..2
        KTAP version 1
        # Subtest: pcase
        ok 1 p0
Oops''',
     [('kunit:s1.pcase.p0', 'PASS'), ('kunit:s1', 'FAIL')]),
]


class KunitParse(unittest.TestCase):
    def test_cases(self):
        for name, text, want in CASES:
            for caller in (False, True):
                with self.subTest(name, caller=caller):
                    got = [(k, s) for k, s, _ in ktap.results(stamp(text, caller))]
                    self.assertEqual(got, want)

    def test_no_timestamps(self):
        got = ktap.results(CASES[0][1])
        self.assertEqual([(k, s) for k, s, _ in got], CASES[0][2])

    def test_no_ktap(self):
        self.assertEqual(ktap.results(stamp('Linux version 6.1\nok 1 x')),
                         [('kunit:(boot)', 'FAIL', 'no KTAP output in the kernel log')])
        self.assertEqual(ktap.results(''),
                         [('kunit:(boot)', 'FAIL', 'no KTAP output in the kernel log')])

    def test_no_cases(self):
        self.assertEqual(ktap.results(stamp('KTAP version 1\n1..0')),
                         [('kunit:(boot)', 'FAIL', 'KTAP output had no test cases')])

    def test_missing_reasons(self):
        got = ktap.results(stamp(dict((c[0], c[1]) for c in CASES)['crash mid suite']))
        self.assertEqual(got[1:], [('kunit:s1', 'FAIL', 'planned 3, 1 reported (crashed?)'),
                                   ('kunit:(boot)', 'FAIL', 'planned 2, 1 reported (crashed?)')])

    def test_start_mid_line(self):
        """kunit.py finds the KTAP version line anywhere in a line."""
        text = '[    1.0] random prefix KTAP version 1\n' + stamp('1..1\n    # Subtest: s\n'
                                                             '    1..1\n    ok 1 a\nok 1 s')
        self.assertEqual([(k, s) for k, s, _ in ktap.results(text)], [('kunit:s.a', 'PASS')])

    def test_extract_strips(self):
        lines = ktap.extract('noise\n[    0.5] KTAP version 1\n[    0.6] [    T1]     ok 1 a\n')
        self.assertEqual(lines, ['KTAP version 1', '    ok 1 a'])


if __name__ == '__main__':
    unittest.main()
