"""The stress judge: the module load/unload rules and the read-tearing bound."""
import os
import tempfile
import unittest
from workshop.judge import stress, stress_rules

from tests.test_judge_stress import COUNTS, STATE, guest_log, judge, verdicts, failed  # noqa: F401


class Module(unittest.TestCase):
    def check(self, counts, want, **kw):
        res, _ = judge(counts=counts, **kw)
        self.assertEqual(failed(res), want)
        return {r.key: r for r in res}

    def test_refused_required(self):
        r = self.check({'module_rmmod_refused_with_events': '0'}, ['module:rmmod-with-events'])
        self.assertEqual(r['module:rmmod-with-events'].reason,
                         '0 rmmod refused with events open, 0 succeeded')

    def test_ok_with_events(self):
        self.check({'module_rmmod_ok_with_events': '1'}, ['module:rmmod-with-events'])

    def test_refcnt_short(self):
        r = self.check({'module_refcnt_short': '1'}, ['module:rmmod-with-events'])
        self.assertIn('1 with the count below', r['module:rmmod-with-events'].reason)

    def test_unjudged_and_skipped_checks_pass(self):
        r = self.check({'module_rmmod_unjudged': '2', 'module_rmmod_check_skipped': '3'}, [])
        self.assertEqual(r['module:rmmod-with-events'].reason,
                         '1 rmmod refused with events open, 0 succeeded, 2 not judged, '
                         '3 checks not made (guest.log says why)')

    def test_busy(self):
        self.check({'module_busy': '1'}, ['module:released'])

    def test_insmod_failed(self):
        self.check({'module_insmod_failed': '1'}, ['module:insmod'])

    def test_no_reloads(self):
        self.check({'module_reloads': '0'}, ['stressor:module load/unload'])

    def test_builtin_or_absent(self):
        r = self.check({'module_state': 'builtin-or-absent', 'module_rmmod_refused_with_events': '0'},
                       ['stressor:module load/unload'])
        self.assertNotIn('module:released', r)

    def test_base_without_test_pmus(self):
        zero = {'module_reloads': '0', 'module_rmmod_refused_with_events': '0',
                'module_state': 'builtin-or-absent'}
        g = guest_log(counts=zero).replace('test_pmu=1', 'test_pmu=0')
        res, _ = judge(guest=g, base=True)
        self.assertEqual(failed(res), [])
        self.assertIn('skipped', [r for r in res if r.key == 'stressor:module load/unload'][0].reason)
        # Only on the base: the series with no test PMUs fails.
        res, _ = judge(guest=g, base=False)
        self.assertEqual(failed(res), ['stressor:module load/unload'])
        # The base with test PMUs: the module rules hold.
        res, _ = judge(guest=guest_log(counts=zero), base=True)
        self.assertEqual(failed(res), ['stressor:module load/unload'])
        # A base that did not say: the module rules hold.
        res, _ = judge(guest=g.replace('=== STATE test_pmu=0\n', ''), base=True)
        self.assertEqual(failed(res), ['stressor:module load/unload'])


class Reads(unittest.TestCase):
    def test_torn_bound(self):
        # (torn, opened, fails): more than 3, and more than 1 per 100 opened
        for torn, opened, bad in ((3, 0, False), (4, 400, False), (4, 399, True),
                                  (5, 1000, False), (11, 1000, True), (10, 1000, False),
                                  (4, 0, True)):
            for mode in ('openclose', 'inherit'):
                with self.subTest(torn=torn, opened=opened, mode=mode):
                    res, _ = judge(counts={'storm_%s_torn' % mode: str(torn),
                                           'storm_%s_opened' % mode: str(opened)})
                    want = ['perfstorm:%s:reads' % mode] if bad else []
                    if opened == 0:
                        want = sorted(want + ['stressor:' + ('open/close storm' if mode ==
                                                             'openclose' else 'inherit storm')])
                    self.assertEqual(failed(res), want)

    def test_bad_reads(self):
        for mode in ('openclose', 'inherit'):
            res, _ = judge(counts={'storm_%s_bad' % mode: '1'})
            self.assertEqual(failed(res), ['perfstorm:%s:reads' % mode])

    def test_reasons(self):
        res, _ = judge(counts={'storm_openclose_bad': '2', 'storm_openclose_torn': '9',
                               'storm_openclose_opened': '100'})
        r = [x for x in res if x.key == 'perfstorm:openclose:reads'][0]
        self.assertEqual(r.reason, '2 reads with running > enabled that re-reads did not put '
                         'right, or of a bad shape, or opens that had to fail; 9 torn time '
                         'pairs for 100 events opened '
                         '(over 1%)')

    def test_unreadable_number_is_zero(self):
        self.assertEqual(stress_rules.intval({'x': 'abc'}, 'x'), 0)
        self.assertEqual(stress_rules.intval({'x': ''}, 'x'), 0)
        self.assertEqual(stress_rules.intval({}, 'x'), 0)


if __name__ == '__main__':
    unittest.main()
