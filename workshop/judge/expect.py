"""Expect lists (config/expect/ARCH.txt): results that may not pass in a
guest, and why.  One a line, '<key glob> | skip|fail|timeout|any | <reason>',
or 'include NAME': the lines of the list NAME beside this one, in its place.

A result that does not pass and is not listed fails; a listed skip/fail
that passes fails too ("listed but passes: take it off the list"), so the
list only shrinks.  'timeout' is for a kselftest that may run out of its
harness's time on a slow host: it may pass or time out, and any other
failure fails; 'any' allows every result.  kernel: and guest: keys are
never excused."""
import fnmatch
import os

from workshop.judge.result import Result

KINDS = ('skip', 'fail', 'timeout', 'any')
NEVER_EXCUSED = ('kernel:', 'guest:')


class ExpectError(ValueError):
    """A line of an expect list that is not '<glob> | kind | <reason>'."""


def load(path, _seen=()):
    """[(glob, kind, reason)] of an expect list; [] when there is none."""
    exp = []
    if not path or not os.path.exists(path):
        return exp
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            if line.startswith('include '):
                inc = os.path.join(os.path.dirname(path), line.split(None, 1)[1])
                if not os.path.exists(inc) or inc in _seen:
                    raise ExpectError('%s:%d: no list %s, or an include loop' % (path, n, inc))
                exp += load(inc, _seen + (path,))
                continue
            parts = [p.strip() for p in line.split('|')]
            if len(parts) != 3 or parts[1] not in KINDS or not parts[2]:
                raise ExpectError('%s:%d: want "<key glob> | skip|fail|timeout|any | <reason>"'
                                  % (path, n))
            exp.append(tuple(parts))
    return exp


def entry(key, exp):
    """The first line of EXP whose glob matches KEY, or None."""
    if key.startswith(NEVER_EXCUSED):
        return None
    return next((x for x in exp if fnmatch.fnmatchcase(key, x[0])), None)


def allows(kind, st):
    """Whether a line of KIND excuses a result ST that is not PASS."""
    return (kind == 'any' or (kind == 'timeout' and st == 'TIMEOUT') or
            (kind == 'skip' and st == 'SKIP') or
            (kind == 'fail' and st in ('FAIL', 'TIMEOUT')))


def verdict(key, st, reason, exp, listname):
    """(verdict, reason) of one result against the list."""
    e = entry(key, exp)
    if st == 'PASS':
        if e and e[1] not in ('any', 'timeout'):
            return 'FAIL', 'listed as "%s" in %s but passes: take it off the list' % (
                e[1], listname)
        return 'PASS', reason
    if e and allows(e[1], st):
        return ('SKIP' if st == 'SKIP' else 'XFAIL'), e[2]
    if st != 'FAIL' or not e:
        why = '%s, not listed in %s' % (st.lower(), listname)
    else:
        why = 'failed, listed as "%s"' % e[1]
    return 'FAIL', why + (': ' + reason if reason else '')


def apply(raw, exp, listname):
    """[Result] of raw results [(key, result, reason[, detail])]."""
    out = []
    for key, st, reason, *detail in raw:
        v, why = verdict(key, st, reason, exp, listname)
        out.append(Result(key, st, v, why, detail[0] if detail else ''))
    return out
