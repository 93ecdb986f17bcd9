"""The result file (docs/harness.md, "The result file"), its counts and the
merge of any set of result files."""
import json
import os
import tempfile
import unittest

from workshop.judge.result import Report, Result, counts_of, merge


def R(key, verdict, reason='', result=None, detail=''):
    return Result(key, result or verdict, verdict, reason, detail)


def report(profile='check', arch='x86_64', kind='kernel', results=None, **kw):
    res = results if results is not None else [
        R('kunit:a.b', 'PASS'), R('perftest:x', 'SKIP', 'no PMU'),
        R('kselftest:p:q', 'XFAIL', 'slow', 'TIMEOUT'), R('kernel:WARNING: x', 'FAIL', 'trace',
                                                         detail='line 1\nline 2')]
    return Report(profile, arch, kind, res, **kw)


class Counts(unittest.TestCase):
    def test_mapping(self):
        self.assertEqual(report().counts(), {'passed': 1, 'failed': 1, 'skipped': 2})

    def test_unknown_verdict_fails(self):
        self.assertEqual(counts_of([R('x', 'TIMEOUT')]), {'passed': 0, 'failed': 1, 'skipped': 0})

    def test_line(self):
        self.assertEqual(R('k', 'PASS').line('arm64', 'check'), 'PASS  arm64 check: k')
        self.assertEqual(R('k', 'XFAIL', 'why').line('arm64', 'check'),
                         'XFAIL arm64 check: k  # why')


class WriteLoad(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_json_schema(self):
        rep = report(stages=[('build', 12.0), ('boot', 3.5)], figures={'seed': '1'},
                     command='./ws run check', started='2026-12-04T23:45:00Z')
        rep.write(self.d)
        with open(os.path.join(self.d, 'result.json')) as f:
            j = json.load(f)
        self.assertEqual(set(j), {'profile', 'arch', 'kind', 'command', 'started', 'results',
                                  'counts', 'stages', 'figures'})
        self.assertEqual(j['counts'], {'passed': 1, 'failed': 1, 'skipped': 2})
        self.assertEqual(j['results'][2], {'key': 'kselftest:p:q', 'result': 'TIMEOUT',
                                           'verdict': 'XFAIL', 'reason': 'slow'})
        self.assertEqual(j['stages'], [['build', 12.0], ['boot', 3.5]])
        self.assertEqual((j['profile'], j['arch'], j['kind'], j['command'], j['started']),
                         ('check', 'x86_64', 'kernel', './ws run check', '2026-12-04T23:45:00Z'))
        self.assertNotIn('detail', json.dumps(j))

    def test_text(self):
        rep = report(figures={'seed': '7', 'hotplug_cycles': '3'})
        rep.write(self.d)
        with open(os.path.join(self.d, 'result.txt')) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[:3], ['---- kernel:WARNING: x', 'line 1', 'line 2'])
        self.assertEqual(lines[3:7], [
            'PASS  x86_64 check: kunit:a.b', 'SKIP  x86_64 check: perftest:x  # no PMU',
            'XFAIL x86_64 check: kselftest:p:q  # slow',
            'FAIL  x86_64 check: kernel:WARNING: x  # trace'])
        self.assertEqual(lines[7], '---- figures (check x86_64)')
        self.assertEqual(lines[8].split(), ['seed', '7'])
        self.assertEqual(lines[-1], 'check x86_64: 1 passed, 1 failed, 2 skipped')

    def test_load_round_trip(self):
        rep = report(stages=[('boot', 3)], figures={'a': 1})
        rep.write(self.d)
        for path in (self.d, os.path.join(self.d, 'result.json')):
            back = Report.load(path)
            self.assertEqual(back.counts(), rep.counts())
            self.assertEqual([(r.key, r.result, r.verdict, r.reason) for r in back.results],
                             [(r.key, r.result, r.verdict, r.reason) for r in rep.results])
            self.assertEqual((back.profile, back.arch, back.kind, back.stages, back.figures),
                             ('check', 'x86_64', 'kernel', [('boot', 3)], {'a': 1}))

    def test_load_bad(self):
        with self.assertRaises(OSError):
            Report.load(os.path.join(self.d, 'nothing.json'))
        p = os.path.join(self.d, 'bad.json')
        for text in ('{', '[]', '{"results": 3}'):
            with open(p, 'w') as f:
                f.write(text)
            with self.subTest(text), self.assertRaises(ValueError):
                Report.load(p)


