"""The bench report: the end-to-end verdict and the plots."""
import contextlib
import io
import json
import os
import subprocess
import tempfile
import unittest
from workshop.judge import bench, bench_goals, bench_plot

from tests.test_judge_bench import FEW_PMUS, ALL_PMUS, write_log, no_plot, make, row, goal, PIPE, FEW_ROWS, ALL_ROWS  # noqa: F401


class EndToEnd(unittest.TestCase):
    def test_ok(self):
        text, res, _ = make(PIPE, PIPE)
        self.assertEqual((res.key, res.verdict), ('bench:end-to-end', 'PASS'))
        self.assertEqual(res.reason, 'ran end to end, 2 scenarios, 0 spreads over 2%')
        self.assertNotIn('did not run end to end', text)

    def fails(self, why, **kw):
        text, res, _ = make(PIPE, PIPE, **kw)
        self.assertEqual(res.verdict, 'FAIL')
        self.assertIn(why, res.reason)
        self.assertIn('- the harness did not run end to end', text)
        return text

    def test_guest_rc(self):
        self.fails('guest rc A=1 B=0', rc_a=1)
        self.fails('guest rc A=0 B=2', rc_b=2)
        self.fails('guest rc A=None B=0', rc_a=None)

    def test_error_line(self):
        text = self.fails('ERROR on B: pipe what=perfbench_exit_1',
                          more_b=['error pipe what=perfbench_exit_1'])
        self.assertIn('- ERROR on B: pipe what=perfbench_exit_1', text)

    def test_skip_line(self):
        text = self.fails('skipped on A: cgroup no cgroup2', more_a=['skip cgroup no cgroup2'])
        self.assertIn('- skipped on A: cgroup no cgroup2', text)

    def test_missing_log(self):
        with tempfile.TemporaryDirectory() as d:
            b = write_log(os.path.join(d, 'B'), PIPE)
            text, res = bench.judge(os.path.join(d, 'nothing'), b, arch='x', mode='full',
                                    a_desc='', b_desc='', same='0', command='c', plot_run=no_plot)
        self.assertEqual(res.verdict, 'FAIL')
        self.assertIn('ERROR on A: no log', res.reason)

    def test_no_rows(self):
        self.assertFalse(bench.report(*[write_log(os.path.join(tempfile.gettempdir(), 'ws-empty'), {})] * 2,
                                      arch='x', mode='full', a_desc='', b_desc='', same='0',
                                      command='c')[1])


class Plots(unittest.TestCase):
    def test_plots_and_data(self):
        seen = []
        rows = {'cgroup dev=%d' % n: [100 + n, 100 + n] for n in (0, 10, 100)}
        rows.update({'pipe pmus=%s mode=self' % p: [10, 10] for p in ('none', 'sw', 'sw,tp',
                                                                        'sw,test_hw0', 'test_hw0')})

        def run(script):
            dat = script.split("plot '")[1].split("'")[0]
            with open(dat) as f:
                seen.append((script.split("set output '")[1].split("'")[0], f.read()))
        text, _, _ = make(rows, rows, plot_run=run)
        names = [os.path.basename(p) for p, _ in seen]
        self.assertEqual(names, ['r-cgroup.png', 'r-pipe.png', 'r-pipe-hw.png'])
        self.assertEqual(seen[0][1], '0 100.0 100.0\n10 110.0 110.0\n100 200.0 200.0\n')
        self.assertEqual(seen[1][1], '0 10.0 10.0\n1 10.0 10.0\n2 10.0 10.0\n')
        self.assertEqual(seen[2][1], '0 10.0 10.0\n1 10.0 10.0\n')
        self.assertEqual(text.splitlines()[-1],
                         'Plots: `r-cgroup.png`, `r-pipe.png`, `r-pipe-hw.png`')

    def test_mainline_line(self):
        seen = []

        def run(script):
            dat = script.split("plot '")[1].split("'")[0]
            with open(dat) as f:
                seen.append((script, f.read()))
        rows = {'pipe pmus=%s mode=self' % p: [10, 10] for p in ('none', 'sw', 'sw,tp')}
        m = {'pipe pmus=none mode=self': [8, 8], 'pipe pmus=sw mode=self': [9, 9]}
        make(rows, rows, m=m, plot_run=run)
        script, data = seen[0]
        self.assertEqual(data, '0 10.0 10.0 8.0\n1 10.0 10.0 9.0\n2 10.0 10.0 NaN\n')
        self.assertIn("'' using 1:4 with linespoints title 'mainline 6.12 (M)'", script)
        make(rows, rows, plot_run=run)
        self.assertNotIn('mainline', seen[1][0])

    def test_gnuplot_fails(self):
        def run(script):
            raise subprocess.CalledProcessError(1, 'gnuplot')
        rows = {'cgroup dev=%d' % n: [1, 1] for n in (0, 10)}
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            text, _, _ = make(rows, rows, plot_run=run)
        self.assertNotIn('Plots:', text)
        self.assertIn('no plot', err.getvalue())

    def test_axes(self):
        self.assertEqual(bench_plot.pipe_x('self')('pipe pmus=sw,tp,task-clock mode=self'), 3)
        self.assertEqual(bench_plot.pipe_x('self')('pipe pmus=none mode=self'), 0)
        self.assertIsNone(bench_plot.pipe_x('self')('pipe pmus=sw,test_hw0 mode=self'))
        self.assertIsNone(bench_plot.pipe_x('self')('pipe pmus=test_hw0 mode=self'))
        self.assertIsNone(bench_plot.pipe_x('self')('pipe pmus=sw mode=inherit'))
        ex = bench_plot.exist_x('self')
        self.assertEqual(ex('pipe pmus=test_hw0 mode=self'), 0)
        self.assertEqual(ex('pipe pmus=test_hw0 mode=self extra=50'), 50)
        self.assertIsNone(ex('pipe pmus=test_hw0 mode=inherit extra=50'))
        self.assertIsNone(ex('pipe pmus=sw mode=self extra=50'))
        hw = bench_plot.pipe_x('self', bench_plot.hw_chain_index)
        self.assertEqual(hw('pipe pmus=test_hw0,test_hw1 mode=self'), 2)
        self.assertIsNone(hw('pipe pmus=test_hw1 mode=self'))
        self.assertEqual(hw('pipe pmus=%s mode=self' % ','.join('test_hw%d' % i for i in range(8))), 8)
        self.assertIsNone(hw('pipe pmus=test_hw0,test_hw2 mode=self'))
        self.assertIsNone(hw('pipe pmus=test_hw0 mode=self extra=50'))
        self.assertEqual(hw('pipe pmus=none mode=self'), 0)
        self.assertEqual(bench_plot.rotate_x('rotate pmu=x others=none'), 0)
        self.assertEqual(bench_plot.rotate_x('rotate pmu=x others=a,b'), 2)
        self.assertIsNone(bench_plot.open_x('sw')('open dev=1 pmu=test_hw0'))


if __name__ == '__main__':
    unittest.main()
