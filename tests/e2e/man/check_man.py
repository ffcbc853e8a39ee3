#!/usr/bin/env python3
"""man_pages: the generated man pages render with `man -l` (groff without warnings) and hold every
option each tool's --help lists, for the top-level command and every subcommand.

    check_man.py MAN_DIR BIN_DIR        exit 77 (skipped) when man or groff is missing
"""
import os
import re
import shutil
import subprocess
import sys

PAGES = {"poolcheck": ["", "check", "model", "logs", "plan"], "poolcheck-lsp": [""], "poolcheck-cc": [""]}


def run(argv, env=None):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


def main():
    man_dir, bin_dir = sys.argv[1:3]
    if not shutil.which("man") or not shutil.which("groff"):
        print("man or groff not installed: skipped")
        return 77
    env = dict(os.environ, MANWIDTH="200", MAN_KEEP_FORMATTING="0", LC_ALL="C.UTF-8")
    failures = 0
    for tool, subs in PAGES.items():
        page = os.path.join(man_dir, tool + ".1")
        if not os.path.isfile(page):
            print("%s: missing" % page)
            failures += 1
            continue
        g = run(["groff", "-man", "-Tutf8", "-ww", "-z", page])
        if g.returncode or g.stderr.strip():
            print("%s: groff: %s" % (page, g.stderr.decode()))
            failures += 1
        m = run(["man", "-l", page], env)
        # without a terminal man prints bold and underline as overstrikes (X\bX, _\bX): drop them
        text = re.sub(r".\x08", "", m.stdout.decode("utf-8", "replace"))
        if m.returncode or "NAME" not in text or "SYNOPSIS" not in text:
            print("%s: man -l failed (%d): %s" % (page, m.returncode, m.stderr.decode()))
            failures += 1
            continue
        # man may hyphenate or use U+2010 / U+2212 for '-': compare on a normalised text
        flat = re.sub(r"[\u2010\u2011\u2212]", "-", re.sub(r"\s+", " ", text))
        for sub in subs:
            h = run([os.path.join(bin_dir, tool)] + ([sub] if sub else []) + ["--help"])
            for line in h.stdout.decode().splitlines():
                mo = re.match(r"^  (-[^\s]+)", line)
                if mo and mo.group(1) not in flat:
                    print("%s: option %s of '%s --help' is not on the page" % (page, mo.group(1),
                                                                            (tool + " " + sub).strip()))
                    failures += 1
            if sub and ("%s %s" % (tool.upper(), sub.upper())) not in text:
                print("%s: no section for '%s %s'" % (page, tool, sub))
                failures += 1
    print("man_pages: %d problem%s" % (failures, "" if failures == 1 else "s"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
