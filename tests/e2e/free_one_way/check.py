#!/usr/bin/env python3
"""Memory is allocated and freed one way (poolcheck/support.h "Freeing, one way").

Under analyzer/ and plugin/ (not the stub PyPTO headers), outside analyzer/support/support.c where
the seam itself lives:
  - no malloc/calloc/realloc/strdup/strndup call: allocation goes through pc_mem_* or an arena, so
    fault injection reaches it;
  - every free(X) frees what libc handed out: X is assigned in the same file from realpath(),
    getcwd() or open_memstream(&X, ...).  Anything the library returns (pc_sb_take, pc_read_file,
    pc_expr_to_string, a loader's *err, ...) is freed with pc_mem_free.

usage: check.py SOURCE_DIR      check the tree
       check.py --self-test     the checker's own cases
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from guard_common import c_sources, report, run_self_test  # noqa: E402

TOPS = ("analyzer", "plugin")
SKIP_DIRS = ("analyzer/frontend/clang/stub",)
SEAM = "analyzer/support/support.c"
ALLOC_RE = re.compile(r"(?<![\w.>])(malloc|calloc|realloc|strdup|strndup)\s*\(")
FREE_RE = re.compile(r"(?<![\w.>])free\s*\(\s*([A-Za-z_][\w]*(?:\s*(?:->|\.)\s*[A-Za-z_]\w*)*)\s*\)")
COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING_RE = re.compile(r'"(?:\\.|[^"\\\n])*"')


def libc_sources(text, name):
    """Does the file assign `name` from an allocation of libc's own?"""
    n = re.escape(name).replace(r"\ ", r"\s*")
    return bool(re.search(rf"\b{n}\s*=\s*(realpath|getcwd)\s*\(", text) or
                re.search(rf"open_memstream\s*\(\s*&\s*{n}\s*,", text))


def problems(root):
    found = []
    for rel in c_sources(root, TOPS, SKIP_DIRS):
        if rel == SEAM:
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
            raw = fh.read()
        # Comments and strings do not count; keep the line breaks so lines stay true.
        code = COMMENT_RE.sub(lambda m: "\n" * m.group(0).count("\n"), raw)
        code = STRING_RE.sub('""', code)
        for m in ALLOC_RE.finditer(code):
            line = code.count("\n", 0, m.start()) + 1
            found.append(f"{rel}:{line}: {m.group(1)}() outside the seam: use pc_mem_* or an arena")
        for m in FREE_RE.finditer(code):
            name = re.sub(r"\s+", "", m.group(1))
            if not libc_sources(code, name):
                line = code.count("\n", 0, m.start()) + 1
                found.append(f"{rel}:{line}: free({name}) of what is not libc's "
                             "(realpath, getcwd, open_memstream): pc_mem_free it")
    return found


def self_test():
    base = {SEAM: "void pc_mem_free(void *p) { free(p); }\nvoid *a(void) { return malloc(1); }\n"}
    cases = [
        ("libc's own results", {"plugin/lsp/ok.c":
            "void f(const char *x) { char *rp = realpath(x, NULL); free(rp); char *cwd = getcwd(NULL, 0);\n"
            "free(cwd); FILE *m = open_memstream(&s->buf, &n); fclose(m); free(s->buf); }\n"
            "/* free(err) in a comment */ const char *t = \"malloc(\";\n"}, 0),
        ("free of a loader message", {"analyzer/cli/bad.c":
            "void f(void) { char *err = NULL; load(&err); free(err); }\n"}, 1),
        ("malloc outside the seam", {"analyzer/report/bad.c": "void *f(void) { return malloc(4); }\n"}, 1),
        ("strdup in a plugin", {"plugin/cc/bad.c": "char *f(const char *s) { return strdup(s); }\n"}, 1),
    ]
    return run_self_test(cases, base, problems)


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__)
        return 2
    return report(problems(argv[1]), "allocate or free around the seam (see poolcheck/support.h, \"Freeing, one way\")",
                  "allocation through the seam, and free() only of libc's own results")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
