#!/usr/bin/env python3
"""provides.py: does lifeboat's Provides keep every package that plugs into
initramfs-tools installable? (issue 38)

Reads Debian 12's and 13's Packages indexes (main, contrib, amd64) through
the configured mirror, each index checked against the suite's InRelease,
whose signature gpgv checks with Debian's archive keyring. Lists every
package whose Depends or Pre-Depends name initramfs-tools or its split
parts, and decides with dpkg's own version comparison
(dpkg --compare-versions) whether lifeboat's Provides, read from
debian/control, satisfies that relation; and that no Breaks or Conflicts of
another package hits what lifeboat provides (the other generators, which
conflict on purpose, aside).

Usage: provides.py CACHE_DIR [--table]
  prints one line per package and "N passed, N failed" last; --table prints
  the markdown rows of docs/distributions.md's table instead.
"""
import hashlib
import lzma
import os
import re
import subprocess
import sys
import urllib.request

SUITES = ("bookworm", "trixie")
COMPONENTS = ("main", "contrib")
TOOL_PARTS = ("initramfs-tools", "initramfs-tools-core", "initramfs-tools-bin")
# Generators that replace initramfs-tools as lifeboat does: their conflict
# with it is the switch, not a package lost.
GENERATORS = ("initramfs-tools", "initramfs-tools-core", "initramfs-tools-bin",
              "dracut", "dracut-core", "tiny-initramfs", "lifeboat")
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def mirror():
    """The first Debian URI apt is configured with (deb822 or one-line)."""
    for path in ("/etc/apt/sources.list.d/debian.sources", "/etc/apt/sources.list"):
        try:
            text = open(path, encoding="utf-8").read()
        except OSError:
            continue
        m = re.search(r"^URIs:\s*(\S+/debian)\s*$", text, re.M) or \
            re.search(r"^deb\s+(?:\[[^]]*\]\s+)?(\S+/debian)\s", text, re.M)
        if m:
            return m.group(1)
    return "http://deb.debian.org/debian"


def fetch(url, path):
    if not os.path.exists(path):
        with urllib.request.urlopen(url, timeout=60) as r, open(path + ".tmp", "wb") as f:
            f.write(r.read())
        os.rename(path + ".tmp", path)
    return open(path, "rb").read()


def verified_release(base, suite, cache):
    """InRelease's text, once gpgv says Debian's archive key signed it."""
    path = os.path.join(cache, suite + "-InRelease")
    fetch("%s/dists/%s/InRelease" % (base, suite), path)
    out = subprocess.run(["gpgv", "--keyring", KEYRING, path], capture_output=True, text=True)
    if out.returncode != 0:
        os.unlink(path)
        sys.exit("provides: %s/dists/%s/InRelease: the signature does not verify: %s"
                 % (base, suite, out.stderr.strip()))
    return open(path, encoding="utf-8").read()


def packages(base, suite, component, release, cache):
    name = "%s/binary-amd64/Packages.xz" % component
    m = re.search(r"^ ([0-9a-f]{64})\s+\d+\s+%s$" % re.escape(name), release.split("SHA256:")[1], re.M)
    if not m:
        sys.exit("provides: %s's InRelease lists no %s" % (suite, name))
    path = os.path.join(cache, "%s-%s-Packages.xz" % (suite, component))
    data = fetch("%s/dists/%s/%s" % (base, suite, name), path)
    if hashlib.sha256(data).hexdigest() != m.group(1):
        os.unlink(path)
        sys.exit("provides: %s %s: its SHA256 is not the one InRelease gives" % (suite, name))
    return lzma.decompress(data).decode("utf-8", "replace")


def stanzas(text):
    for block in text.split("\n\n"):
        fields, key = {}, None
        for line in block.split("\n"):
            if line[:1] in (" ", "\t") and key:
                fields[key] += " " + line.strip()
            elif ":" in line:
                key, value = line.split(":", 1)
                fields[key] = value.strip()
        if "Package" in fields:
            yield fields


