#!/usr/bin/env python3
"""featuremap: docs/architecture.md's feature -> files map, read and checked.

The map is the ```features block: one line a feature and a kind of file,
    FEATURE  KIND  PATH...
KIND says what the paths are and where they must be (KINDS below). A path
is a file or a shell glob inside one folder (*, ?, [ch]: "net/dhcp6*.[ch]");
a path ending in "/" is a folder and everything under it. A feature may
have several lines of a kind; a file may be in several features. Lines
starting with "#" are comments.

Checked (errors(), called by check-layers.py):
  - every source file of the programs (*.c, *.h outside tests/) and every
    unit test, fuzz target and boot case file is in at least one feature;
  - every path a line names matches a file, and lies where its kind says;
  - every line has a known kind.

Usage: featuremap.py [--tree TREE] FEATURE...   the files of those features
       featuremap.py [--tree TREE] --of PATH... the features a file is in
       featuremap.py [--tree TREE] --list       every feature, with its count
"""
import glob
import os
import re
import sys

# kind: (what it is, the folders its paths must be under)
KINDS = {
    'code': ('the image\'s side and common/', None),
    'gen': ('the generator', ('gen/',)),
    'docs': ('documentation', ('docs/', 'README.md', 'tests/README.md')),
    'unit': ('cmocka unit tests and their fixtures', ('tests/unit/',)),
    'fuzz': ('libFuzzer targets, seeds, dictionaries', ('tests/fuzz/',)),
    'boot': ('qemu boot case files and their helpers', ('tests/boot/',)),
    'tests': ('other tests: distribution, package, benchmarks', ('tests/',)),
    'dist': ('packaging and installed hooks', ('dist/', 'debian/')),
}
# The tests that must be in a feature (beside every source file outside tests/).
TEST_FILES = (('tests/unit/', 'test_', '.c'), ('tests/fuzz/', 'fuzz_', '.c'),
              ('tests/boot/', 'cases', '.sh'))


class Line:
    def __init__(self, number, feature, kind, paths):
        self.number, self.feature, self.kind, self.paths = number, feature, kind, paths


def read_map(tree):
    """The block's lines, or None when docs/architecture.md has none."""
    text = open(os.path.join(tree, 'docs/architecture.md')).read()
    block = re.search(r'^```features\n(.*?)^```', text, re.S | re.M)
    if not block:
        return None
    first = text.count('\n', 0, block.start(1)) + 1
    lines = []
    for i, raw in enumerate(block.group(1).splitlines()):
        words = raw.split('#', 1)[0].split()
        if words:
            lines.append(Line(first + i, words[0], words[1] if len(words) > 1 else '',
                              words[2:]))
    return lines


def expand(tree, path):
    """The files a path names: itself, its glob's matches, or a folder's files."""
    if path.endswith('/'):
        found = []
        for d, dirs, files in os.walk(os.path.join(tree, path)):
            dirs.sort()
            found += sorted(os.path.relpath(os.path.join(d, f), tree) for f in files)
        return found
    return sorted(p for p in glob.glob(path, root_dir=tree)
                  if os.path.isfile(os.path.join(tree, p)))


def must_be_mapped(tree, sources):
    """Every source file outside tests/, and the test files of TEST_FILES."""
    wanted = [s for s in sources if not s.startswith('tests/')]
    for folder, prefix, suffix in TEST_FILES:
        if os.path.isdir(os.path.join(tree, folder)):
            wanted += [folder + f for f in os.listdir(os.path.join(tree, folder))
                       if f.startswith(prefix) and f.endswith(suffix)]
    return sorted(wanted)


def kind_of(path):
    """The kind a file would have in the map, for the message that asks to add it."""
    for kind in ('gen', 'unit', 'fuzz', 'boot'):
        if any(path.startswith(p) for p in KINDS[kind][1]):
            return kind
    return 'code'


