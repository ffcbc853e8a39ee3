"""What the source-tree guards (tests/e2e/*/check.py) share: the C files of a tree, and the
self-test harness that plants files in a temporary tree and counts what the guard reports.

Each guard imports this from its parent folder (sys.path), so a new guard is one script."""
import os
import tempfile


def c_sources(root, tops, skip_dirs):
    """Paths relative to root of the .c and .h files under each of tops, in a stable order; a
    folder in skip_dirs (relative to root) is passed over with everything below it."""
    for top in tops:
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            rel_dir = os.path.relpath(d, root)
            if any(rel_dir == s or rel_dir.startswith(s + "/") for s in skip_dirs):
                dirs[:] = []
                continue
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.join(rel_dir, f)


def plant(tmp, files):
    """Write {relative path: text} under tmp."""
    for rel, body in files.items():
        os.makedirs(os.path.join(tmp, os.path.dirname(rel)), exist_ok=True)
        with open(os.path.join(tmp, rel), "w") as fh:
            fh.write(body)


def run_self_test(cases, base, problems):
    """cases: (name, {path: text}, how many problems) each; base: files every case has.  Each case
    is planted in a fresh temporary tree and problems(tree) must find exactly that many.
    Returns the exit status (1 when a case is wrong)."""
    failures = 0
    for name, extra, want in cases:
        with tempfile.TemporaryDirectory() as tmp:
            plant(tmp, {**base, **extra})
            got = problems(tmp)
            ok = len(got) == want
            print(f"self-test {name}: {'ok' if ok else 'WRONG'} ({got})")
            failures += not ok
    return 1 if failures else 0


def report(found, what, ok_line):
    """Print each problem, then `N place(s) <what>` and return 1; or print ok_line and return 0."""
    for p in found:
        print(p)
    if found:
        print(f"{len(found)} place(s) {what}")
        return 1
    print(ok_line)
    return 0
