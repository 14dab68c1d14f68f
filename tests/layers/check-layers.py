#!/usr/bin/env python3
"""check-layers: the include rules of docs/architecture.md, checked on the tree.

Reads the table in docs/architecture.md's ```layers block (one line a
folder: "FOLDER may use: FOLDER..."), then fails on:
  - an #include "DIR/..." from a folder into one its line does not list
    (an include going up, or across components the layering does not allow);
  - an #include "..." that does not name its folder (every include is
    written from the top of the tree, "net/dhcp.h");
  - an #include <...> of one of the tree's own headers, and a path through
    ".." or "." (they would slip past the two rules above);
  - a cycle between top folders in the includes actually written;
  - a file base name used twice anywhere in the tree;
  - the feature -> files map (the ```features block, tests/layers/featuremap.py):
    a source or test file in no feature, a path that matches no file;
  - a comment or a page naming a path of the tree that is not there
    (tests/layers/stalepaths.py);
  - with --objects DIR (the build's object tree, DIR/FOLDER/...o): an object
    that uses a symbol another folder's object defines where its line does
    not list that folder. This is what the linker reads: a function declared
    by hand, with no include at all, is caught here.
Usage: check-layers.py [--objects DIR] [TREE]   (prints what is wrong; exit 1 when anything is)
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True   # no __pycache__ left in the tree
import featuremap  # noqa: E402  (beside this file)
import stalepaths  # noqa: E402

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
ANGLE_INCLUDE = re.compile(r'^\s*#\s*include\s+<([^>]+)>', re.M)


def read_rules(tree):
    text = open(os.path.join(tree, 'docs/architecture.md')).read()
    block = re.search(r'```layers\n(.*?)```', text, re.S)
    if not block:
        sys.exit('check-layers: docs/architecture.md has no ```layers block')
    rules = {}
    for line in block.group(1).splitlines():
        m = re.match(r'\s*(\S+)\s+may use:\s*(.*)$', line)
        if m:
            rules[m.group(1)] = set(m.group(2).split()) | {m.group(1)}
    return rules


def sources(tree):
    for d, dirs, files in os.walk(tree):
        dirs[:] = [x for x in dirs if not x.startswith(('.', 'build'))]
        for f in files:
            if f.endswith(('.c', '.h')):
                yield os.path.relpath(os.path.join(d, f), tree)


def include_errors(tree, rules, path, top, text, edges):
    """What is wrong with one file's includes; adds its folder edges."""
    errors = []
    for inc in ANGLE_INCLUDE.findall(text):
        if folder_of(inc, rules) in rules and os.path.exists(os.path.join(tree, inc)):
            errors.append(f'{path}: #include <{inc}> is one of the tree\'s own headers: '
                          f'write it "{inc}", so its folder is checked')
    for inc in INCLUDE.findall(text):
        target = folder_of(inc, rules)
        if ('/' not in inc or os.path.normpath(inc) != inc
                or not os.path.exists(os.path.join(tree, inc))):
            errors.append(f'{path}: #include "{inc}" does not name a file from the top of the tree')
            continue
        if target not in rules[top]:
            errors.append(f'{path}: #include "{inc}": {top}/ may not use {target}/')
        if target != top:
            edges.setdefault(top, set()).add(target)
    return errors


def object_symbols(objdir, tree):
    """{object path: (defined globals, undefined symbols)} from nm, for the
    objects whose source is in the tree (not those of removed files)."""
    objs = {}
    for d, _, files in os.walk(objdir):
        for f in files:
            obj = os.path.relpath(os.path.join(d, f), objdir)
            if f.endswith('.o') and os.path.exists(os.path.join(tree, obj[:-2] + '.c')):
                objs[obj] = (set(), set())
    if not objs:
        sys.exit(f'check-layers: no objects under {objdir}: build first (make)')
    out = subprocess.run(['nm', '-A', '-g'] + sorted(os.path.join(objdir, o) for o in objs),
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        m = re.match(r'(.*\.o):\s*(?:[0-9a-f]+)?\s+([A-Za-z])\s+(\S+)$', line)
        if m:
            defined, undefined = objs[os.path.relpath(m.group(1), objdir)]
            (undefined if m.group(2) == 'U' else defined).add(m.group(3))
    return objs


def link_errors(objdir, tree, rules):
    """Uses of another folder's symbols that its line does not allow."""
    objs = object_symbols(objdir, tree)
    # The programs' folders define symbols; tests/ only stands in for them
    # (a unit test's own log_warn), so its definitions are not a place.
    where = {}
    for obj, (defined, _) in objs.items():
        if not obj.startswith('tests/'):
            for sym in defined:
                where.setdefault(sym, set()).add(folder_of(obj, rules))
    errors = []
    for obj, (_, undefined) in sorted(objs.items()):
        top = folder_of(obj, rules)
        if top not in rules:
            continue
        for sym in sorted(undefined):
            targets = where.get(sym, set())
            if targets and not targets & rules[top]:
                target = sorted(targets)[0]
                errors.append(f'{obj} uses {sym} of {target}/: {top}/ may not use {target}/')
    return errors, len(objs)


def folder_of(path, rules):
    """The row a file or object belongs to: the longest row name that is
    its folder or a folder above it (gen/cmd/build.c: gen/cmd; gen/x.c: gen)."""
    parts = path.split('/')[:-1]
    for n in range(len(parts), 0, -1):
        name = '/'.join(parts[:n])
        if name in rules:
            return name
    return parts[0] if parts else path


def main():
    args = sys.argv[1:]
    objdir = None
    if args[:1] == ['--objects']:
        objdir, args = args[1], args[2:]
    tree = args[0] if args else '.'
    rules = read_rules(tree)
    errors, edges, names = [], {}, {}
    for path in sorted(sources(tree)):
        top = folder_of(path, rules)
        names.setdefault(os.path.basename(path), []).append(path)
        if top not in rules:
            errors.append(f'{path}: folder {top}/ has no line in docs/architecture.md\'s layers table')
            continue
        text = open(os.path.join(tree, path), errors='replace').read()
        errors += include_errors(tree, rules, path, top, text, edges)
    for base, paths in sorted(names.items()):
        if len(paths) > 1:
            errors.append(f'base name {base} used {len(paths)} times: {" ".join(paths)}')
    cycle = find_cycle(edges)
    if cycle:
        errors.append('include cycle between folders: ' + ' -> '.join(cycle))
    mapped, features = featuremap.errors(tree, list(sources(tree)))
    errors += mapped
    errors += stalepaths.errors(tree)[0]
    nobjs = 0
    if objdir:
        link, nobjs = link_errors(objdir, tree, rules)
        errors += link
    for e in errors:
        print('check-layers: ' + e)
    if errors:
        print(f'check-layers: {len(errors)} problem(s); the rules are in docs/architecture.md')
        return 1
    linked = f', {nobjs} objects\' symbols' if objdir else ''
    print(f'check-layers: {len(list(sources(tree)))} files, {sum(map(len, edges.values()))} '
          f'folder edges{linked}, {features}, no problem')
    return 0


def find_cycle(edges):
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(edges.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(edges):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


if __name__ == '__main__':
    sys.exit(main())
