#!/usr/bin/env python3
"""tests/judge_mutants.py: break the judge on purpose, one rule at a time,
and show that the judge's tests (tests/test_judge_*.py) notice.

Each breakage is a row of tests/judge_mutants.toml: (file under
workshop/judge/, old text, new text, the rule it breaks); the old text must
occur exactly once.  For each, workshop/ and the judge's tests and fixtures
are copied to a temporary directory, the breakage applied there, and the
tests run against the copy.  Prints one line per breakage, 'caught' or 'NOT
CAUGHT', then 'N caught, N not caught'; exit status 1 if a breakage was not
caught or the unbroken copy fails its tests."""
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def breakages():
    """[(file, old, new, what)] in the order they are printed."""
    with open(os.path.join(TOP, 'tests', 'judge_mutants.toml'), 'rb') as f:
        return [tuple(b) for b in tomllib.load(f)['breakages']]


def copy_tree(dst):
    shutil.copytree(os.path.join(TOP, 'workshop'), os.path.join(dst, 'workshop'),
                    ignore=shutil.ignore_patterns('__pycache__'))
    tests = os.path.join(dst, 'tests')
    os.makedirs(tests)
    open(os.path.join(tests, '__init__.py'), 'w').close()
    for name in os.listdir(os.path.join(TOP, 'tests')):
        if name.startswith('test_judge_') and name.endswith('.py'):
            shutil.copy(os.path.join(TOP, 'tests', name), tests)
    shutil.copytree(os.path.join(TOP, 'tests', 'fixtures', 'judge'),
                    os.path.join(tests, 'fixtures', 'judge'))


def run_tests(d):
    """True when the judge's tests pass in the copy D."""
    p = subprocess.run([sys.executable, '-m', 'unittest', 'discover', '-f', '-s', 'tests',
                        '-p', 'test_judge_*.py', '-t', '.'], cwd=d, capture_output=True,
                       env=dict(os.environ, PYTHONDONTWRITEBYTECODE='1'))
    return p.returncode == 0


def apply(d, name, old, new):
    path = os.path.join(d, 'workshop', 'judge', name)
    with open(path) as f:
        text = f.read()
    n = text.count(old)
    if n != 1:
        return 'the old text occurs %d times in workshop/judge/%s' % (n, name)
    with open(path, 'w') as f:
        f.write(text.replace(old, new))
    return None


def one(b):
    """(breakage, 'caught' | 'NOT CAUGHT' | 'BAD: why')"""
    name, old, new, what = b
    with tempfile.TemporaryDirectory(prefix='judge-mutant-') as d:
        copy_tree(d)
        err = apply(d, name, old, new)
        if err:
            return b, 'BAD: ' + err
        return b, 'NOT CAUGHT' if run_tests(d) else 'caught'


def main():
    todo = breakages()
    with tempfile.TemporaryDirectory(prefix='judge-mutant-') as d:
        copy_tree(d)
        if not run_tests(d):
            print('FAIL  the unbroken judge fails its own tests')
            return 1
    caught = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for (name, _, _, what), verdict in ex.map(one, todo):
            print('%-10s %s: %s' % (verdict, name, what))
            caught += verdict == 'caught'
    print('%d caught, %d not caught' % (caught, len(todo) - caught))
    return 0 if caught == len(todo) else 1


if __name__ == '__main__':
    sys.exit(main())
