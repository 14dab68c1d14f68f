#!/usr/bin/env python3
"""prefixes: the exported functions that do not carry their file's prefix.

A file's name predicts its functions' names (docs/architecture.md, gen/:
"its exported names carry its name as their prefix"): net/leaserace.c
exports leaserace_* or lease_race_*. Read from the objects (nm: the
functions, T and W, each object defines), a name carries its file's prefix
when, underscores aside, it begins with
  - the file's name (dumpsink.c: dump_sink_write),
  - the file's name before its first "_" (sink_gzip.c: sink_gzip_codec, sink_*),
  - the name of the header it implements, its first include (image_kinds.c
    implements gen/image/image.h: image_kind_name),
  - or the folder's name and the file's (rescue/report.c: rescue_report_write).
main() and the fuzz entry points are left out, and so are tests/.
Usage: prefixes.py OBJDIR [TREE]   (prints "FILE.c NAME" a line, a count on stderr)
"""
import os
import re
import subprocess
import sys


def exported(objdir):
    """(source path without .c, function name) for every object under objdir."""
    found = []
    for d, _, files in os.walk(objdir):
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(d, f), objdir)
            if not f.endswith('.o') or rel.startswith('tests/'):
                continue
            out = subprocess.run(['nm', '-g', '--defined-only', os.path.join(d, f)],
                                 capture_output=True, text=True, check=True).stdout
            found += [(rel[:-2], w[2]) for w in (line.split() for line in out.splitlines())
                      if len(w) == 3 and w[1] in 'TW']
    return found


def prefixes(tree, src):
    base = os.path.basename(src)
    names = {base, base.split('_')[0], os.path.dirname(src).split('/')[-1] + base}
    try:
        first = re.search(r'#\s*include\s+"([^"]+)\.h"', open(os.path.join(tree, src + '.c')).read())
    except OSError:
        first = None
    if first:
        names.add(os.path.basename(first.group(1)))
    return {n.replace('_', '') for n in names}


def carries(tree, src, name):
    if name == 'main' or name.startswith('LLVMFuzzer'):
        return True
    flat = name.replace('_', '')
    return any(flat.startswith(p) for p in prefixes(tree, src))


def main(args):
    if not args:
        sys.exit(__doc__)
    objdir, tree = args[0], args[1] if len(args) > 1 else '.'
    functions = exported(objdir)
    off = sorted((src, name) for src, name in functions if not carries(tree, src, name))
    for src, name in off:
        print(f'{src}.c {name}')
    print(f'prefixes: {len(off)} of {len(functions)} exported functions without their '
          f'file\'s prefix', file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
