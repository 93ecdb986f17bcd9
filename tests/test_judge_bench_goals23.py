"""The bench report's issue-23 rows on made-up logs: its goals, and the
third kernel, mainline 6.12 (M), beside A and B."""
import unittest

from tests.test_judge_bench import make, row


class Goals23(unittest.TestCase):
    """Issue 23: every scenario <= 1.02; one PMU's or perf stat's context
    switch and the tick with frequency events <= 1.00; tick spreads < 2%."""
    A = {'pipe pmus=sw mode=self': [100, 100], 'pipe pmus=stat mode=inherit': [100, 100],
         'pipe pmus=sw,tp mode=self': [100, 100], 'open dev=0 pmu=sw': [100, 100],
         'tick mode=freq pmus=none': [100, 100], 'tick mode=count pmus=sw': [100, 103]}
    B = {'pipe pmus=sw mode=self': [101, 101], 'pipe pmus=stat mode=inherit': [99, 99],
         'pipe pmus=sw,tp mode=self': [101.5, 101.5], 'open dev=0 pmu=sw': [103, 103],
         'tick mode=freq pmus=none': [100.5, 100.5], 'tick mode=count pmus=sw': [100, 101]}

    def rows(self, name):
        return {g[1]: g[2:] for g in make(self.A, self.B)[2]['goals'] if g[0] == name}

    def test_every_scenario(self):
        g = self.rows('(23) <= 1.02')
        self.assertEqual(len(g), 6)
        self.assertEqual(g['pipe pmus=sw,tp mode=self'][1], 'yes')
        self.assertEqual(g['open dev=0 pmu=sw'][1], 'NO')

    def test_one_pmu_and_stat(self):
        g = self.rows('(23) one PMU or perf stat, context switch <= 1.00')
        self.assertEqual(sorted(g), ['pipe pmus=stat mode=inherit', 'pipe pmus=sw mode=self'])
        self.assertEqual(g['pipe pmus=sw mode=self'][1], 'NO')
        self.assertEqual(g['pipe pmus=stat mode=inherit'][1], 'yes')

    def test_tick(self):
        g = self.rows('(23) tick with frequency events <= 1.00')
        self.assertEqual(g, {'tick mode=freq pmus=none': [1.005, 'NO']})
        g = self.rows('(23) tick spread < 0.02')
        self.assertEqual(g['tick mode=freq pmus=none'][1], 'yes')
        self.assertAlmostEqual(g['tick mode=count pmus=sw'][0], 3 / 101.5)
        self.assertEqual(g['tick mode=count pmus=sw'][1], 'NO')


class Mainline(unittest.TestCase):
    """M (mainline 6.12) runs the scenarios without test PMUs: its rows sit
    beside B's, with the goal patched/M <= 1.00 over no events where the
    run has a no-event twin (pipe none; the tick's none=), else as it is."""
    A = {'pipe pmus=none mode=self': [100, 100], 'pipe pmus=sw mode=self': [200, 200],
         'pipe pmus=test_hw0 mode=self': [300, 300], 'open dev=0 pmus=sw': [400, 400],
         'tick mode=freq pmus=none': ([50, 50], {'none': ['40']})}
    B = {'pipe pmus=none mode=self': [100, 100], 'pipe pmus=sw mode=self': [190, 190],
         'pipe pmus=test_hw0 mode=self': [300, 300], 'open dev=0 pmus=sw': [410, 410],
         'tick mode=freq pmus=none': ([52, 52], {'none': ['40']})}
    M = {'pipe pmus=none mode=self': [80, 80], 'pipe pmus=sw mode=self': [180, 180],
         'open dev=0 pmus=sw': [400, 404], 'tick mode=freq pmus=none': ([45, 45], {'none': ['30']})}

    def test_rows_and_goal(self):
        text, res, j = make(self.A, self.B, m=self.M)
        self.assertEqual(res.verdict, 'PASS')
        self.assertIn('- M (mainline): mainline side; kernel 6.12.118', text)
        part = text.split('## Against mainline (M)')[1].split('## Goals')[0]
        # B adds 90 over its no-event run, M 100: 0.900, though B is slower
        self.assertEqual(row(part, 'pipe pmus=sw mode=self'),
                         '| `pipe pmus=sw mode=self` | 180.0 | 190.0 | 1.056 | 1.111 | 0.900 '
                         '| 0.00% |  |')
        self.assertEqual(row(part, 'tick mode=freq pmus=none').split(' | ')[5], '0.800')
        self.assertEqual(row(part, 'open dev=0 pmus=sw').split(' | ')[5], '-')
        self.assertNotIn('test_hw0', part)
        gl = [g for g in j['goals'] if g[0].startswith('(M)')]
        self.assertEqual([(g[0], g[1], g[3]) for g in gl], [
            ('(M) patched/6.12 over no events <= 1.00', 'pipe pmus=sw mode=self', 'yes'),
            ('(M) patched/6.12 <= 1.00', 'open dev=0 pmus=sw', 'NO'),
            ('(M) patched/6.12 over no events <= 1.00', 'tick mode=freq pmus=none', 'yes')])
        self.assertEqual(j['kernels']['M'], '6.12.118')
        self.assertEqual(j['m'], 'mainline side')
        self.assertNotIn('m', make(self.A, self.B)[2])

    def test_spread_flag(self):
        text, _, j = make(self.A, self.B, m={'pipe pmus=sw mode=self': [200, 206]})
        self.assertTrue(row(text.split('## Against mainline (M)')[1], 'pipe pmus=sw mode=self')
                        .endswith('| ! spread M |'))
        self.assertEqual(j['flagged_spreads'], 1)

    def test_failures(self):
        _, res, _ = make(self.A, self.B, m=self.M, rc_m=1)
        self.assertEqual(res.verdict, 'FAIL')
        self.assertIn('M=1', res.reason)
        _, res, _ = make(self.A, self.B, m=self.M, more_m=['skip pipe no_sched_switch'])
        self.assertIn('skipped on M: pipe no_sched_switch', res.reason)
        # M that ran nothing the others ran is a harness fault too.
        _, res, _ = make(self.A, self.B, m={'pipe pmus=tp mode=self': [1, 1]})
        self.assertEqual(res.verdict, 'FAIL')


if __name__ == '__main__':
    unittest.main()
