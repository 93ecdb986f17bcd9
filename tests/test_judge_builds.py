"""The build judges: the W=1/sparse message normalisation and comparison
(build-arches step w1), the steps' and build-each's results."""
import unittest

from workshop.judge import builds

BASE = '''  CC      kernel/events/core.o
/ws/build/src/wt-base/kernel/events/core.c:123:4: warning: no previous prototype for 'f' [-Wmissing-prototypes]
/ws/build/src/wt-base/kernel/events/core.c:200:1: warning: no previous prototype for 'g' [-Wmissing-prototypes]
/ws/build/src/wt-base/kernel/events/ring_buffer.c:50: warning: Function parameter 'x' not described
kernel/events/core.c:300:9: sparse: warning: context imbalance in 'h' - wrong count at exit
'''
SERIES = '''  CC      kernel/events/core.o
/ws/build/src/linux/kernel/events/core.c:130:4: warning: no previous prototype for 'f' [-Wmissing-prototypes]
/ws/build/src/linux/kernel/events/core.c:210:1: warning: no previous prototype for 'g' [-Wmissing-prototypes]
/ws/build/src/linux/kernel/events/core.c:220:1: warning: no previous prototype for 'g' [-Wmissing-prototypes]
/ws/build/src/linux/kernel/events/core.c:999:2: error: sparse: incompatible types
/ws/build/src/linux/arch/x86/include/asm/perf_event.h:5:3: warning: x
kernel/events/core.c:310:9: sparse: warning: context imbalance in 'h' - wrong count at exit
'''


class Warnings(unittest.TestCase):
    def test_normalised_sorted(self):
        self.assertEqual(builds.warnings(BASE), [
            "kernel/events/core.c: sparse: warning: context imbalance in 'h' - wrong count at exit",
            "kernel/events/core.c: warning: no previous prototype for 'f' [-Wmissing-prototypes]",
            "kernel/events/core.c: warning: no previous prototype for 'g' [-Wmissing-prototypes]",
            "kernel/events/ring_buffer.c: warning: Function parameter 'x' not described"])

    def test_last_tree_directory_wins(self):
        """sed's greedy match: up to the last /kernel/, /include/ or /arch/."""
        self.assertEqual(builds.warnings('/a/arch/x86/include/asm/x.h:1:2: warning: w\n'),
                         ['include/asm/x.h: warning: w'])
        self.assertEqual(builds.warnings('x.c:1:2: warning: at :3: here\n'),
                         ['x.c: warning: at : here'])

    def test_only_messages(self):
        self.assertEqual(builds.warnings('  CC x.o\nwarning without colon\nld: error: x\n'),
                         ['ld: error: x'])

    def test_new_messages_multiset(self):
        new = builds.new_messages(BASE, SERIES, [])
        self.assertEqual(new, [
            'include/asm/perf_event.h: warning: x',
            'kernel/events/core.c: error: sparse: incompatible types',
            "kernel/events/core.c: warning: no previous prototype for 'g' [-Wmissing-prototypes]"])

    def test_known_lines(self):
        known = builds.known('# why\n\n  # indented comment\n'
                             'kernel/events/core.c: error: sparse: incompatible types\n')
        self.assertEqual(known, ['kernel/events/core.c: error: sparse: incompatible types'])
        new = builds.new_messages(BASE, SERIES, known)
        self.assertEqual(len(new), 2)
        self.assertEqual(builds.new_messages(BASE, SERIES, [' include/asm/perf_event.h: warning: x']),
                         builds.new_messages(BASE, SERIES, []))

    def test_w1_result(self):
        r = builds.w1(BASE, SERIES, [])
        self.assertEqual((r.key, r.verdict), ('build-arches:w1', 'FAIL'))
        self.assertEqual(r.reason, 'base: 4 messages, series: 6; 3 new')
        self.assertIn('include/asm/perf_event.h: warning: x', r.detail)
        r = builds.w1(BASE, BASE, [])
        self.assertEqual(r.verdict, 'PASS')
        self.assertIn('no new W=1 or sparse message', r.reason)
        self.assertEqual(builds.w1(SERIES + BASE, BASE, []).verdict, 'PASS')


class Steps(unittest.TestCase):
    def test_step(self):
        r = builds.step('arm64', True, 61.7, 'log')
        self.assertEqual((r.key, r.verdict, r.reason, r.detail), ('build-arches:arm64', 'PASS',
                                                                  '61 s', ''))
        log = '\n'.join('line %d' % i for i in range(40))
        r = builds.step('s390', False, 5, log, 'build/logs/build-arches/s390.log')
        self.assertEqual(r.verdict, 'FAIL')
        self.assertEqual(r.reason, '5 s, build/logs/build-arches/s390.log')
        self.assertEqual(r.detail.splitlines(), ['line %d' % i for i in range(15, 40)])

    def test_each(self):
        r = builds.each(3, 16, 'perf: a patch', True, 12, '')
        self.assertEqual((r.key, r.verdict, r.reason), ('build-each:03/16 perf: a patch', 'PASS',
                                                        '12 s'))
        log = '\n'.join(['cc x'] * 10 + ['core.c:1: error: boom'] * 25 + ['make: *** Error 2'] +
                        ['tail %d' % i for i in range(5)])
        r = builds.each(9, 16, 'perf: broken', False, 30, log, 'build/logs/build-each/09.log')
        self.assertEqual(r.verdict, 'FAIL')
        self.assertEqual(r.reason, 'it does not build (build/logs/build-each/09.log)')
        lines = r.detail.splitlines()
        self.assertEqual(lines[:20], ['core.c:1: error: boom'] * 20)
        self.assertEqual(lines[20:], ['tail %d' % i for i in range(5)])


if __name__ == '__main__':
    unittest.main()


KTAP_OK = """[    1.0] KTAP version 1
[    1.0] 1..1
[    1.0]     KTAP version 1
[    1.0]     # Subtest: perf_core_contexts
[    1.0]     1..2
[    1.1]     ok 1 perf_core_a
[    1.2]     ok 2 perf_core_b # SKIP needs two CPUs
[    1.3] ok 1 perf_core_contexts
"""


class KunitEach(unittest.TestCase):
    def test_pass(self):
        r = builds.kunit_each(3, 40, 'subj', KTAP_OK, 0)
        self.assertEqual((r.key, r.verdict, r.reason),
                         ('kunit-each:03/40 subj', 'PASS', '1 cases passed, 1 skipped'))

    def test_failed_case(self):
        r = builds.kunit_each(3, 40, 'subj', KTAP_OK.replace('ok 1 perf_core_a', 'not ok 1 perf_core_a'), 0)
        self.assertEqual(r.verdict, 'FAIL')
        self.assertIn('perf_core_a', r.reason)

    def test_splat(self):
        r = builds.kunit_each(3, 40, 'subj', KTAP_OK + '[    2.0] WARNING: CPU: 0 PID: 1 at kernel/events/core.c:1 f+0x1/0x2\n', 0)
        self.assertEqual(r.verdict, 'FAIL')
        self.assertIn('splat: WARNING', r.reason)

    def test_guest_status(self):
        r = builds.kunit_each(3, 40, 'subj', KTAP_OK, 125)
        self.assertEqual((r.verdict, r.reason), ('FAIL', 'the guest ended with status 125'))

    def test_no_ktap(self):
        r = builds.kunit_each(3, 40, 'subj', 'booting\n', 0)
        self.assertEqual(r.verdict, 'FAIL')
