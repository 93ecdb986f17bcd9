"""Our KTAP parser (KUnit at boot) against what the kernel tree's
`kunit.py parse` gives for the same logs: the cases of
fixtures/judge/ktap-cases.toml, each with kunit.py's results (of 6.1's
tools/testing/kunit), except the missing part of a test whose plan
promised more (kunit.py counts each missing subtest as a crashed test with
no name, keyed 'kunit:SUITE.'; here one FAIL keyed kunit:SUITE, or
kunit:(boot) at the top level)."""
import os
import tomllib
import unittest

from workshop.judge import ktap

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures', 'judge')


def stamp(text, caller=False):
    """TEXT as the kernel logs it: timestamps, optionally caller ids."""
    return ''.join('[%5d.%06d] %s%s\n' % (1, i, '[    T1] ' if caller else '', line)
                   for i, line in enumerate(text.strip('\n').split('\n')))


def load_cases():
    """[(name, KTAP as printed (without timestamps), [(key, status)])]: the
    cases of fixtures/judge/ktap-cases.toml."""
    with open(os.path.join(FIX, 'ktap-cases.toml'), 'rb') as f:
        cases = tomllib.load(f)['case']
    return [(c['name'], c['ktap'], [tuple(kv) for kv in c['want']]) for c in cases]


CASES = load_cases()


class KunitParse(unittest.TestCase):
    def test_cases(self):
        self.assertTrue(CASES)
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

    def test_failure_reason(self):
        """A failed case says its first failed expectation; a passing
        neighbour's diagnostics are not taken for it."""
        text = stamp('KTAP version 1\n1..1\n    # Subtest: s\n    1..2\n'
                     '    # a: note\n    ok 1 a\n'
                     '    # b: EXPECTATION FAILED at kernel/events/core_test.c:927\n'
                     '    Expected v.count >= 45 * ((1000L * 1000L)), but\n'
                     '        v.count == 12\n'
                     '    # b: EXPECTATION FAILED at kernel/events/core_test.c:930\n'
                     '    not ok 2 b\nnot ok 1 s')
        self.assertEqual(ktap.results(text), [
            ('kunit:s.a', 'PASS', ''),
            ('kunit:s.b', 'FAIL', 'kernel/events/core_test.c:927: Expected v.count >= '
             '45 * ((1000L * 1000L)), but v.count == 12')])

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
