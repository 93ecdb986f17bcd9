"""The guest protocol's blocks, and the kselftest and perf test parsers."""
import unittest

from workshop.judge import guestlog, kselftest, perftest


class Sections(unittest.TestCase):
    def test_blocks(self):
        g = ('x\n=== BEGIN kselftest perf_events/a\nok 1 t\n=== END kselftest perf_events/a rc=0\n'
             'between\n=== BEGIN perftest 5 Demo\nDemo: Ok\n')
        self.assertEqual(guestlog.sections(g), [
            ('kselftest', 'perf_events/a', ['ok 1 t'], 0),
            ('perftest', '5 Demo', ['Demo: Ok'], None)])

    def test_marker_mid_line_and_colour(self):
        g = ('=== BEGIN perftest 5 Demo\nDemo:\x1b[31m FAILED!\x1b[m=== END perftest 5 rc=0\n')
        self.assertEqual(guestlog.sections(g), [('perftest', '5 Demo', ['Demo: FAILED!'], 0)])

    def test_begin_without_end(self):
        g = '=== BEGIN kmemleak boot\na\n=== BEGIN kmemleak end\nb\n=== END kmemleak end rc=0\n'
        self.assertEqual(guestlog.sections(g), [('kmemleak', 'boot', ['a'], None),
                                                ('kmemleak', 'end', ['b'], 0)])

    def test_end_without_rc(self):
        g = '=== BEGIN bench x\n=== END bench x\n'
        self.assertEqual(guestlog.sections(g), [('bench', 'x', [], None)])

    def test_state_and_exit(self):
        g = '=== STATE tainted=0\n=== STATE trinity_seed.1=5\n=== STATE tainted=512\nGUEST-EXIT: 0\n'
        self.assertEqual(guestlog.state(g), {'tainted': '512', 'trinity_seed.1': '5'})
        self.assertEqual(guestlog.exit_status(g), (True, 'guest script exit status 0'))
        self.assertEqual(guestlog.exit_status(g + 'GUEST-EXIT: 2\n')[0], False)
        self.assertEqual(guestlog.exit_status(' GUEST-EXIT: 0\n')[0], False)


def ks(body, rc=0, name='perf_events/demo'):
    return [(k.split(':', 2)[-1] if k.count(':') == 2 else k, s, r)
            for k, s, r in kselftest.results(name, body.splitlines(), rc)]


class Kselftest(unittest.TestCase):
    def test_statuses(self):
        got = ks('1..4\nok 1 a\nnot ok 2 b\nok 3 c # SKIP no hw\nnot ok 4 d # TODO later\n', 1)
        self.assertEqual(got, [('a', 'PASS', ''), ('b', 'FAIL', ''), ('c', 'SKIP', 'no hw'),
                               ('d', 'FAIL', 'later')])

    def test_xfail_is_not_a_skip(self):
        self.assertEqual(ks('ok 1 a # XFAIL known'), [('a', 'PASS', 'known')])

    def test_61_skip_named_by_run_line(self):
        got = ks('#  RUN           global.target ...\nok 1 # SKIP needs it\nok 2\n')
        self.assertEqual(got, [('global.target', 'SKIP', 'needs it'), ('(unnamed)', 'PASS', '')])

    def test_timeout(self):
        body = ('#  RUN           demo.slow ...\n# slow: Test terminated by timeout\n'
                'not ok 1 demo.slow\n#  RUN           demo.next ...\nnot ok 2 demo.next\n')
        self.assertEqual(ks(body, 1), [('demo.slow', 'TIMEOUT', ''), ('demo.next', 'FAIL', '')])

    def test_failure_says_its_assertions(self):
        body = ('#  RUN           global.a ...\n# t.c:9:a:Expected 1 (1) == 2 (2)\n'
                '# t.c:9:a:it was one\nnot ok 1 global.a\n'
                '#  RUN           global.b ...\n# t.c:20:b:said in passing\nok 2 global.b\n'
                '#  RUN           global.c ...\nnot ok 3 global.c\n'
                '#  RUN           global.d ...\n' + '# t.c:1:d:%s\n' % ('x' * 400) +
                'not ok 4 global.d\n')
        self.assertEqual(ks(body, 1), [
            ('global.a', 'FAIL', 't.c:9:a:Expected 1 (1) == 2 (2) / t.c:9:a:it was one'),
            ('global.b', 'PASS', ''), ('global.c', 'FAIL', ''),
            ('global.d', 'FAIL', 't.c:1:d:' + 'x' * 292)])

    def test_no_tests(self):
        for rc, st in ((0, 'PASS'), (4, 'SKIP'), (1, 'FAIL'), (124, 'FAIL')):
            with self.subTest(rc):
                self.assertEqual(ks('', rc), [('kselftest:perf_events/demo', st,
                                               'exit status %d' % rc)])


