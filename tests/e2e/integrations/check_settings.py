#!/usr/bin/env python3
"""integration_settings: the editor settings docs/integrations.md shows are one set of settings,
spelled alike for every editor, and they cause no PC004 (and no settings error, no warning about
a binding) on the seed example, in default mode and in precise mode.

    check_settings.py ROOT BIN_DIR

The sample is the ```json block of the "Settings" section; the VS Code block's
initializationOptions, the Neovim block's `poolcheck_settings` table and the Emacs block's plist
must carry the same set/checks/warningsAsErrors values.  Then poolcheck-lsp gets the sample as
initializationOptions, opens each kernel, and its published diagnostics are read.
"""
import json
import os
import re
import subprocess
import sys


def section(text, title):
    a = text.index(title)
    b = text.find("\n### ", a + len(title))
    return text[a:b if b >= 0 else len(text)]


def fenced(text, lang):
    return re.findall(r"```%s\n(.*?)```" % lang, text, re.S)


def frame(msg):
    body = json.dumps(msg).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def messages(data):
    out, i = [], 0
    while True:
        m = re.compile(rb"Content-Length: *(\d+)\r\n\r\n").search(data, i)
        if not m:
            return out
        n = int(m.group(1))
        out.append(json.loads(data[m.end():m.end() + n]))
        i = m.end() + n


def lsp_run(lsp, settings, uri, text):
    msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"capabilities": {}, "initializationOptions": settings}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "method": "textDocument/didOpen",
             "params": {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}}},
            {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
             "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}},
            {"jsonrpc": "2.0", "id": 3, "method": "shutdown"},
            {"jsonrpc": "2.0", "method": "exit"}]
    p = subprocess.run([lsp], input=b"".join(frame(m) for m in msgs), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    return messages(p.stdout)


def main():
    root, bin_dir = sys.argv[1], sys.argv[2]
    with open(os.path.join(root, "docs/integrations.md"), encoding="utf-8") as f:
        doc = f.read()
    problems = []
    sample = json.loads(fenced(section(doc, "### Settings"), "json")[0])
    want = {k: sample[k] for k in ("set", "checks", "warningsAsErrors") if k in sample}

    vscode = json.loads(fenced(section(doc, "### VS Code"), "json")[0])["glspc.server.initializationOptions"]
    if vscode != sample:
        problems.append("VS Code initializationOptions %r differ from the sample %r" % (vscode, sample))

    lua = fenced(section(doc, "### Neovim"), "lua")[0]
    table = re.search(r"local poolcheck_settings = \{(.*?)\n\}", lua, re.S).group(1)
    nv = {"set": re.findall(r"'([^']*)'", re.search(r"set = \{([^}]*)\}", table).group(1))}
    for key in ("checks", "warningsAsErrors"):
        m = re.search(r"%s = '([^']*)'" % key, table)
        if m:
            nv[key] = m.group(1)
    if nv != want:
        problems.append("Neovim poolcheck_settings %r differ from the sample %r" % (nv, want))

    el = fenced(section(doc, "### Emacs"), "elisp")[0]
    em = {"set": re.findall(r'"([^"]*)"', re.search(r":set \[([^\]]*)\]", el).group(1))}
    for key in ("checks", "warningsAsErrors"):
        m = re.search(r':%s "([^"]*)"' % key, el)
        if m:
            em[key] = m.group(1)
    if em != want:
        problems.append("Emacs settings %r differ from the sample %r" % (em, want))

    with open(os.path.join(root, "examples/k_tmp_to_d_emb.py"), encoding="utf-8") as f:
        seed = f.read()
    precise = seed.replace("import pypto\n", "import pypto\n\npypto.experimental.set_runtime_options("
                           "stitch_function_num_per_pool=[64, 2, 1])\n", 1)
    assert precise != seed
    lsp = os.path.join(bin_dir, "poolcheck-lsp")
    for name, text in (("default mode", seed), ("precise mode", precise)):
        got = lsp_run(lsp, sample, "file:///tmp/pc-settings/k.py", text)
        diags = [d for m in got if m.get("method") == "textDocument/publishDiagnostics"
                 for d in m["params"]["diagnostics"]]
        shown = [m["params"]["message"] for m in got if m.get("method") in ("window/showMessage", "window/logMessage")
                 and m["params"].get("type", 4) <= 2]
        if not any(m.get("id") == 2 for m in got):
            problems.append("%s: no answer from poolcheck-lsp" % name)
        for d in diags:
            if d.get("code") == "PC004" or (d.get("severity") in (1, 2) and "bind" in d.get("message", "")):
                problems.append("%s: %s %s" % (name, d.get("code"), d.get("message")))
        for m in shown:
            problems.append("%s: the server said: %s" % (name, m))
        print("%s: %d diagnostics (%s)" % (name, len(diags), ", ".join(str(d.get("code")) for d in diags)))
    for p in problems:
        print("problem: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
