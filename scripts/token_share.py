#!/usr/bin/env python3
"""How much of the C++ frontend reads tokens instead of cursors.

    scripts/token_share.py [DIR] [-v]      DIR: analyzer/frontend/clang (the default)

Counts the lines of the top-level functions of DIR/*.c (the stub is not C) that read tokens:
a function whose text names clang_tokenize, CXToken, pc_ctok / pc_ctoks or a token parser's
state (eparse, cparse), or that calls a function taking one of them (the lexer helpers of clang_lex.c)
or pc_clang_lex / pc_clang_src_lex / pc_clang_cursor_tokens.  Prints their share of all the
lines of DIR/*.c; -v lists them, longest first.  A measure, not a test: the name match is by
spelling, so a cursor function named like a static token helper of another file counts too.
"""
import glob
import os
import re
import sys

TOKEN_TYPES = r'\bclang_tokenize\b|\bCXToken\b|\bpc_ctoks?\b|\beparse\b|\bcparse\b'
LEXERS = {'pc_clang_lex', 'pc_clang_src_lex', 'pc_clang_cursor_tokens', 'clang_tokenize'}


def strip(s):
    """Comments and literals blanked, newlines kept (line numbers stay)."""
    s = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), s, flags=re.S)
    s = re.sub(r'//[^\n]*', '', s)
    s = re.sub(r'"(\\.|[^"\\\n])*"', '""', s)
    return re.sub(r"'(\\.|[^'\\\n])*'", "''", s)


def functions(path):
    """(name, first line, last line, body, signature) of each function definition."""
    s = strip(open(path).read())
    out, pos = [], 0
    while pos < len(s):
        if s[pos] != '{':
            pos += 1
            continue
        before = s[:pos]
        start = max(before.rfind(';'), before.rfind('}'), before.rfind('#')) + 1
        sig = s[start:pos]
        depth, end = 0, pos
        while end < len(s):
            depth += {'{': 1, '}': -1}.get(s[end], 0)
            if depth == 0:
                break
            end += 1
        m = re.search(r'(\w+)\s*\([^;{}]*\)\s*$', sig, re.S)
        if m:
            first = start + len(sig) - len(sig.lstrip())
            out.append((m.group(1), s.count('\n', 0, first) + 1, s.count('\n', 0, end) + 1, s[first:end + 1], sig))
        pos = end + 1
    return out


def main():
    args = [a for a in sys.argv[1:] if a != '-v']
    root = args[0] if args else 'analyzer/frontend/clang'
    files = sorted(glob.glob(os.path.join(root, '*.c')))
    total = sum(open(f).read().count('\n') for f in files)
    fns = [(os.path.basename(f),) + fn for f in files for fn in functions(f)]
    helpers = {fn[1] for fn in fns if re.search(TOKEN_TYPES, fn[5])} | LEXERS
    calls = re.compile(r'\b(' + '|'.join(sorted(map(re.escape, helpers))) + r')\s*\(')
    reading = [fn for fn in fns if re.search(TOKEN_TYPES, fn[4]) or calls.search(fn[4])]
    lines = sum(fn[3] - fn[2] + 1 for fn in reading)
    if '-v' in sys.argv:
        for fn in sorted(reading, key=lambda x: x[2] - x[3]):
            print(f'{fn[3] - fn[2] + 1:5d} {fn[0]}:{fn[2]} {fn[1]}')
    print(f'token-reading functions: {len(reading)}, {lines} of {total} lines ({100.0 * lines / total:.1f}%)')


if __name__ == '__main__':
    main()
