#!/usr/bin/env python3
"""docs_console: every console example of README.md and docs/**/*.md runs and prints what it shows.

    check_console.py ROOT BIN_DIR [FILE.md...]      (default: README.md and docs/**/*.md of ROOT)

The convention (docs/dev/writing-docs.md says it for writers):

- Every fenced block names what it is after the opening fence.  A block without a name is an error,
  so that nothing is skipped without a word.
- ```console blocks are run.  A line starting with "$ " is a command; the lines after it, up to the
  next command or the end of the block, are its expected output: stdout and stderr interleaved, as
  a terminal shows them.  Blank lines at the end of a command's output are ignored; others count.
  A line that is exactly "..." (indentation allowed) stands for any number of lines, also none;
  "..." inside a line stands for any text within that line (a path, a timing).  Trailing blanks
  are ignored.
- Commands run with bash in ROOT, with BIN_DIR first on PATH (so `poolcheck` is the build's) and
  `build/bin/` replaced by BIN_DIR/, NO_COLOR=1, LC_ALL=C.UTF-8 and no POOLCHECK_* variables
  other than POOLCHECK_STUB_DIR.  ```console in=files runs them instead in a fresh directory of the
  page holding each block marked file=NAME (```python file=k.py), written before the page's first
  command; the page's commands share it, in order.
- Blocks of any other kind (```text, ```sh, ```python, ...) are not run; a line starting with "$ "
  in one is an error (a transcript that is not checked).  ```text is for illustrative output,
  ```sh for commands the reader types that a test cannot run (builds, installs).
- A command killed by a signal, not found (127) or not runnable (126) fails even where its output
  matches.  Each command has 60 s.

Exit 0 when every command matches and no block breaks the convention; otherwise 1, with each
failure as FILE:LINE, the command, and a diff of what the page shows against what it printed.
"""
import difflib
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

FENCE = re.compile(r"^(`{3,}|~{3,})(.*)$")
TIMEOUT = 60


class Block:
    def __init__(self, md, line, kind, attrs, lines):
        self.md, self.line, self.kind, self.attrs, self.lines = md, line, kind, attrs, lines


def parse(md, text, problems):
    """The fenced blocks of one page (CommonMark fences at the start of a line)."""
    out, cur = [], None
    for n, line in enumerate(text.split("\n"), 1):
        if cur is None:
            m = FENCE.match(line)
            if not m:
                continue
            words = m.group(2).split()
            attrs = {}
            for w in words[1:]:
                k, eq, v = w.partition("=")
                if not eq:
                    problems.append("%s:%d: '%s' after the fence is not NAME=VALUE" % (md, n, w))
                attrs[k] = v
            cur = (m.group(1), n, words[0] if words else "", attrs, [])
        elif line.startswith(cur[0][0] * len(cur[0])) and not line.strip(cur[0][0]).strip():
            out.append(Block(md, cur[1], cur[2], cur[3], cur[4]))
            cur = None
        else:
            cur[4].append(line)
    if cur is not None:
        problems.append("%s:%d: the fenced block is never closed" % (md, cur[1]))
    return out


def lint(b, problems):
    where = "%s:%d" % (b.md, b.line)
    if not b.kind:
        problems.append("%s: a fenced block without a name: write ```console for an example the test "
                        "runs, ```text for illustrative output, ```sh for commands it cannot run" % where)
        return
    allowed = {"in"} if b.kind == "console" else {"file"}
    for k in b.attrs:
        if k not in allowed:
            problems.append("%s: ```%s does not take '%s='" % (where, b.kind, k))
    if b.kind == "console":
        if b.attrs.get("in", "files") != "files":
            problems.append("%s: ```console in= takes only 'files'" % where)
        first = next((l for l in b.lines if l.strip()), None)
        if first is None or not first.startswith("$ "):
            problems.append("%s: a ```console block starts with a '$ ' command" % where)
    else:
        for i, l in enumerate(b.lines, 1):
            if l.startswith("$ "):
                problems.append("%s:%d: a '$ ' command in a ```%s block is not run: make the block "
                                "```console, or drop the prompt" % (b.md, b.line + i, b.kind))
                break
    name = b.attrs.get("file")
    if name is not None and (not name or name.startswith("/") or ".." in name.split("/")):
        problems.append("%s: file=%s must be a relative path inside the page's directory" % (where, name))


