#!/usr/bin/env python3
"""readme_console: every ```console block of the README runs and prints what it shows.

    check_console.py ROOT BIN_DIR FILE.md...

In a ```console block a line starting with "$ " is a command; the lines after it, up to the next
command or the end of the block, are its expected output (stdout and stderr as a terminal shows
them, i.e. interleaved).  A line that is exactly "..." stands for any number of lines (also
none).  Commands run with bash in ROOT (the source tree), `build/bin/` replaced by BIN_DIR/ so
that the test uses the binaries of the build under test.  Trailing blanks are ignored; a
command's blank output lines count.  Exit 0 when every command matches.
"""
import os
import re
import subprocess
import sys


def blocks(text):
    """(line number, [lines]) of each ```console block."""
    out, cur, start = [], None, 0
    for n, line in enumerate(text.split("\n"), 1):
        if cur is None and re.match(r"^```console\s*$", line):
            cur, start = [], n
        elif cur is not None and line.startswith("```"):
            out.append((start, cur))
            cur = None
        elif cur is not None:
            cur.append(line)
    return out


def commands(lines):
    cmds = []
    for line in lines:
        if line.startswith("$ "):
            cmds.append([line[2:], []])
        elif cmds:
            cmds[-1][1].append(line)
    for c in cmds:  # a blank line before the next command separates examples
        while c[1] and not c[1][-1].strip():
            c[1].pop()
    return cmds


def matches(want, got):
    """Does got (list of lines) match want, where a '...' line matches any run of lines?"""
    memo = {}

    def m(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(want):
            r = j == len(got)
        elif want[i].strip() == "...":
            r = any(m(i + 1, k) for k in range(j, len(got) + 1))
        else:
            r = j < len(got) and want[i].rstrip() == got[j].rstrip() and m(i + 1, j + 1)
        memo[(i, j)] = r
        return r

    return m(0, 0)


def main():
    root, bin_dir = sys.argv[1], os.path.abspath(sys.argv[2])
    env = dict(os.environ, NO_COLOR="1", LC_ALL="C.UTF-8", PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
    failures = ran = 0
    for md in sys.argv[3:]:
        with open(os.path.join(root, md), encoding="utf-8") as f:
            text = f.read()
        for start, lines in blocks(text):
            for cmd, want in commands(lines):
                run = re.sub(r"(?<![\w/.-])build/bin/", bin_dir + "/", cmd)
                p = subprocess.run(["bash", "-c", run], cwd=root, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
                got = p.stdout.decode("utf-8", "replace").split("\n")
                while got and not got[-1].strip():
                    got.pop()
                ran += 1
                if not matches(want, got):
                    failures += 1
                    print("%s:%d: $ %s  (exit %d)\n--- expected\n%s\n--- got\n%s\n" % (
                        md, start, cmd, p.returncode, "\n".join(want), "\n".join(got)))
    print("readme_console: %d command%s, %d mismatch%s" % (ran, "" if ran == 1 else "s", failures,
                                                           "" if failures == 1 else "es"))
    return 1 if failures or not ran else 0


if __name__ == "__main__":
    sys.exit(main())
