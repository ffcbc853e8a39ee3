#!/usr/bin/env python3
"""Errors are reported one way (poolcheck/support.h "Errors, one way").

In the public headers include/poolcheck/*.h (code only: comments and strings do not count):
  - a parameter named err is `char **err`: the caller receives an owned message it pc_mem_frees,
    so no borrowed `const char **err` and no error out-struct (`pc_json_error *err`);
  - no `struct ..._error` / `typedef ... ..._error` type: a position comes back in an
    out-parameter of its own, the message in *err;
  - no caller buffer sized by a _MSG_MAX macro (`char msg[PC_BIND_MSG_MAX]`), nor the macro;
  - no _Thread_local (or thread_local, __thread): nothing per-thread in the interface.
Under analyzer/ and plugin/ (the stub PyPTO headers aside): no per-thread char buffer
(`_Thread_local char buf[...]`), the way a message used to be lent until the next call.

usage: check.py SOURCE_DIR      check the tree
       check.py --self-test     the checker's own cases
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from guard_common import c_sources, report, run_self_test  # noqa: E402

HEADERS = "include/poolcheck"
TOPS = ("analyzer", "plugin")
SKIP_DIRS = ("analyzer/frontend/clang/stub",)
COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING_RE = re.compile(r'"(?:\\.|[^"\\\n])*"')
# a parameter named err: what stands between the '(' or ',' before it and the name
ERR_PARAM_RE = re.compile(r"[(,]\s*([^(),;{}]*?)\berr\s*(?=[,)])")
ERROR_TYPE_RE = re.compile(r"\bstruct\s+(\w+_error)\b|\}\s*(\w+_error)\s*;")
MSG_MAX_RE = re.compile(r"\b\w*_MSG_MAX\b")
THREAD_RE = re.compile(r"\b(_Thread_local|thread_local|__thread)\b")
THREAD_BUFFER_RE = re.compile(r"\b(_Thread_local|thread_local|__thread)\s+(?:static\s+)?char\s+\w+\s*\[")


def code_of(path):
    """The file's code: comments and strings blanked, line breaks kept so lines stay true."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        raw = fh.read()
    code = COMMENT_RE.sub(lambda m: "\n" * m.group(0).count("\n"), raw)
    return STRING_RE.sub('""', code)


def line_of(code, pos):
    return code.count("\n", 0, pos) + 1


def header_problems(rel, code):
    found = []
    for m in ERR_PARAM_RE.finditer(code):
        typ = re.sub(r"\s+", " ", m.group(1)).replace("* *", "**").strip()
        if typ != "char **":
            decl = typ + ("err" if typ.endswith("*") else " err")
            found.append(f"{rel}:{line_of(code, m.start(1))}: `{decl}`: an error is `char **err`, "
                         "an owned message the caller pc_mem_frees")
    for m in ERROR_TYPE_RE.finditer(code):
        found.append(f"{rel}:{line_of(code, m.start())}: error type {m.group(1) or m.group(2)}: give the "
                     "position its own out-parameter and the message in char **err")
    for m in MSG_MAX_RE.finditer(code):
        found.append(f"{rel}:{line_of(code, m.start())}: {m.group(0)}: no caller buffers for messages, "
                     "return them in char **err")
    for m in THREAD_RE.finditer(code):
        found.append(f"{rel}:{line_of(code, m.start())}: {m.group(1)} in a public header: nothing "
                     "per-thread in the interface")
    return found


def problems(root):
    found = []
    hdir = os.path.join(root, HEADERS)
    for f in sorted(os.listdir(hdir)) if os.path.isdir(hdir) else []:
        if f.endswith(".h"):
            rel = os.path.join(HEADERS, f)
            found += header_problems(rel, code_of(os.path.join(root, rel)))
    for rel in c_sources(root, TOPS, SKIP_DIRS):
        code = code_of(os.path.join(root, rel))
        for m in THREAD_BUFFER_RE.finditer(code):
            found.append(f"{rel}:{line_of(code, m.start())}: a per-thread char buffer: a message "
                         "is the caller's (char **err), not lent until the next call")
    return found


def self_test():
    good = ("/* Errors, one way: no `const char **err`, no char msg[PC_X_MSG_MAX], no _Thread_local. */\n"
            "bool pc_a(const char *text, char **err);\n"
            "pc_doc *pc_b(const char *t, size_t n, unsigned f, pc_pos *at, char * *err);\n"
            "int pc_c(const char **names, size_t n); const char *s = \"const char **err\";\n")
    cases = [
        ("the convention, and the forms named in comments and strings", {}, 0),
        ("a borrowed message", {HEADERS + "/bad.h": "bool pc_x(pc_s *s, const char **err);\n"}, 1),
        ("an error out-struct", {HEADERS + "/bad.h":
            "typedef struct pc_x_error {\n    pc_pos at;\n    char msg[160];\n} pc_x_error;\n"
            "pc_doc *pc_x(const char *t, pc_x_error *err);\n"}, 3),
        ("a caller buffer", {HEADERS + "/bad.h":
            "#define PC_X_MSG_MAX 512\nbool pc_x(const char *t, char msg[PC_X_MSG_MAX]);\n"}, 2),
        ("a per-thread variable in a header", {HEADERS + "/bad.h": "extern _Thread_local int pc_x;\n"}, 1),
        ("a per-thread message buffer in the library", {"analyzer/driver/bad.c":
            "const char *f(void) { static _Thread_local char buf[512]; return buf; }\n"
            "static _Thread_local unsigned long counter; /* not a buffer: fine */\n"}, 1),
    ]
    return run_self_test(cases, {HEADERS + "/good.h": good}, problems)


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__)
        return 2
    if not os.path.isdir(os.path.join(argv[1], HEADERS)):
        print(f"{argv[1]}: no {HEADERS}")
        return 2
    return report(problems(argv[1]), "report errors another way (see poolcheck/support.h, \"Errors, one way\")",
                  "errors one way: status return and an owned char **err")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