def commands(b):
    """[(line number, command, expected lines)] of a console block."""
    cmds = []
    for i, line in enumerate(b.lines, 1):
        if line.startswith("$ "):
            cmds.append((b.line + i, line[2:], []))
        elif cmds:
            cmds[-1][2].append(line)
    for c in cmds:  # a blank line before the next command separates examples
        while c[2] and not c[2][-1].strip():
            c[2].pop()
    return cmds


def line_matches(want, got):
    want, got = want.rstrip(), got.rstrip()
    if want == got:
        return True
    if "..." not in want:
        return False
    return re.fullmatch(".*?".join(re.escape(p) for p in want.split("...")), got, re.S) is not None


def matches(want, got):
    """Does got (lines) match want, where a '...' line matches any run of lines?"""
    memo = {}

    def m(i, j):
        if (i, j) not in memo:
            if i == len(want):
                r = j == len(got)
            elif want[i].strip() == "...":
                r = any(m(i + 1, k) for k in range(j, len(got) + 1))
            else:
                r = j < len(got) and line_matches(want[i], got[j]) and m(i + 1, j + 1)
            memo[(i, j)] = r
        return memo[(i, j)]

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * (len(want) + len(got)) + 100))
    return m(0, 0)


def pages(root, given):
    if given:
        return given
    found = [os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "**", "*.md"),
                                                         recursive=True)]
    return ["README.md"] + sorted(found)


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    root, bin_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    env = {k: v for k, v in os.environ.items() if not k.startswith("POOLCHECK_") or k == "POOLCHECK_STUB_DIR"}
    env.update(NO_COLOR="1", LC_ALL="C.UTF-8", PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
    problems, failures, ran, started = [], 0, 0, time.monotonic()
    for md in pages(root, sys.argv[3:]):
        with open(os.path.join(root, md), encoding="utf-8") as f:
            blocks = parse(md, f.read(), problems)
        for b in blocks:
            lint(b, problems)
        files = [b for b in blocks if "file" in b.attrs and b.attrs["file"]]
        consoles = [b for b in blocks if b.kind == "console"]
        if any("in" in b.attrs for b in consoles) and not files:
            problems.append("%s: a ```console in=files block but no block marked file=NAME" % md)
        scratch = None
        try:
            for b in consoles:
                cwd = root
                if "in" in b.attrs:
                    if scratch is None:
                        scratch = tempfile.mkdtemp(prefix="docs_console.")
                        for fb in files:
                            path = os.path.join(scratch, fb.attrs["file"])
                            os.makedirs(os.path.dirname(path), exist_ok=True)
                            with open(path, "w", encoding="utf-8") as out:
                                out.write("\n".join(fb.lines) + "\n")
                    cwd = scratch
                for line, cmd, want in commands(b):
                    run = re.sub(r"(?<![\w/.-])build/bin/", bin_dir + "/", cmd)
                    try:
                        p = subprocess.run(["bash", "-c", run], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT)
                        status, raw = p.returncode, p.stdout
                    except subprocess.TimeoutExpired as e:
                        status, raw = "timed out after %d s" % TIMEOUT, e.stdout or b""
                    got = raw.decode("utf-8", "replace").split("\n")
                    while got and not got[-1].strip():
                        got.pop()
                    ran += 1
                    broken = not isinstance(status, int) or status < 0 or status in (126, 127)
                    if broken or not matches(want, got):
                        failures += 1
                        diff = difflib.unified_diff(want, got, "shown in %s" % md, "printed", lineterm="", n=2)
                        print("%s:%d: $ %s\n  (exit %s%s; in the page a '...' line stands for any lines, '...' in a "
                              "line for any text)\n%s\n" % (
                            md, line, cmd, status, ", a crash or a missing command" if broken else "",
                            "\n".join(diff) if not matches(want, got) else "  (the output matches)"))
        finally:
            if scratch:
                shutil.rmtree(scratch, ignore_errors=True)
    for p in problems:
        print(p)
    print("docs_console: %d command%s in %.1f s, %d mismatch%s, %d block%s breaking the convention" % (
        ran, "" if ran == 1 else "s", time.monotonic() - started, failures, "" if failures == 1 else "es",
        len(problems), "" if len(problems) == 1 else "s"))
    return 1 if failures or problems or (not ran and not sys.argv[3:]) else 0


if __name__ == "__main__":
    sys.exit(main())
