"""`make export`: build/src/linux's base..HEAD back into patches/.

File names are the ones git format-patch gives (number and subject);
patches/series lists them in order; the cover letter
0000-cover-letter.patch keeps its subject and text, its shortlog and
diffstat are made anew, its date is the last commit's (so that tree ->
export -> tree gives no diff).
"""
import os
import re
import tempfile

from workshop import conf
from workshop.proc import die, say
from workshop.tree import git, read


def keep_blurb(old, new):
    """NEW cover letter with OLD's subject and hand-written text."""
    subj = re.search(r'^Subject: (?:\[[^]]*\] )?(.*(?:\n .*)*)$', old, re.M).group(1)
    ob = old.split('\n\n', 1)[1]
    m = re.search(r'^\S.* \(\d+\):$', ob, re.M)
    blurb = ob[:m.start()] if m else ob
    new = re.sub(r'\*\*\* SUBJECT HERE \*\*\*', lambda _: subj, new)
    nh, nb = new.split('\n\n', 1)
    nb = re.sub(r'\A\*\*\* BLURB HERE \*\*\*\n\n', lambda _: blurb, nb)
    return nh + '\n\n' + nb


def check_exportable(src, patches):
    g = os.path.join(src, '.git')
    if git(src, 'status', '--porcelain', '--untracked-files=no'):
        die('%s has uncommitted edits: commit them first' % src)
    if os.path.exists(os.path.join(g, 'perfctx-partial')):
        die('%s lacks patches that did not apply (%s); force exports it anyway'
            % (src, ' '.join(read(os.path.join(g, 'perfctx-partial')).split())))
    if os.path.isdir(os.path.join(g, 'rebase-apply')) or os.path.isdir(os.path.join(g, 'rebase-merge')):
        die('a git am or rebase is in progress in ' + src)
    from workshop.tree import series
    if git(src, 'rev-list', '--count', 'base..HEAD') == '0' and series(patches):
        die('%s has no commits on base but patches/series is not empty (HEAD moved?); '
            'force exports it anyway' % src)


def export(src=None, patches=conf.PATCHES, force=False):
    src = src or conf.src()
    if not os.path.isdir(os.path.join(src, '.git')):
        die('no tree at ' + src)
    if not force:
        check_exportable(src, patches)
    os.makedirs(patches, exist_ok=True)
    cover = os.path.join(patches, '0000-cover-letter.patch')
    n = int(git(src, 'rev-list', '--count', 'base..HEAD'))
    with tempfile.TemporaryDirectory() as tmp:
        if n:
            git(src, 'format-patch', '-q', '--zero-commit', '--no-signature',
                '--cover-letter', '-o', tmp, 'base..HEAD')
            tc = os.path.join(tmp, '0000-cover-letter.patch')
            text = read(tc)
            date = git(src, 'log', '-1', '--format=%aD', 'HEAD')
            text = re.sub(r'^Date: .*$', lambda _: 'Date: ' + date, text, count=1, flags=re.M)
            if os.path.exists(cover):
                text = keep_blurb(read(cover), text)
            with open(tc, 'w') as f:
                f.write(text)
        elif os.path.exists(cover):
            with open(os.path.join(tmp, '0000-cover-letter.patch'), 'w') as f:
                f.write(read(cover))
        for old in os.listdir(patches):
            if re.match(r'\d{4}-.*\.patch$', old):
                os.unlink(os.path.join(patches, old))
        names = sorted(os.listdir(tmp))
        for name in names:
            with open(os.path.join(patches, name), 'w') as f:
                f.write(read(os.path.join(tmp, name)))
    with open(os.path.join(patches, 'series'), 'w') as f:
        f.writelines(n + '\n' for n in names if not n.startswith('0000-'))
    say('exported %d patches to %s' % (n, patches))
