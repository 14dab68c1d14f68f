#!/usr/bin/env python3
"""check-layers: the include rules of docs/architecture.md, checked on the tree.

Reads the table in docs/architecture.md's ```layers block (one line a
folder: "FOLDER may use: FOLDER..."), then fails on:
  - an #include "DIR/..." from a folder into one its line does not list
    (an include going up, or across components the layering does not allow);
  - an #include "..." that does not name its folder (every include is
    written from the top of the tree, "net/dhcp.h");
  - a cycle between top folders in the includes actually written;
  - a file base name used twice anywhere in the tree.
Usage: check-layers.py [TREE]   (prints what is wrong; exit 1 when anything is)
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


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
        dirs[:] = [x for x in dirs if not x.startswith('.') and x != 'build']
        for f in files:
            if f.endswith(('.c', '.h')):
                yield os.path.relpath(os.path.join(d, f), tree)


def main():
    tree = sys.argv[1] if len(sys.argv) > 1 else '.'
    rules = read_rules(tree)
    errors, edges, names = [], {}, {}
    for path in sorted(sources(tree)):
        top = path.split('/')[0]
        names.setdefault(os.path.basename(path), []).append(path)
        if top not in rules:
            errors.append(f'{path}: folder {top}/ has no line in docs/architecture.md\'s layers table')
            continue
        text = open(os.path.join(tree, path), errors='replace').read()
        for inc in INCLUDE.findall(text):
            target = inc.split('/')[0]
            if '/' not in inc or not os.path.exists(os.path.join(tree, inc)):
                errors.append(f'{path}: #include "{inc}" does not name a file from the top of the tree')
                continue
            if target not in rules[top]:
                errors.append(f'{path}: #include "{inc}": {top}/ may not use {target}/')
            if target != top:
                edges.setdefault(top, set()).add(target)
    for base, paths in sorted(names.items()):
        if len(paths) > 1:
            errors.append(f'base name {base} used {len(paths)} times: {" ".join(paths)}')
    cycle = find_cycle(edges)
    if cycle:
        errors.append('include cycle between folders: ' + ' -> '.join(cycle))
    for e in errors:
        print('check-layers: ' + e)
    if errors:
        print(f'check-layers: {len(errors)} problem(s); the rules are in docs/architecture.md')
        return 1
    print(f'check-layers: {len(list(sources(tree)))} files, {sum(map(len, edges.values()))} folder edges, no problem')
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