def line_errors(tree, line):
    """What is wrong with one line, and the files it names."""
    where = f'docs/architecture.md:{line.number}: feature {line.feature}'
    if line.kind not in KINDS:
        return [f'{where}: kind "{line.kind}" is none of {" ".join(KINDS)} '
                f'(a line is FEATURE KIND PATH...)'], []
    errors, files = [], []
    places = KINDS[line.kind][1]
    for path in line.paths:
        matched = expand(tree, path)
        if not matched:
            errors.append(f'{where} names {path}, which matches no file: take it off '
                          f'that line, or name the file that replaced it')
        elif places and not path.startswith(places):
            errors.append(f'{where} names {path} as {line.kind}, whose files are under '
                          f'{" or ".join(places)}: move it to the line of its kind')
        elif not places and path.startswith(('gen/', 'tests/', 'docs/', 'dist/')):
            errors.append(f'{where} names {path} as code, which is the init\'s side '
                          f'and common/: move it to the line of its kind')
        files += matched
    return errors, files


def stem(path):
    """A file's subject: its name without folder, extension, the test
    prefixes and separators (tests/unit/test_http_reply.c: httpreply)."""
    base = os.path.basename(path).split('.')[0]
    for prefix in ('test_', 'fuzz_', 'cases-', 'cases'):
        if base.startswith(prefix):
            base = base[len(prefix):]
            break
    return base.replace('_', '').replace('-', '')


def suggestion(path, owners):
    """The features of the mapped files whose subject shares the most of
    PATH's (four letters at least; a test is compared with every folder's
    files, a source with its own folder's): where a new file most likely
    belongs."""
    folder, subject = os.path.dirname(path), stem(path)
    best, features = 3, set()
    for other, feats in owners.items():
        if other == path or (not path.startswith('tests/') and os.path.dirname(other) != folder):
            continue
        n = len(os.path.commonprefix([subject, stem(other)]))
        if n > best:
            best, features = n, set(feats)
        elif n == best and features:
            features |= feats
    return sorted(features)


def errors(tree, sources):
    """Everything wrong with the map on this tree, and a one-line summary."""
    lines = read_map(tree)
    if lines is None:
        return ['docs/architecture.md has no ```features block (the feature -> files map)'], ''
    problems, owners = [], {}
    for line in lines:
        errs, files = line_errors(tree, line)
        problems += errs
        for f in files:
            owners.setdefault(f, set()).add(line.feature)
    for path in must_be_mapped(tree, sources):
        if path not in owners:
            guess = suggestion(path, owners)
            hint = (f' (the files with the nearest names are in: {" ".join(guess)})'
                    if guess else '')
            problems.append(f'{path} is in no feature: add it to a line "FEATURE '
                            f'{kind_of(path)} ..." of docs/architecture.md\'s ```features '
                            f'block{hint}')
    features = {line.feature for line in lines}
    return problems, f'{len(features)} features map {len(owners)} files'


def features_of(lines, tree):
    mapped = {}
    for line in lines:
        if line.kind in KINDS:
            for path in line.paths:
                for f in expand(tree, path):
                    mapped.setdefault(line.feature, {}).setdefault(line.kind, []).append(f)
    return mapped


def main(args):
    tree = '.'
    if args[:1] == ['--tree']:
        tree, args = args[1], args[2:]
    lines = read_map(tree)
    if lines is None or not args:
        sys.exit(__doc__)
    mapped = features_of(lines, tree)
    if args[0] == '--list':
        for feature in sorted(mapped):
            print(f'{feature:16} {sum(map(len, mapped[feature].values()))} files')
    elif args[0] == '--of':
        for path in args[1:]:
            feats = sorted(f for f, kinds in mapped.items()
                           if any(path in files for files in kinds.values()))
            print(f'{path}: {" ".join(feats) if feats else "in no feature"}')
    else:
        for feature in args:
            if feature not in mapped:
                sys.exit(f'featuremap: no feature {feature} (--list shows them)')
            for kind, files in mapped[feature].items():
                print(f'{kind:5} ' + ' '.join(dict.fromkeys(files)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
