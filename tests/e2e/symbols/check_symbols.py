#!/usr/bin/env python3
"""Every global symbol libpoolcheck.a defines carries the pc_ prefix: the library is
linked into editors' plugins and build launchers next to other code, so a bare `an_walk` could
collide with someone else's.  Reads `nm -g --defined-only <archive>` and lists the offenders.

usage: check_symbols.py NM ARCHIVE                  check the archive
       check_symbols.py NM ARCHIVE --expect A,B,...   succeed only when the offenders are exactly
                                                      A, B, ... (the check run on a planted archive)
       check_symbols.py --self-test                  the checker's own cases (an offender found, a
                                                      clean list passes)
"""
import subprocess
import sys

PREFIX = "pc_"
# what a sanitizer build adds beside each global (ASan's one-definition-rule indicators), not ours
SANITIZER_PREFIXES = ("__odr_asan", "__asan_", "__ubsan_", "__sancov_")


def offenders(nm_text):
    """(member, symbol) pairs of defined global symbols without the prefix.  nm prints
    'archive member:' headers, then 'value type name' lines; -g --defined-only leaves globals only,
    but weak undefined ('w'/'v' without a value) and 'U' are skipped should an nm print them."""
    found = []
    member = "?"
    for line in nm_text.splitlines():
        line = line.rstrip()
        if not line:
            continue
        if line.endswith(":") and " " not in line:
            member = line[:-1]
            continue
        fields = line.split()
        if len(fields) < 2:
            continue
        kind, name = fields[-2], fields[-1]
        if len(kind) != 1 or kind in "Uuwv" or (len(fields) == 2 and kind in "wv"):
            continue
        if name.startswith(SANITIZER_PREFIXES):
            continue
        if not name.startswith(PREFIX):
            found.append((member, name))
    return found


def self_test():
    bad = "walk.c.o:\n0000000000000000 T an_walk\n0000000000000040 T pc_analyze\n\n" \
          "json.c.o:\n0000000000000000 D pc_json_x\n0000000000000008 B counter\n"
    good = "walk.c.o:\n0000000000000000 T pc_an_walk\n                 U memcpy\n" \
           "0000000000000000 R pc_check_table\n0000000000000010 B __odr_asan.pc_check_table\n"
    got = offenders(bad)
    want = [("walk.c.o", "an_walk"), ("json.c.o", "counter")]
    if got != want:
        print(f"self-test: offenders found {got}, expected {want}")
        return 1
    if offenders(good):
        print(f"self-test: a clean list gave {offenders(good)}")
        return 1
    print("self-test: ok (2 offenders found in the bad list, none in the clean one)")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    expect = None
    if len(argv) == 5 and argv[3] == "--expect":
        expect = sorted(n for n in argv[4].split(",") if n)
        argv = argv[:3]
    if len(argv) != 3:
        print(__doc__)
        return 2
    nm, archive = argv[1], argv[2]
    run = subprocess.run([nm, "-g", "--defined-only", archive], capture_output=True, text=True)
    if run.returncode != 0:
        print(f"{nm} failed on {archive}: {run.stderr.strip()}")
        return 2
    if not run.stdout.strip():
        print(f"{nm} listed no symbols in {archive}")
        return 2
    bad = offenders(run.stdout)
    if expect is not None:
        got = sorted(name for _, name in bad)
        if got != expect:
            print(f"offenders of {archive}: {got}, expected {expect}")
            return 1
        print(f"offenders of {archive} as expected: {', '.join(got)}")
        return 0
    if bad:
        print(f"{len(bad)} global symbol(s) of {archive} without the {PREFIX} prefix "
              "(rename them with the module prefix, or make them static):")
        for member, name in bad:
            print(f"  {member}: {name}")
        return 1
    print(f"every global symbol of {archive} starts with {PREFIX}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
