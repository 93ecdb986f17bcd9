"""The checkpatch filter: exceptions by type and file glob, and
FILE_PATH_CHANGES accepted when MAINTAINERS covers the added files."""
import os
import stat
import tempfile
import unittest

from workshop.judge import checkpatch

PATCH = '''From 1 Mon Sep 17 00:00:00 2001
Subject: [PATCH] x
---
diff --git a/lib/test_perf_pmu.c b/lib/test_perf_pmu.c
new file mode 100644
--- /dev/null
+++ b/lib/test_perf_pmu.c
diff --git a/kernel/events/core.c b/kernel/events/core.c
--- a/kernel/events/core.c
+++ b/kernel/events/core.c
diff --git a/tools/old.sh b/tools/old.sh
deleted file mode 100644
diff --git a/a/x.c b/a/y.c
rename from a/x.c
rename to a/y.c
'''
EXC = [('SPDX_LICENSE_TAG', 'tools/perf/tests/shell/*.sh', 'perf takes line 2'),
       ('LONG_LINE', 'lib/*.c', 'tables')]
OUTPUT = '''WARNING:FILE_PATH_CHANGES: added, moved or deleted file(s), does MAINTAINERS need updating?
#10:
new file mode 100644

WARNING:SPDX_LICENSE_TAG: Missing or malformed SPDX-License-Identifier tag in line 2
#20: FILE: tools/perf/tests/shell/stat_mux.sh:2:
+# perf stat multiplexing

CHECK:LONG_LINE: line length of 120 exceeds 100 columns
#30: FILE: lib/test_perf_pmu.c:40:
+	a very long line

ERROR:SPDX_LICENSE_TAG: Missing SPDX tag
#40: FILE: lib/other.c:1:
'''


def all_covered(path):
    return True


class Filter(unittest.TestCase):
    def test_changed_files(self):
        self.assertEqual(checkpatch.changed_files(PATCH),
                         ['lib/test_perf_pmu.c', 'tools/old.sh', 'a/y.c', 'a/y.c'])

    def test_blocks(self):
        b = checkpatch.blocks('stray line\n\n' + OUTPUT)
        self.assertEqual(b[0], ['stray line'])
        self.assertEqual([x[0].split(':')[1] for x in b[1:]],
                         ['FILE_PATH_CHANGES', 'SPDX_LICENSE_TAG', 'LONG_LINE', 'SPDX_LICENSE_TAG'])

    def test_filter(self):
        text, left = checkpatch.filter_output(OUTPUT, PATCH, EXC, all_covered)
        self.assertEqual(left, 1)
        lines = text.splitlines()
        self.assertEqual(lines[:3], [
            '  accepted FILE_PATH_CHANGES (-): MAINTAINERS covers lib/test_perf_pmu.c, '
            'tools/old.sh, a/y.c, a/y.c',
            '  accepted SPDX_LICENSE_TAG (tools/perf/tests/shell/stat_mux.sh): perf takes line 2',
            '  accepted LONG_LINE (lib/test_perf_pmu.c): tables'])
        self.assertEqual(lines[3], 'ERROR:SPDX_LICENSE_TAG: Missing SPDX tag')

    def test_uncovered_file(self):
        asked = []

        def covered(path):
            asked.append(path)
            return path != 'tools/old.sh'
        text, left = checkpatch.filter_output(OUTPUT, PATCH, EXC, covered)
        self.assertEqual(left, 2)
        self.assertIn('WARNING:FILE_PATH_CHANGES:', text)
        self.assertEqual(asked, ['lib/test_perf_pmu.c', 'tools/old.sh'])

    def test_type_and_glob_both_needed(self):
        out = 'WARNING:LONG_LINE: x\n#1: FILE: kernel/events/core.c:1:\n'
        self.assertEqual(checkpatch.filter_output(out, PATCH, EXC, all_covered)[1], 1)
        out = 'WARNING:SPACING: x\n#1: FILE: lib/test_perf_pmu.c:1:\n'
        self.assertEqual(checkpatch.filter_output(out, PATCH, EXC, all_covered)[1], 1)
        out = 'WARNING:LONG_LINE: x (no file named)\n'
        self.assertEqual(checkpatch.filter_output(out, PATCH, EXC, all_covered)[1], 1)

    def test_stray_line_is_left(self):
        self.assertEqual(checkpatch.filter_output('perl: warning: x\n', PATCH, EXC,
                                                  all_covered)[1], 1)
        self.assertEqual(checkpatch.filter_output('', PATCH, EXC, all_covered), ('', 0))

    def test_load_exceptions(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, 'e.txt')
            with open(p, 'w') as f:
                f.write('# c\n\nA | b/*.c | why | with a bar\n')
            self.assertEqual(checkpatch.load_exceptions(p), [('A', 'b/*.c', 'why | with a bar')])
        top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        real = os.path.join(top, 'config', 'checkpatch-exceptions.txt')
        if os.path.exists(real):
            self.assertTrue(checkpatch.load_exceptions(real))


def script(path, text):
    with open(path, 'w') as f:
        f.write('#!/usr/bin/env python3\n' + text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


class Run(unittest.TestCase):
    """run() with a made-up tree: checkpatch.pl and get_maintainer.pl."""

    def tree(self, d, output, maintained):
        os.makedirs(os.path.join(d, 'scripts'))
        script(os.path.join(d, 'scripts', 'checkpatch.pl'),
               'import sys\nassert sys.argv[1:5] == ["--strict", "--quiet", "--no-summary", '
               '"--show-types"], sys.argv\nprint(%r, end="")\n' % output)
        script(os.path.join(d, 'scripts', 'get_maintainer.pl'),
               'print(%r)\n' % ('Someone <a@b> (maintainer:PERF)' if maintained else 'x (open list)'))
        patch = os.path.join(d, '0001-x.patch')
        with open(patch, 'w') as f:
            f.write(PATCH)
        exc = os.path.join(d, 'exc.txt')
        with open(exc, 'w') as f:
            f.write('LONG_LINE | lib/*.c | tables\nSPDX_LICENSE_TAG | tools/perf/tests/shell/*.sh | x\n')
        return patch, exc

    def test_pass(self):
        with tempfile.TemporaryDirectory() as d:
            patch, exc = self.tree(d, OUTPUT.split('ERROR:')[0], True)
            r = checkpatch.run(d, patch, exc)
        self.assertEqual((r.key, r.verdict, r.reason), ('checkpatch:0001-x.patch', 'PASS', ''))
        self.assertIn('accepted FILE_PATH_CHANGES', r.detail)

    def test_fail(self):
        with tempfile.TemporaryDirectory() as d:
            patch, exc = self.tree(d, OUTPUT, False)
            r = checkpatch.run(d, patch, exc)
        self.assertEqual((r.verdict, r.reason), ('FAIL', '2 complaints left'))
        self.assertIn('WARNING:FILE_PATH_CHANGES', r.detail)


if __name__ == '__main__':
    unittest.main()
