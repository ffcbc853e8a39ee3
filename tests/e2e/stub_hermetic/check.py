#!/usr/bin/env python3
"""stub_hermetic/check.py POOLCHECK SOURCE_DIR - stub mode reads no header of the machine.

The poisoned folder holds, as `#error` files, every header name stub/include/ stands in for, every
top-level header of /usr/include and /usr/local/include (so a C header reached past the stub would
hit one), and the names the PyPTO developers' machines have for real (nlohmann, gtest, tilefwk).
Each C++ fixture and example is checked plainly, with the folder on the environment's include
paths, and with it as an -I (after the stub's own directory, as a compile command's would be):
the three outputs must be identical and no diagnostic may quote the poison."""
import concurrent.futures
import glob
import os
import subprocess
import sys
import tempfile

POISON_MARK = "poolcheck-stub-hermetic-poison"
EXTRA_NAMES = ["nlohmann/json.hpp", "nlohmann/json_fwd.hpp", "gtest/gtest.h", "gmock/gmock.h",
               "tilefwk/tilefwk.h", "vector", "string", "map", "securec.h", "test_common.h",
               "bits/c++config.h", "features.h"]


def poison(folder, stub_include):
    names = set(EXTRA_NAMES)
    for root, _, files in os.walk(stub_include):
        for f in files:
            names.add(os.path.relpath(os.path.join(root, f), stub_include))
    for sysdir in ("/usr/include", "/usr/local/include"):
        names.update(os.path.basename(p) for p in glob.glob(os.path.join(sysdir, "*.h")))
    for n in names:
        p = os.path.join(folder, n)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as fh:
            fh.write('#error "%s: %s"\n' % (POISON_MARK, n))
    return len(names)


def run(pc, path, env, extra):
    cmd = [pc, "check", "--no-config-lookup", "--show-parse-errors", "--format=json"] + extra + [path]
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    return r.returncode, r.stdout, r.stderr


def main():
    pc, src = sys.argv[1], sys.argv[2]
    stub_include = os.path.join(src, "analyzer", "frontend", "clang", "stub", "include")
    files = sorted(glob.glob(os.path.join(src, "tests", "fixtures", "**", "*.cpp"), recursive=True) +
                   glob.glob(os.path.join(src, "examples", "*.cpp")))
    if not files:
        print("no C++ fixtures found under %s" % src)
        return 1
    with tempfile.TemporaryDirectory() as folder:
        n = poison(folder, stub_include)
        base = dict(os.environ)
        for v in ("CPLUS_INCLUDE_PATH", "CPATH", "C_INCLUDE_PATH"):
            base.pop(v, None)
        poisoned = dict(base, CPLUS_INCLUDE_PATH=folder, CPATH=folder, C_INCLUDE_PATH=folder)
        ways = [("plain", base, []), ("environment", poisoned, []), ("-I", base, ["--extra-arg=-I" + folder])]
        failures = []

        def one(path):
            outs = [run(pc, path, env, extra) for _, env, extra in ways]
            bad = []
            for (name, _, _), (rc, out, err) in zip(ways, outs):
                if POISON_MARK.encode() in out or POISON_MARK.encode() in err:
                    bad.append("%s: a poisoned header was reached" % name)
            for (name, _, _), o in zip(ways[1:], outs[1:]):
                if o != outs[0]:
                    bad.append("%s: output differs from the plain run (exit %d vs %d)" % (name, o[0], outs[0][0]))
            return path, bad

        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as ex:
            for path, bad in ex.map(one, files):
                for b in bad:
                    failures.append("%s: %s" % (os.path.relpath(path, src), b))
    for f in failures:
        print("FAIL " + f)
    print("%d C++ files, %d poisoned header names, 3 ways each: %d passed, %d failed" %
          (len(files), n, len(files) - len({f.split(": ")[0] for f in failures}),
           len({f.split(": ")[0] for f in failures})))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
