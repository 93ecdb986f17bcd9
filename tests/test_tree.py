"""tree -> export -> tree on a toy repository: the series applies with git
am, exports back to the same files, and applies again to the same commits;
work that is not exported is seen."""
import os
import shutil
import subprocess
import tempfile
import unittest

from workshop import conf, export, tree

GITIGNORE = '''*.o
#
# Debian packaging: ignore everything at the top level, since it isn't
# included in our source package and we don't want it.
/*
'''


def sh(cwd, *cmd):
    return subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, text=True,
                          env=conf.env()).stdout.strip()


class RoundTrip(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        base = os.path.join(self.d, 'toy-1.0')
        os.makedirs(os.path.join(base, 'kernel'))
        with open(os.path.join(base, 'kernel', 'core.c'), 'w') as f:
            f.write('int a;\n' * 20)
        with open(os.path.join(base, '.gitignore'), 'w') as f:
            f.write(GITIGNORE)
        self.tarball = os.path.join(self.d, 'toy.tar.xz')
        sh(self.d, 'tar', '-cJf', self.tarball, 'toy-1.0')
        self.src = os.path.join(self.d, 'src')
        tree.unpack(self.tarball, self.src, 'Toy 1.0 (Debian toy 1.0-1)', 'Unpacked.')
        tree.fix_gitignore(self.src)
        self.patches = os.path.join(self.d, 'patches')
        for i, line in enumerate(('int b;', 'int c;'), 1):
            with open(os.path.join(self.src, 'kernel', 'core.c'), 'a') as f:
                f.write(line + '\n')
            sh(self.src, 'git', 'commit', '-q', '-a', '-m', 'toy: add %d' % i,
               '-m', 'Because the test wants %d commits.' % i)
        export.export(self.src, self.patches)

    def tearDown(self):
        shutil.rmtree(self.d)

    def files(self):
        return {n: tree.read(os.path.join(self.patches, n)) for n in sorted(os.listdir(self.patches))}

    def test_export_names_and_series(self):
        self.assertEqual(tree.series(self.patches),
                         ['0001-toy-add-1.patch', '0002-toy-add-2.patch'])
        self.assertIn('0000-cover-letter.patch', os.listdir(self.patches))

    def test_round_trip(self):
        before = self.files()
        head = sh(self.src, 'git', 'rev-parse', 'HEAD')
        sh(self.src, 'git', 'reset', '-q', '--hard', 'base')
        self.assertEqual(tree.apply_series(self.src, self.patches), [])
        self.assertTrue(tree.in_sync(self.src, self.patches))
        export.export(self.src, self.patches)
        self.assertEqual(self.files(), before)
        sh(self.src, 'git', 'reset', '-q', '--hard', 'base')
        tree.apply_series(self.src, self.patches)
        again = sh(self.src, 'git', 'rev-parse', 'HEAD')
        sh(self.src, 'git', 'reset', '-q', '--hard', 'base')
        tree.apply_series(self.src, self.patches)
        self.assertEqual(sh(self.src, 'git', 'rev-parse', 'HEAD'), again)
        self.assertEqual(len(head), len(again))

    def test_cover_letter_keeps_its_text(self):
        cover = os.path.join(self.patches, '0000-cover-letter.patch')
        text = tree.read(cover).replace('*** SUBJECT HERE ***', 'toy: the series')
        text = text.replace('*** BLURB HERE ***', 'Why the toy series exists.')
        with open(cover, 'w') as f:
            f.write(text)
        export.export(self.src, self.patches)
        new = tree.read(cover)
        self.assertIn('toy: the series', new)
        self.assertIn('Why the toy series exists.', new)
        self.assertIn('toy: add 2', new)          # the shortlog, made anew

    def test_unexported_commit_is_seen(self):
        self.assertEqual(tree.unexported(self.src, self.patches), [])
        with open(os.path.join(self.src, 'kernel', 'core.c'), 'a') as f:
            f.write('int d;\n')
        sh(self.src, 'git', 'commit', '-q', '-a', '-m', 'toy: not exported')
        self.assertEqual(tree.unexported(self.src, self.patches), ['toy: not exported'])
        self.assertFalse(tree.in_sync(self.src, self.patches))

    def test_patch_that_does_not_apply(self):
        with open(os.path.join(self.patches, '0002-toy-add-2.patch')) as f:
            broken = f.read().replace('+int c;', '+int c;\n+int e;').replace(' int b;', ' int x;')
        with open(os.path.join(self.patches, '0002-toy-add-2.patch'), 'w') as f:
            f.write(broken)
        sh(self.src, 'git', 'reset', '-q', '--hard', 'base')
        self.assertEqual(tree.apply_series(self.src, self.patches), ['0002-toy-add-2.patch'])
        self.assertTrue(os.path.exists(os.path.join(self.src, '.git', 'perfctx-partial')))

    def test_gitignore_block_dropped_in_work_tree(self):
        with open(os.path.join(self.src, '.gitignore')) as f:
            self.assertNotIn('/*', f.read())
        self.assertEqual(sh(self.src, 'git', 'status', '--porcelain'), '')
