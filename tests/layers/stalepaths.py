#!/usr/bin/env python3
"""stalepaths: every path of the tree that a comment or a page names exists.

A file moves (kdump/curlfn.c to bootlib/), a folder gets rooms (gen/sink.h
is gen/archive/sink.h now), and the comments and docs that point to it go
on naming the old place. Read here, in the sources, scripts and pages:
  - FOLDER/.../NAME.EXT (EXT: c h md sh py scd) whose first folder is one
    of the tree's: the file must exist;
  - FOLDER/NAME without an extension, under a folder of the programs
    ("gen/ls", "bootlib/coldplug"): a file NAME.* or a folder NAME must;
  - a page's section, PAGE.md, "HEADING" (docs/kdump.md, "A corrupt dump"):
    one of the page's headings must hold those words.
A record of the past keeps the old name with the new one beside it:
"resume/mountinfo.c (now common/mountinfo.c)" passes, the new name checked.
Left alone: includes (the layer check reads those), names with a
placeholder in capitals (tests/fuzz/fuzz_NAME.c), globs (net/iscsi*.[ch])
and the kernel's own paths in OUTSIDE.
Usage: stalepaths.py [TREE]   (prints each stale pointer; exit 1 when any)
"""
import functools
import os
import re
import sys

SUFFIXES = ('.c', '.h', '.md', '.scd', '.sh', '.py')
PROGRAM_DIRS = ('gen', 'init', 'bootlib', 'common', 'net', 'blockstack', 'kdump',
                'resume', 'fsck', 'rescue', 'shutdown', 'remote', 'clevis')
PATH = re.compile(r'(?<![\w./*-])((?:[\w.-]+/)+[\w.-]*\w\.(?:c|h|md|sh|py|scd))(?![\w*])')
STEM = re.compile(r'(?<![\w./*-])((?:%s)/(?:\w+/)*\w+)(?![\w.*/-])' % '|'.join(PROGRAM_DIRS))
PLACEHOLDER = re.compile(r'[A-Z]{3,}|/x\.')
SECTION = re.compile(r'(?<![\w.-])((?:docs/)?[\w-]+\.md),? "([^"]+)"')
# Paths of the kernel's tree that read like ours (module paths a test loads).
OUTSIDE = {'net/core/failover'}
# The layer check's own files name planted, missing files on purpose.
SKIP = ('tests/layers/', 'tests/fuzz/seeds/')


def texts(tree):
    for d, dirs, files in os.walk(tree):
        dirs[:] = sorted(x for x in dirs if not x.startswith(('.', 'build')))
        for f in sorted(files):
            path = os.path.relpath(os.path.join(d, f), tree)
            if f.endswith(SUFFIXES) and not path.startswith(SKIP):
                yield path


def exists(tree, path, stem):
    if os.path.exists(os.path.join(tree, path)):
        return True
    folder, name = os.path.split(os.path.join(tree, path))
    return stem and os.path.isdir(folder) and any(
        f.startswith(name + '.') for f in os.listdir(folder))


@functools.lru_cache(maxsize=None)
def headings(tree, page):
    """The headings of docs/PAGE, lower case; None when there is no such page."""
    try:
        lines = open(os.path.join(tree, 'docs', page)).read().splitlines()
    except OSError:
        return None
    return [h.lstrip('#').strip().lower() for h in lines if h.startswith('#')]


def stale_sections(tree, path, n, line):
    errors = []
    for m in SECTION.finditer(line):
        page, words = os.path.basename(m.group(1)), m.group(2)
        found = headings(tree, page)
        if found is not None and not any(words.lower() in h for h in found):
            errors.append(f'{path}:{n} names the section "{words}" of docs/{page}, which has no '
                          f'heading of those words: name the section as it is now')
    return errors


def stale_in(tree, path, tops, bases):
    """The stale pointers of one file, as messages."""
    errors = []
    text = open(os.path.join(tree, path), errors='replace').read()
    for n, line in enumerate(text.splitlines(), 1):
        # Every pointer has a '/' (PATH, STEM) or '.md' (SECTION): most
        # lines have neither, and the three searches are the check's cost.
        if ('/' not in line and '.md' not in line) or re.match(r'\s*#\s*include', line):
            continue
        errors += stale_sections(tree, path, n, line)
        found = [(m, False) for m in PATH.finditer(line)]
        found += [(m, True) for m in STEM.finditer(line)]
        for m, stem in found:
            name = m.group(1)
            if (line.startswith(' (now ', m.end()) or name.split('/')[0] not in tops or name in OUTSIDE or PLACEHOLDER.search(name)
                    or exists(tree, os.path.normpath(name), stem)):
                continue
            moved = bases.get(os.path.basename(name) + ('.c' if stem else ''), [])
            hint = f' (a file of that name is at {" ".join(moved)})' if moved else ''
            errors.append(f'{path}:{n} names {name}, which is not in the tree: name the file '
                          f'where it is now, or drop the pointer{hint}')
    return errors


def errors(tree):
    tops = {d for d in os.listdir(tree) if os.path.isdir(os.path.join(tree, d))
            and not d.startswith(('.', 'build'))}
    files = list(texts(tree))
    bases = {}
    for d, dirs, names in os.walk(tree):
        dirs[:] = [x for x in dirs if not x.startswith(('.', 'build'))]
        for f in names:
            bases.setdefault(f, []).append(os.path.relpath(os.path.join(d, f), tree))
    problems = []
    for path in files:
        problems += stale_in(tree, path, tops, bases)
    return problems, f'{len(files)} files\' pointers'


def main():
    problems, _ = errors(sys.argv[1] if len(sys.argv) > 1 else '.')
    for p in problems:
        print('stalepaths: ' + p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
