#!/usr/bin/env python3
"""stub_pch/check.py POOLCHECK SOURCE_DIR - the precompiled stub changes no output.

1. Every C++ fixture and example: the output with the stub header's text (POOLCHECK_NO_CACHE=1)
   equals the output with an empty cache directory (the run builds the PCH), with the warm cache,
   and with the cached PCH overwritten by garbage (the run must drop it and parse the text).
2. Staleness: on a copy of the stub directory, a warm cache, then an edit of a header the stub
   header includes (not the stub header itself, whose text is part of the cache key) that turns
   LOOP into an error.  The next run must print what the edited stub gives without a cache - not
   what the cached PCH of the old text would give - and remove that PCH."""
import concurrent.futures
import glob
import os
import shutil
import subprocess
import sys
import tempfile


def run(pc, path, env):
    cmd = [pc, "check", "--no-config-lookup", "--show-parse-errors", "--format=json", path]
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    return r.returncode, r.stdout, r.stderr


def pchs(folder):
    return sorted(glob.glob(os.path.join(folder, "stub-*.pch")))


def main():
    pc, src = sys.argv[1], sys.argv[2]
    stub = os.path.join(src, "analyzer", "frontend", "clang", "stub")
    files = sorted(glob.glob(os.path.join(src, "tests", "fixtures", "**", "*.cpp"), recursive=True) +
                   glob.glob(os.path.join(src, "examples", "*.cpp")))
    if not files:
        print("no C++ fixtures found under %s" % src)
        return 1
    failures = []
    base = {k: v for k, v in os.environ.items() if not k.startswith("POOLCHECK_")}
    with tempfile.TemporaryDirectory() as tmp:
        cache = os.path.join(tmp, "cache")
        text = dict(base, POOLCHECK_NO_CACHE="1")
        cached = dict(base, POOLCHECK_CACHE_DIR=cache)
        plain = {f: run(pc, f, text) for f in files[:1]}
        cold = run(pc, files[0], cached)
        if not pchs(cache):
            failures.append("no PCH in the cache after a run")
        if cold != plain[files[0]]:
            failures.append("%s: output of the run that built the PCH differs" % files[0])

        def one(path):
            bad = []
            want = run(pc, path, text)
            if run(pc, path, cached) != want:
                bad.append("warm cache: output differs from the header's text")
            return path, want, bad

        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as ex:
            for path, want, bad in ex.map(one, files):
                plain[path] = want
                failures += ["%s: %s" % (os.path.relpath(path, src), b) for b in bad]
        for p in pchs(cache):
            with open(p, "wb") as fh:
                fh.write(b"not a precompiled header\n" * 100)
        if run(pc, files[0], cached) != plain[files[0]]:
            failures.append("damaged PCH: output differs from the header's text")
        if pchs(cache):
            failures.append("damaged PCH: still in the cache after the run")

        # staleness, on a copy of the stub
        copy = os.path.join(tmp, "stub")
        shutil.copytree(stub, copy)
        cache2 = os.path.join(tmp, "cache2")
        env = dict(base, POOLCHECK_STUB_DIR=copy, POOLCHECK_CACHE_DIR=cache2)
        example = os.path.join(src, "examples", "k_tmp_to_d_emb.cpp")
        before = run(pc, example, env)
        old = pchs(cache2)
        if len(old) != 1:
            failures.append("stale: %d PCH files after the first run on the copy" % len(old))
        with open(os.path.join(copy, "poolcheck_stub_std.h"), "a") as fh:
            fh.write("\n#define LoopRange stub_pch_test_breaks_LoopRange(\n")
        # clang compares sizes as well as times, so the edit is seen within the same second
        after = run(pc, example, env)
        want = run(pc, example, dict(env, POOLCHECK_NO_CACHE="1"))
        if want == before:
            failures.append("stale: the edit of the copied stub changes nothing (the test cannot fail)")
        if after != want:
            failures.append("stale: the edited stub's output is not what its text gives (a stale PCH was used)")
        if any(p in pchs(cache2) for p in old):
            failures.append("stale: the PCH of the old stub is still in the cache")
    for f in failures:
        print("FAIL " + f)
    print("%d C++ files, text / cold / warm / damaged, and a stale stub: %d failures" % (len(files), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
