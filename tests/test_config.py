"""config/: the fragment merge check, and the profiles, arches and
packages as the pipeline will read them."""
import os
import unittest

from workshop import build, conf, kinds


class FragmentCheck(unittest.TestCase):
    """build.mismatches: every option a fragment asks for must have stuck."""

    def test_all_stuck(self):
        frags = ['CONFIG_A=y\nCONFIG_B=n\n', '# a comment\nCONFIG_C=64000\n']
        cfg = 'CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=64000\n'
        self.assertEqual(build.mismatches(frags, cfg), [])

    def test_typo_or_unmet_dependency(self):
        self.assertEqual(build.mismatches(['CONFIG_KASNA=y\n'], 'CONFIG_KASAN=y\n'),
                         ['CONFIG_KASNA: wanted y, got unset'])

    def test_wanted_off_but_on(self):
        self.assertEqual(build.mismatches(['CONFIG_X=n\n'], 'CONFIG_X=y\n'),
                         ['CONFIG_X: wanted n, got y'])

    def test_later_fragment_wins(self):
        frags = ['CONFIG_T=y\n', 'CONFIG_T=m\n']
        self.assertEqual(build.mismatches(frags, 'CONFIG_T=m\n'), [])
        self.assertEqual(build.mismatches(frags, 'CONFIG_T=y\n'),
                         ['CONFIG_T: wanted m, got y'])

    def test_value_differs(self):
        self.assertEqual(build.mismatches(['CONFIG_HZ=250\n'], 'CONFIG_HZ=100\n'),
                         ['CONFIG_HZ: wanted 250, got 100'])

    def test_absent_ok_skipped(self):
        self.assertEqual(build.mismatches(['CONFIG_NEW=y\n'], '', skip=['CONFIG_NEW']), [])


class Profiles(unittest.TestCase):
    def setUp(self):
        self.d = conf.profiles()

    def test_every_profile_resolves(self):
        for name, p in self.d['profile'].items():
            with self.subTest(profile=name):
                self.assertIn(p['judge'], kinds.KINDS)
                for a in p.get('archs', []):
                    if a != 'host':
                        conf.arch(a)
                if p.get('kernel'):
                    for f in build.fragments(p['kernel'], 'x86_64', self.d):
                        self.assertTrue(os.path.exists(f), f)
                if p.get('payload'):
                    self.assertIn(p['payload'], self.d['payload'])
                for b in [p.get('boot', {})] + p.get('boots', []):
                    self.assertIn(b.get('test_pmu', 'std'), self.d['test_pmu'])
                    if 'mode' in b:
                        self.assertTrue(os.path.exists(os.path.join(
                            conf.TOP, 'guest', 'modes', b['mode'] + '.sh')), b['mode'])

    def test_from_merges_tables(self):
        smoke = self.d['profile']['stress-smoke']
        self.assertEqual(smoke['judge'], 'stress')
        self.assertEqual(smoke['options']['duration'], '240')
        self.assertEqual(smoke['boot']['mode'], 'stress')

    def test_suites_name_known_jobs(self):
        for s in self.d['suite'].values():
            for j in s['jobs']:
                prof, _, arch = j.partition(':')
                self.assertIn(prof, self.d['profile'])
                if arch:
                    conf.arch(arch)

    def test_payload_groups_exist(self):
        guest = conf.load_toml('deps.toml')['guest']
        for p in self.d['payload'].values():
            if p.get('debs'):
                self.assertIn(p['debs'], guest)
            for prog in p.get('programs', []):
                self.assertTrue(os.path.exists(os.path.join(conf.TOP, 'guest', 'src', prog + '.c')))


class Arches(unittest.TestCase):
    def test_guest_arches_have_every_boot_fact(self):
        for name in ('x86_64', 'arm64'):
            a = conf.arch(name)
            for field in ('image', 'debian_arch', 'triplet', 'qemu', 'machine', 'cpu',
                          'console', 'virtio_serial', 'kernel_text_start'):
                self.assertTrue(getattr(a, field), '%s.%s' % (name, field))

    def test_unknown_arch(self):
        with self.assertRaises(SystemExit):
            conf.arch('vax')


class GitlabExample(unittest.TestCase):
    """.gitlab-ci.yml spreads make check's suite over a job matrix: its
    jobs are the suite's profile x arch, one each, and the merge job reads
    every result file they write."""

    def jobs(self):
        import re
        text = open(os.path.join(conf.TOP, '.gitlab-ci.yml')).read()
        out = set()
        for block in re.split(r'\n(?=\S)', text):
            m = re.search(r'script: \./ws run (\S+)(?: --arch (\S+))?', block)
            if not m:
                continue
            archs = re.search(r'ARCH: \[(.*)\]', block)
            for a in (archs.group(1).split(', ') if archs else [m.group(2) or 'host']):
                out.add('%s:%s' % (m.group(1), a))
        return out, text

    def test_matrix_is_the_suite(self):
        got, _ = self.jobs()
        want = {j if ':' in j else j + ':host' for j in conf.profiles()['suite']['check']['jobs']}
        self.assertEqual(got, want)

    def test_merge_reads_every_result_file(self):
        _, text = self.jobs()
        self.assertIn('./ws merge build/logs/*/*/result.json', text)
        self.assertEqual(conf.logs('check', 'x86_64'), os.path.join(conf.BUILD, 'logs', 'check', 'x86_64'))