RELATION = re.compile(r"^([a-z0-9][a-z0-9+.-]*)(?::\S+)?\s*(?:\(\s*(<<|<=|=|>=|>>)\s*([^)\s]+)\s*\))?")


def relation(text):
    m = RELATION.match(text.strip())
    return (m.group(1), m.group(2), m.group(3)) if m else (text.strip(), None, None)


def dpkg_holds(version, op, wanted):
    return subprocess.run(["dpkg", "--compare-versions", version, {"<<": "lt", "<=": "le", "=": "eq",
                           ">=": "ge", ">>": "gt"}[op], wanted]).returncode == 0


def our_provides():
    """name -> version (None: unversioned) from debian/control's Provides."""
    text = open(os.path.join(TOP, "debian/control"), encoding="utf-8").read()
    line = re.search(r"^Provides:(.*(?:\n .*)*)", text, re.M).group(1)
    provided = {}
    for item in line.replace("\n", " ").split(","):
        name, op, version = relation(item)
        provided[name] = version if op == "=" else None
    return provided


def satisfied(alternative, provided):
    name, op, version = relation(alternative)
    if name not in provided:
        return False
    if not op:
        return True
    # A versioned relation is met only by a versioned Provides (Debian policy 7.5).
    return provided[name] is not None and dpkg_holds(provided[name], op, version)


def check(provided, cache):
    base, rows, failed = mirror(), {}, []
    for suite in SUITES:
        release = verified_release(base, suite, cache)
        for component in COMPONENTS:
            for f in stanzas(packages(base, suite, component, release, cache)):
                judge(f, suite, provided, rows, failed)
    return rows, failed


def judge(f, suite, provided, rows, failed):
    pkg = f["Package"]
    if pkg in GENERATORS:
        # Another generator: its conflict is the switch; only a Breaks of a
        # version lifeboat provides would hold it (below).
        breaks_only = True
    else:
        breaks_only = False
        judge_depends(f, suite, provided, rows, failed)
    for field in ("Breaks",) if breaks_only else ("Breaks", "Conflicts"):
        for clause in f.get(field, "").split(","):
            name, op, version = relation(clause)
            if name in provided and op and provided[name] and dpkg_holds(provided[name], op, version):
                failed.append("%s (%s) %s %s, which lifeboat provides" % (pkg, suite, field, clause.strip()))


def judge_depends(f, suite, provided, rows, failed):
    pkg = f["Package"]
    for field in ("Depends", "Pre-Depends"):
        for clause in f.get(field, "").split(","):
            alts = [a.strip() for a in clause.split("|")]
            if not any(relation(a)[0] in TOOL_PARTS for a in alts):
                continue
            ok = any(satisfied(a, provided) for a in alts)
            rows.setdefault(pkg, []).append((suite, clause.strip(), ok))
            if not ok:
                failed.append("%s (%s): %s: %s" % (pkg, suite, field, clause.strip()))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cache = sys.argv[1]
    os.makedirs(cache, exist_ok=True)
    provided = our_provides()
    rows, failed = check(provided, cache)
    if "--table" in sys.argv:
        kernels = [p for p in rows if p.startswith("linux-image-")]
        if kernels:
            rows["linux-image-* (%d)" % len(kernels)] = [r for p in kernels for r in rows.pop(p)]
        for pkg in sorted(rows):
            suites = "/".join(sorted({s for s, _, _ in rows[pkg]}, key=SUITES.index))
            clauses = "; ".join(sorted({c for _, c, _ in rows[pkg]}))
            verdict = "met" if all(ok for _, _, ok in rows[pkg]) else "NOT met"
            print("| %s | %s | `%s` | %s |" % (pkg, suites, clauses, verdict))
        return 0
    for pkg in sorted(rows):
        for suite, clause, ok in rows[pkg]:
            print("deb: %s %s (%s): %s" % ("PASS" if ok else "FAIL", pkg, suite, clause))
    for line in failed:
        print("deb: FAIL %s" % line)
    passed = sum(ok for r in rows.values() for _, _, ok in r)
    print("%d passed, %d failed" % (passed, len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
