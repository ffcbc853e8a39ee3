#!/usr/bin/env python3
"""Fail when a tracked file of the repository names something outside it.

Two kinds of reference are errors (a lone clone must work and read on its own):
  * a relative path that climbs out of the repository: one that goes up into a sibling `shared`
    folder anywhere, or any up-path that, resolved against the directory of the file holding it,
    leaves the root;
  * an absolute path of a development machine: one that starts with a DEV_ROOTS directory (work,
    home, Users, root, mnt, scratch, data, opt) followed by a name (also inside `file://` URIs).
System paths a tool or test may name on purpose (`/usr/bin/env`, `/dev/null`, `/tmp/...`,
`/proc/self`, `/etc/os-release`, ...) are not in that list, so they need no allow-list entry; the
ALLOW list below holds the few exact strings under a development prefix that are allowed, each
with its reason.

Files come from `git ls-files` when ROOT is a git work tree, else from a walk of ROOT that skips
build directories and VCS metadata.  Usage: check.py ROOT [--self-test]
"""
import os
import re
import subprocess
import sys

DEV_ROOTS = ("work", "home", "Users", "root", "mnt", "scratch", "data", "opt")
ABSOLUTE = re.compile(r"(?:(?<=file://)|(?<![\w.~/:-]))/(?:%s)/[\w.-]" % "|".join(DEV_ROOTS))
UPWARD = re.compile(r"(?<![\w.])((?:\.\./)+)([\w.-]*)")
# Exact substrings allowed despite matching, with why.  Keep this short.
ALLOW = {
    # opt is where CANN and LLVM install; naming the install location of a dependency is not
    # a reference to a development machine.
    "/opt/llvm": "LLVM's install prefix in scripts/install-deps.sh notes",
    "/opt/homebrew": "Homebrew's prefix (macOS dependency hints)",
    "/opt/ascend": "CANN's documented install prefix",
    "/opt/Ascend": "CANN's documented install prefix",
}
SKIP_DIRS = {".git", ".hg", ".svn", "__pycache__"}


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
        inside = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"], check=True,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
        if os.path.realpath(inside.decode().strip()) == os.path.realpath(root):
            return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p], "git"
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        dirnames[:] = sorted(d for d in dirnames
                             if d not in SKIP_DIRS and not d.startswith("build")
                             and not os.path.exists(os.path.join(dirpath, d, "CMakeCache.txt")))
        for f in sorted(filenames):
            files.append(os.path.normpath(os.path.join(rel, f)))
    return files, "walk"


def allowed(line, start):
    return any(line.startswith(a, start) for a in ALLOW)


def problems_in(rel, text):
    found = []
    depth = len(os.path.dirname(rel).split("/")) if os.path.dirname(rel) else 0
    for n, line in enumerate(text.split("\n"), 1):
        for m in ABSOLUTE.finditer(line):
            if not allowed(line, m.start()):
                found.append((n, "absolute path", line[m.start():m.start() + 40].split()[0]))
        for m in UPWARD.finditer(line):
            ups = m.group(1).count("../")
            name = m.group(2)
            if name.startswith("shared") or ups > depth:
                found.append((n, "path outside the repository", m.group(0)))
    return found


def check(root):
    files, how = tracked_files(root)
    bad = 0
    for rel in files:
        path = os.path.join(root, rel)
        if os.path.islink(path) or not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            data = f.read()
        text = data.decode("utf-8", "replace")
        for n, what, frag in problems_in(rel, text):
            print("%s:%d: %s: %s" % (rel, n, what, frag))
            bad += 1
    print("self_contained: %d files (%s), %d reference%s outside the repository"
          % (len(files), how, bad, "" if bad == 1 else "s"))
    return 1 if bad else 0


def self_test():
    """The patterns themselves: each case must be found (True) or not (False)."""
    # The cases are spelled in pieces (UP, W, H, O) so that this file passes its own check.
    UP, W, H, O = "..", "/" + "work", "/" + "home", "/" + "opt"
    cases = [
        ("a/b.c", "see " + UP + "/shared/spec/model.md", True),
        ("a/b.c", "see " + UP + "/" + UP + "/spec/model.md", True),   # a/ + two ups leaves the root
        ("a/b/c.c", "see " + UP + "/" + UP + "/docs/model.md", False),  # stays inside
        ("x.md", "#include \"" + UP + "/x.h\"", True),
        ("x.py", "ROOT=" + W + "/main/examples", True),
        ("x.bin", "\"uri\": \"file://" + W + "/main/a.py\"", True),
        ("x.sh", "cd " + H + "/alice/poolcheck", True),
        ("x.sh", "#!/usr/bin/env bash", False),
        ("x.sh", "exec >/dev/null 2>&1", False),
        ("x.c", "mkdtemp(\"/tmp/pc.XXXXXX\")", False),
        ("x.md", "https://github.com/hicann/pypto" + W + "/x", False),
        ("x.c", "p = \"" + W + "/x\"", True),
        ("x.c", "ratio" + W + "/x", False),
        ("x.md", "LLVM in " + O + "/llvm-19/bin", False),
        ("x.md", "in " + O + "/mystuff/bin", True),
    ]
    failed = 0
    for rel, line, want in cases:
        got = bool(problems_in(rel, line))
        if got != want:
            print("self-test: %r in %s: found=%s, expected %s" % (line, rel, got, want))
            failed += 1
    print("self_contained self-test: %d of %d cases wrong" % (failed, len(cases)))
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: check.py ROOT [--self-test]")
    if "--self-test" in sys.argv[2:]:
        sys.exit(self_test())
    sys.exit(check(os.path.abspath(sys.argv[1])))
