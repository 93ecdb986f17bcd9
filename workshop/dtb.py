"""A guest's device tree: QEMU's own tree for the machine (-machine
dumpdtb=), decompiled with dtc, edited as `[NAME]` of config/dtb.toml
says (EDITS[edit]), compiled again.  The one edit so far gives the guest
heterogeneous CPU PMUs, as big.LITTLE boards describe them:
one PMU node per cluster, each on its own CPUs, the PMU's PPI split
between them by GICv3 `ppi-partitions` (which needs a 4th cell, the
partition, in every GIC interrupt specifier).

The edit works on dtc's output, which has one property per line, cells
in hex, and plain numbers as phandles."""
import os
import re

from workshop import qemu
from workshop.proc import run

CELL = r'0x[0-9a-f]+'


def cells(text):
    return [int(c, 16) for c in re.findall(CELL, text)]


def fmt(cs):
    return '<%s>' % ' '.join('0x%02x' % c for c in cs)


def node_span(lines, pattern):
    """(first, last) line indexes of the first node whose header matches
    PATTERN (a regex on the line), last being its closing '};'."""
    for i, l in enumerate(lines):
        if re.match(r'\s*%s\s*\{$' % pattern, l):
            depth = 0
            for j in range(i, len(lines)):
                depth += lines[j].count('{') - lines[j].count('}')
                if depth == 0:
                    return i, j
    raise ValueError('no node %r in the tree' % pattern)


def prop(lines, span, name):
    """Line index of property NAME directly in the node SPAN (not in
    its children)."""
    first, last = span
    depth = 0
    for i in range(first + 1, last):
        depth += lines[i].count('{') - lines[i].count('}')
        if depth == 0 and re.match(r'\s*%s = ' % re.escape(name), lines[i]):
            return i
    return None


def gic(lines):
    for i, l in enumerate(lines):
        if '"arm,gic-v3"' in l:
            # the node whose compatible this is
            for j in range(i, -1, -1):
                if lines[j].rstrip().endswith('{'):
                    name = lines[j].strip()[:-1].strip()
                    return node_span(lines, re.escape(name))
    raise ValueError('no GICv3 in the tree (the machine needs gic-version=3)')


def big_little(dts, spec):
    """DTS with the `pmu` node replaced by one node per entry of
    spec['pmus'] ({compatible, cpus}), their interrupts on partitions
    of the old node's PPI."""
    lines = dts.splitlines()
    g = gic(lines)
    gphandle = cells(lines[prop(lines, g, 'phandle')])[0]
    ic = prop(lines, g, '#interrupt-cells')
    if cells(lines[ic]) != [3]:
        raise ValueError('GIC #interrupt-cells is not 3: %s' % lines[ic].strip())
    gaddr = cells(lines[prop(lines, g, '#address-cells')])[0]
    # Every specifier of the GIC gets a 4th cell, 0: no partition.
    for i, l in enumerate(lines):
        m = re.match(r'(\s*)interrupts = (<[^>]*>);$', l)
        if m:
            c = cells(m.group(2))
            if len(c) % 3:
                raise ValueError('interrupts of %d cells: %s' % (len(c), l.strip()))
            c = sum(([*c[k:k + 3], 0] for k in range(0, len(c), 3)), [])
            lines[i] = '%sinterrupts = %s;' % (m.group(1), fmt(c))
        m = re.match(r'(\s*)interrupt-map = (<[^>]*>);$', l)
        if m:
            lines[i] = '%sinterrupt-map = %s;' % (m.group(1), fmt(_map(lines, i, cells(m.group(2)),
                                                                     gphandle, gaddr)))
    lines[ic] = re.sub(r'<.*>', '<0x04>', lines[ic])
    # The CPUs' phandles, by number.
    cpus = {}
    for i, l in enumerate(lines):
        m = re.match(r'\s*cpu@([0-9a-f]+) \{$', l)
        if m:
            ph = prop(lines, node_span(lines, 'cpu@%s' % m.group(1)), 'phandle')
            cpus[int(m.group(1), 16)] = cells(lines[ph])[0]
    p = node_span(lines, 'pmu')
    old = cells(lines[prop(lines, p, 'interrupts')])
    if old[0] != 1:
        raise ValueError('the PMU interrupt is not a PPI: %s' % old)
    base = max(cells(' '.join(l for l in lines if 'phandle = ' in l))) + 1
    parts, pmus = ['', '\t\tppi-partitions {'], []
    for n, pm in enumerate(spec['pmus']):
        missing = [c for c in pm['cpus'] if c not in cpus]
        if missing:
            raise ValueError('no cpu@%s in the tree (more -smp?)' % missing)
        parts += ['\t\t\tinterrupt-partition-%d {' % n,
                  '\t\t\t\tphandle = %s;' % fmt([base + n]),
                  '\t\t\t\taffinity = %s;' % fmt([cpus[c] for c in pm['cpus']]),
                  '\t\t\t};']
        name = pm['compatible'].split(',')[-1]
        pmus += ['\t%s {' % name,
                 '\t\tinterrupts = %s;' % fmt(old[:3] + [base + n]),
                 '\t\tcompatible = "%s";' % pm['compatible'],
                 '\t};', '']
    parts.append('\t\t};')
    lines[g[1]:g[1]] = parts
    p = node_span(lines, 'pmu')
    lines[p[0]:p[1] + 2] = pmus
    return '\n'.join(lines) + '\n'


def _map(lines, at, c, gphandle, gaddr):
    """An interrupt-map's cells with a 0 after each entry's GIC specifier.
    An entry: child unit address, child interrupt specifier, the parent's
    phandle, its unit address (the GIC's #address-cells), 3 cells."""
    n = at
    while not lines[n].rstrip().endswith('{'):
        n -= 1
    span = (n, len(lines) - 1)
    child = cells(lines[prop(lines, span, '#address-cells')])[0] + \
        cells(lines[prop(lines, span, '#interrupt-cells')])[0]
    size = child + 1 + gaddr + 3
    if len(c) % size:
        raise ValueError('interrupt-map of %d cells, entries of %d' % (len(c), size))
    out = []
    for k in range(0, len(c), size):
        e = c[k:k + size]
        if e[child] != gphandle:
            raise ValueError('interrupt-map entry to phandle %#x, not the GIC' % e[child])
        out += e + [0]
    return out


EDITS = {'big-little': big_little}


def make(a, machine, boot, name, spec, out):
    """OUT (a .dtb, with its .dts beside it): QEMU's tree for A's machine
    with BOOT's -smp and -m, edited by the edit SPEC names."""
    os.makedirs(os.path.dirname(out), exist_ok=True)
    raw = out + '.qemu'
    run([a.qemu, '-M', '%s,dumpdtb=%s' % (machine, raw), '-cpu', a.cpu,
         '-smp', qemu.smp(boot), '-m', boot.get('mem', '2G'),
         '-nodefaults', '-display', 'none'])
    dts = run(['dtc', '-q', '-I', 'dtb', '-O', 'dts', raw], capture=True)
    edited = EDITS[spec['edit']](dts, spec)
    with open(out[:-4] + '.dts', 'w') as f:
        f.write(edited)
    run(['dtc', '-q', '-I', 'dts', '-O', 'dtb', '-o', out, out[:-4] + '.dts'])
    os.unlink(raw)
    return out
