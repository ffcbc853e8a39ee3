#!/usr/bin/env python3
"""The include graph obeys the allowed arrows of docs/architecture.md.

Reads every #include of the .c/.h files under analyzer/, plugin/ and include/, maps the including
file and the included header to their modules (include/<name> = the public header
include/poolcheck/<name>.h, one node each, include/poolcheck the umbrella; include/support = the
public part of the support layer, poolcheck/support.h and poolcheck/json.h; analyzer/<module>/; analyzer/frontend/ itself is the frontend dispatch;
plugin/<name>/) or to an external library (libclang, python, cjson, zlib), and fails on any arrow
between two different nodes that the table between the include-arrows markers of
docs/architecture.md does not list.  So `support` including a module's public header (support ->
include) and a public support header including one (include/support -> include) are caught.
A quoted include that resolves to no module is an error too (nothing is silently skipped).

usage: check.py SOURCE_DIR            check the tree against SOURCE_DIR/docs/architecture.md
       check.py SOURCE_DIR --graph    print the real graph (arrow, count, first example)
       check.py --self-test           the checker's own cases on a generated tree
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from guard_common import c_sources, plant  # noqa: E402

TOPS = ("analyzer", "plugin", "include")
SKIP_DIRS = ("analyzer/frontend/clang/stub",)   # stand-in PyPTO headers the C++ frontend parses
EXTERNAL = {"clang-c/": "libclang", "Python.h": "python", "cjson/": "cjson", "zlib.h": "zlib"}
# The public headers of the support layer itself (docs/architecture.md, "Modules"): what sits
# beneath every module, so they include no other public header, and support includes only them.
PUBLIC_SUPPORT = ("support.h", "json.h")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
BEGIN, END = "<!-- include-arrows:begin -->", "<!-- include-arrows:end -->"
KNOWN = "known, to remove"   # a row's why: an exception to the rules, kept only while it is used


def module_of(rel):
    """Module of a repository-relative path, or None."""
    parts = rel.split("/")
    if rel.startswith("include/poolcheck/"):
        # one node per public header, so a module reaching a header of a module downstream of it
        # (analysis -> report.h) is an arrow of its own; poolcheck.h is the umbrella, for clients
        header = rel[len("include/poolcheck/"):]
        return "include/support" if header in PUBLIC_SUPPORT else "include/" + header[:-2]
    if parts[0] == "analyzer" and len(parts) >= 3:
        if parts[1] == "frontend":
            if len(parts) >= 4 and parts[2] in ("clang", "python"):
                return "frontend/" + parts[2]
            return "frontend"
        return parts[1]
    if parts[0] == "plugin" and len(parts) >= 3:
        return "plugin/" + parts[1]
    return None


def target_of(root, including_rel, bracket, name):
    """Node an include names: an external library, a module, None for a system header, or
    '?' for a quoted include that resolves to nothing of ours."""
    for prefix, lib in EXTERNAL.items():
        if name == prefix or name.startswith(prefix):
            return lib
    if name.startswith("poolcheck/"):
        return module_of("include/" + name)
    # <support/support.h> finds our header through the include path as "support/support.h" does:
    # an angle-bracket include of one of our files is an arrow too, not a system header.
    here = os.path.dirname(including_rel)
    dirs = ("analyzer", "include") if bracket == "<" else (here, "analyzer", "include")
    for cand in (os.path.join(d, name) for d in dirs):
        cand = os.path.normpath(cand)
        if os.path.isfile(os.path.join(root, cand)):
            return module_of(cand) or "?"
    return None if bracket == "<" else "?"


def real_graph(root):
    """{(from, to): [example, ...]} over every include of the tree."""
    arrows = {}
    for rel in c_sources(root, TOPS, SKIP_DIRS):
        src = module_of(rel) or "?"
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, 1):
                m = INCLUDE_RE.match(line)
                if not m:
                    continue
                tgt = target_of(root, rel, m.group(1), m.group(2))
                if tgt is None or tgt == src:
                    continue
                arrows.setdefault((src, tgt), []).append(f"{rel}:{lineno}: #include {m.group(1)}{m.group(2)}{'>' if m.group(1) == '<' else m.group(1)}")
    return arrows


def allowed_arrows(doc_path, known=None):
    """{(from, to)} from the markdown table between the markers: | from | to | why |.  The arrows
    of rows whose why starts with "known, to remove" are also added to `known` when given."""
    with open(doc_path, encoding="utf-8") as fh:
        text = fh.read()
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{doc_path}: no table between {BEGIN} and {END}")
    table = text.split(BEGIN, 1)[1].split(END, 1)[0]
    allowed = set()
    for line in table.splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or cells[0] in ("from", "") or set(cells[0]) <= set("-: "):
            continue
        exception = len(cells) > 2 and cells[2].startswith(KNOWN)
        for src in cells[0].split(","):
            for tgt in cells[1].split(","):
                arrow = (src.strip().strip("`"), tgt.strip().strip("`"))
                allowed.add(arrow)
                if exception and known is not None:
                    known.add(arrow)
    if not allowed:
        raise SystemExit(f"{doc_path}: the include-arrows table is empty")
    return allowed


def stale_exceptions(arrows, known):
    """Exceptions ("known, to remove") that no include needs any more: the table must drop them."""
    return sorted(known - set(arrows))


def check(root, doc_path):
    arrows = real_graph(root)
    known = set()
    allowed = allowed_arrows(doc_path, known)
    bad = {k: v for k, v in arrows.items() if k not in allowed}
    stale = stale_exceptions(arrows, known)
    for src, tgt in stale:
        print(f"exception no longer needed: {src} -> {tgt} is marked \"{KNOWN}\" but no include "
              "makes it; remove its row from the table")
    for (src, tgt), where in sorted(bad.items()):
        print(f"arrow not allowed: {src} -> {tgt} ({len(where)} include(s))")
        for w in where:
            print(f"  {w}")
    unused = sorted(allowed - set(arrows) - known)
    if unused:   # not an error: the table may allow what no file does yet
        print("allowed but unused: " + ", ".join(f"{s} -> {t}" for s, t in unused))
    if bad:
        print(f"{len(bad)} arrow(s) not in the table of {os.path.relpath(doc_path, root)}; "
              "route the dependency through an allowed module or change the architecture (and the table)")
    if bad or stale:
        return 1
    print(f"{len(arrows)} arrows, all allowed by {os.path.relpath(doc_path, root)}")
    return 0


def self_test():
    doc = (f"{BEGIN}\n| from | to | why |\n|---|---|---|\n"
           "| report, analysis | support, include/model, include/support | ok |\n"
           "| report | include/report | ok |\n"
           f"| support, include/poolcheck, plugin/lsp | include/support | ok |\n"
           f"| include/poolcheck | include/model | ok |\n| plugin/lsp | include/poolcheck | ok |\n{END}\n")
    files = {
        "docs/architecture.md": doc,
        "include/poolcheck/model.h": "#include <stdint.h>\n",
        "include/poolcheck/report.h": "#include <stdio.h>\n",
        "include/poolcheck/poolcheck.h": '#include "poolcheck/model.h"\n#include "poolcheck/support.h"\n',
        "include/poolcheck/support.h": "#include <stddef.h>\n",
        "analyzer/support/support.h": '#include "poolcheck/support.h"\n',
        "plugin/lsp/lsp.h": '#include "poolcheck/poolcheck.h"\n#include "poolcheck/support.h"\n',
        "analyzer/driver/driver_int.h": "",
        "analyzer/report/report_int.h": '#include "support/support.h"\n#include "poolcheck/model.h"\n',
        "analyzer/analysis/walk.c": '#include "support/support.h"\n',
    }
    cases = [
        ("clean tree", {}, 0, None),
        ("report -> driver", {"analyzer/report/bad.c": '#include "report_int.h"\n#include "driver/driver_int.h"\n'},
         1, ("report", "driver")),
        ("analysis -> libclang", {"analyzer/analysis/bad.c": "#include <clang-c/Index.h>\n"}, 1, ("analysis", "libclang")),
        ("unresolved include", {"analyzer/analysis/bad.c": '#include "nowhere.h"\n'}, 1, ("analysis", "?")),
        ("support -> a module's public header", {"analyzer/support/bad.c": '#include "poolcheck/model.h"\n'},
         1, ("support", "include/model")),
        ("public support header -> a module's public header",
         {"include/poolcheck/support.h": '#include "poolcheck/model.h"\n'}, 1, ("include/support", "include/model")),
        # one node per public header: analysis may use the model's header, not the report's
        ("analysis -> report.h", {"analyzer/analysis/bad.c": '#include "poolcheck/report.h"\n'},
         1, ("analysis", "include/report")),
        ("analysis -> the umbrella", {"analyzer/analysis/bad.c": '#include "poolcheck/poolcheck.h"\n'},
         1, ("analysis", "include/poolcheck")),
        ("plugin -> support internals", {"plugin/lsp/bad.c": '#include "../../analyzer/support/support.h"\n'},
         1, ("plugin/lsp", "support")),
        ("report -> driver in angle brackets", {"analyzer/report/bad.c": "#include <stdio.h>\n#include <driver/driver_int.h>\n"},
         1, ("report", "driver")),
    ]
    failures = 0
    # An exception still used passes; one no include needs any more fails.
    for name, used, want_stale in (("known exception in use", True, []),
                                   ("known exception no longer needed", False, [("config", "model")])):
        with tempfile.TemporaryDirectory() as tmp:
            tree = {**files, "docs/architecture.md": doc.replace(
                END, f"| config | model | {KNOWN}: config reads the model's internals |\n{END}"),
                "analyzer/model/model_int.h": ""}
            if used:
                tree["analyzer/config/loader.c"] = '#include "model/model_int.h"\n'
            plant(tmp, tree)
            known = set()
            allowed_arrows(os.path.join(tmp, "docs/architecture.md"), known)
            stale = stale_exceptions(real_graph(tmp), known)
            ok = stale == want_stale
            print(f"self-test {name}: {'ok' if ok else 'WRONG'} (stale: {stale})")
            failures += not ok
    for name, extra, want_rc, want_arrow in cases:
        with tempfile.TemporaryDirectory() as tmp:
            plant(tmp, {**files, **extra})
            arrows = real_graph(tmp)
            bad = set(arrows) - allowed_arrows(os.path.join(tmp, "docs/architecture.md"))
            rc = 1 if bad else 0
            ok = rc == want_rc and bad == ({want_arrow} if want_arrow else set())
            print(f"self-test {name}: {'ok' if ok else 'WRONG'} (not allowed: {sorted(bad)})")
            failures += not ok
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) == 3 and argv[2] == "--graph":
        for (src, tgt), where in sorted(real_graph(argv[1]).items()):
            print(f"{src} -> {tgt}  ({len(where)})  e.g. {where[0]}")
        return 0
    if len(argv) != 2:
        print(__doc__)
        return 2
    return check(argv[1], os.path.join(argv[1], "docs", "architecture.md"))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
