#!/usr/bin/env python3
"""The public headers stand alone: each include/poolcheck/*.h compiles as the only
include of a C11 file (-pedantic -Wall -Wextra -Werror) and, when a C++ compiler is given, of a
C++11 file, so a plugin or a program linking libpoolcheck needs nothing but include/poolcheck;
all of them together compile too (a type declared in two headers agrees).  A snippet then uses the macros of poolcheck/support.h (PC_VEC_PUSH, pc_sb) in both languages.

usage: check.py SOURCE_DIR CC [CXX]
"""
import os
import subprocess
import sys
import tempfile

C_FLAGS = ["-std=c11", "-pedantic", "-Wall", "-Wextra", "-Wshadow", "-Werror", "-fsyntax-only"]
CXX_FLAGS = ["-std=c++11", "-pedantic", "-Wall", "-Wextra", "-Werror", "-fsyntax-only"]
SNIPPET = """#include "poolcheck/poolcheck.h"
#include "poolcheck/support.h"
int probe(void);
int probe(void)
{
    PC_VEC(int) v = {0, 0, 0};
    for (int i = 0; i < 20; i++)
        PC_VEC_PUSH(v, i);
    pc_sb b = {0, 0, 0};
    pc_sb_printf(&b, "%d", v.items[19]);
    char *t = pc_sb_take(&b);
    int ok = t[0] == '1';
    pc_mem_free(t);
    PC_VEC_FREE(v);
    return ok;
}
"""


def compile_text(compiler, flags, include_dir, text, suffix):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "probe" + suffix)
        with open(path, "w") as fh:
            fh.write(text)
        run = subprocess.run([compiler, *flags, "-I", include_dir, path], capture_output=True, text=True)
        return run.returncode == 0, (run.stdout + run.stderr).strip()


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__)
        return 2
    root, cc = argv[1], argv[2]
    cxx = argv[3] if len(argv) == 4 and argv[3] else None
    include_dir = os.path.join(root, "include")
    headers = sorted(f for f in os.listdir(os.path.join(include_dir, "poolcheck")) if f.endswith(".h"))
    if not headers:
        print("no headers under include/poolcheck")
        return 2
    langs = [("C11", cc, C_FLAGS, ".c")] + ([("C++11", cxx, CXX_FLAGS, ".cpp")] if cxx else [])
    failures = 0
    for lang, compiler, flags, suffix in langs:
        for h in headers:
            ok, out = compile_text(compiler, flags, include_dir, f'#include "poolcheck/{h}"\n', suffix)
            if not ok:
                print(f"poolcheck/{h} does not compile alone as {lang}:\n{out}")
                failures += 1
        every = "".join(f'#include "poolcheck/{h}"\n' for h in headers)
        ok, out = compile_text(compiler, flags, include_dir, every, suffix)
        if not ok:
            print(f"the public headers do not compile together as {lang}:\n{out}")
            failures += 1
        ok, out = compile_text(compiler, flags, include_dir, SNIPPET, suffix)
        if not ok:
            print(f"the poolcheck/support.h snippet does not compile as {lang}:\n{out}")
            failures += 1
    if failures:
        return 1
    print(f"{len(headers)} public headers compile as {' and '.join(l[0] for l in langs)}, "
          "alone and together, and so does the support.h snippet")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