class Merge(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.paths = {}
        clean = [R('kunit:a', 'PASS'), R('perftest:b', 'SKIP', 'listed')]
        for name, rep in (
                ('check-x86', report(results=clean, stages=[('build', 100), ('guest', 61.5)])),
                ('check-arm', report(arch='arm64', results=clean + [R('kernel:BUG', 'FAIL', 'x')])),
                ('selftest', report('selftest', 'host', 'harness',
                                    [R('harness:a', 'PASS'), R('harness:b', 'PASS')])),
                ('selftest-bad', report('selftest', 'host', 'harness', [R('harness:c', 'FAIL')])),
                ('stress', report('stress-smoke', results=[R('kernel:log', 'PASS')]))):
            d = os.path.join(self.tmp.name, name)
            rep.write(d)
            self.paths[name] = os.path.join(d, 'result.json')

    def tearDown(self):
        self.tmp.cleanup()

    def merge(self, *names):
        return merge([self.paths.get(n, n) for n in names])

    def test_clean_subset(self):
        text, ok = self.merge('check-x86', 'stress')
        self.assertTrue(ok)
        self.assertEqual(text.splitlines(), [
            'SKIP  x86_64 check: perftest:b  # listed',
            'check x86_64: 1 passed, 0 failed, 1 skipped',
            '  stages: build 100 s, guest 61.5 s',
            'stress-smoke x86_64: 1 passed, 0 failed, 0 skipped',
            '2 passed, 0 failed, 1 skipped'])

    def test_failure(self):
        text, ok = self.merge('check-x86', 'check-arm')
        self.assertFalse(ok)
        lines = text.splitlines()
        self.assertIn('FAIL  arm64 check: kernel:BUG  # x', lines)
        self.assertEqual(lines[-1], '2 passed, 1 failed, 2 skipped')

    def test_harness_apart(self):
        text, ok = self.merge('selftest', 'check-x86')
        self.assertTrue(ok)
        lines = text.splitlines()
        self.assertEqual(lines[-2:], ['harness: 2 passed, 0 failed, 0 skipped',
                                      '1 passed, 0 failed, 1 skipped'])
        self.assertIn('selftest host: 2 passed, 0 failed, 0 skipped', lines)

    def test_harness_failure_fails(self):
        text, ok = self.merge('selftest-bad', 'check-x86')
        self.assertFalse(ok)
        self.assertEqual(text.splitlines()[-2:], ['harness: 0 passed, 1 failed, 0 skipped',
                                                  '1 passed, 0 failed, 1 skipped'])

    def test_no_harness_line_without_harness_files(self):
        text, _ = self.merge('check-x86')
        self.assertFalse(any(x.startswith('harness:') for x in text.splitlines()))

    def test_missing_file(self):
        missing = os.path.join(self.tmp.name, 'gone', 'result.json')
        text, ok = self.merge('check-x86', missing)
        self.assertFalse(ok)
        lines = text.splitlines()
        self.assertTrue(any(missing in x and x.startswith('FAIL') for x in lines))
        self.assertEqual(lines[-1], '1 passed, 1 failed, 1 skipped')

    def test_unreadable_file(self):
        bad = os.path.join(self.tmp.name, 'bad.json')
        with open(bad, 'w') as f:
            f.write('not json')
        text, ok = self.merge(bad)
        self.assertFalse(ok)
        self.assertEqual(text.splitlines()[-1], '0 passed, 1 failed, 0 skipped')

    def test_no_file(self):
        text, ok = merge([])
        self.assertFalse(ok)
        self.assertEqual(text.splitlines()[-1], '0 passed, 0 failed, 0 skipped')

    def test_directory_given(self):
        text, ok = merge([os.path.dirname(self.paths['check-x86'])])
        self.assertTrue(ok)


if __name__ == '__main__':
    unittest.main()