# The program's own FAILs (ks() leaves its key whole), beside its tests':
# test name, [(output, exit status or None when it did not finish, reasons)].
PROGRAM_FAILS = [
    ('did_not_finish', [('ok 1 a\n', None, ['did not finish'])]),
    ('killed', [('1..3\nok 1 a\n', 124, ['timed out'])]),
    ('plan', [('1..3\nok 1 a\nok 2 b\n', 0, ['planned 3 tests, 2 reported']),
              ('1..2\nok 1 a\nok 2 b\n', 0, [])]),
    ('plan_and_exit_status_fail_once', [('1..5\nok 1 a\n', 139, ['planned 5 tests, 1 reported'])]),
    ('exit_status', [('ok 1 a\n', 1, ['exit status 1']), ('ok 1 a\n', 4, []),
                     ('not ok 1 a\n', 1, [])]),
]


def program_test(checks):
    """A test that each check's output gives the program's own FAILs."""
    def test(self):
        for body, rc, reasons in checks:
            got = [r for r in ks(body, rc) if r[0].startswith('kselftest:')]
            self.assertEqual(got, [('kselftest:perf_events/demo', 'FAIL', x) for x in reasons],
                             (body, rc))
    return test


for _name, _checks in PROGRAM_FAILS:
    setattr(Kselftest, 'test_' + _name, program_test(_checks))


def pt(body, rc=0, name='5 Demo test'):
    return perftest.results(name, body.splitlines(), rc)


class Perftest(unittest.TestCase):
    def test_statuses(self):
        self.assertEqual(pt('Demo test: Ok\n'), [('perftest:Demo test', 'PASS', '')])
        self.assertEqual(pt('Demo test: Skip (no PMU)\n'),
                         [('perftest:Demo test', 'SKIP', 'no PMU')])
        got = pt('line a\nline b\nDemo test: FAILED!\n')
        self.assertEqual(got, [('perftest:Demo test', 'FAIL', 'line a | line b | Demo test: FAILED!')])

    def test_subtests(self):
        body = ('  5.1: First sub :\nDemo test subtest 1: Ok\n  5.2: Second :\n'
                'Demo test subtest 2: Skip\nDemo test subtest 3: Ok\n  15.4: other :\n')
        self.assertEqual(pt(body), [('perftest:Demo test/First sub', 'PASS', ''),
                                    ('perftest:Demo test/Second', 'SKIP', ''),
                                    ('perftest:Demo test/subtest 3', 'PASS', '')])

    def test_other_lines(self):
        self.assertEqual(pt('Demo test: something else\nDemo testing: Ok\n', 0),
                         [('perftest:Demo test', 'FAIL', 'no result line (exit status 0)')])

    def test_exit_statuses(self):
        self.assertEqual(pt('Demo test: Ok\n', 124)[-1], ('perftest:Demo test', 'FAIL', 'timed out'))
        self.assertEqual(pt('Demo test: Ok\n', None)[-1],
                         ('perftest:Demo test', 'FAIL', 'did not finish'))
        self.assertEqual(pt('Demo test: Ok\n', 255)[-1],
                         ('perftest:Demo test', 'FAIL', 'perf test exit status 255'))

    def test_failure_reason_is_bounded(self):
        body = '\n'.join('x' * 100 for _ in range(20)) + '\nDemo test: FAILED!\n'
        self.assertEqual(len(pt(body)[0][2]), 600)


if __name__ == '__main__':
    unittest.main()
