#!/usr/bin/env python3
"""copy-libs.py ROOT LIBDIR... -- ELF|DIR...: copy into ROOT the dynamic loader
and every shared library the given ELF files need, found in LIBDIRs
(recursively, by DT_NEEDED).  Works for any architecture: it reads ELF
headers with readelf, it never runs the binaries."""
import os, re, shutil, subprocess, sys

def readelf(path, opt):
    return subprocess.run(['readelf', opt, '-W', path], capture_output=True,
                          text=True).stdout

def main():
    args = sys.argv[1:]
    sep = args.index('--')
    root, libdirs, elves = args[0], args[1:sep], args[sep + 1:]
    todo = []
    for e in elves:
        if os.path.isdir(e):
            for dp, _, fs in os.walk(e):
                for fn in fs:
                    p = os.path.join(dp, fn)
                    if not os.path.islink(p) and os.path.isfile(p):
                        with open(p, 'rb') as fh:
                            if fh.read(4) == b'\x7fELF':
                                todo.append(p)
        else:
            todo.append(e)
    seen = set()
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        interp = re.search(r'Requesting program interpreter: (\S+)\]',
                           readelf(f, '-l'))
        needs = re.findall(r'\(NEEDED\)\s+Shared library: \[(\S+)\]',
                           readelf(f, '-d'))
        if interp:
            ip = interp.group(1)
            src = next((os.path.join(d, os.path.basename(ip)) for d in libdirs
                        if os.path.exists(os.path.join(d, os.path.basename(ip)))),
                       None)
            if not src:
                sys.exit(f'{f}: interpreter {ip} not found in {libdirs}')
            install(src, root + ip)
        for n in needs:
            src = next((os.path.join(d, n) for d in libdirs
                        if os.path.exists(os.path.join(d, n))), None)
            if not src:
                # Python's optional extension modules (ssl, curses, ...) may
                # need what the guest lacks: they fail to import, as on any
                # system without the library.  Anything else must resolve.
                if '/lib-dynload/' in f:
                    print(f'note: {os.path.basename(f)}: no {n}', file=sys.stderr)
                    continue
                sys.exit(f'{f}: {n} not found in {libdirs}')
            dst = os.path.join(root, 'lib', n)
            if not os.path.exists(dst):
                install(src, dst)
                todo.append(src)

def install(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if not os.path.exists(dst):
        shutil.copy2(os.path.realpath(src), dst)

main()
