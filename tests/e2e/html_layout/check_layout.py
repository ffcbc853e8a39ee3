#!/usr/bin/env python3
"""html_layout: the HTML report fits a 1400 px wide window without horizontal scrolling, also for
a kernel whose "why" texts are long (many roots with long names in one DeviceTask, long tensor
names), and its summary is on the first screen; its Inputs section is drawn, with the three
configuration blocks to paste, each selected whole by one click.  Rendered with headless Chromium; skipped (77)
when no Chromium is installed.

    check_layout.py BIN_DIR WORK_DIR
"""
import os
import re
import shutil
import subprocess
import sys

WIDTH = 1400


def kernel_text(nloops):
    lines = ["import pypto", "", "", "@pypto.frontend.jit",
             "def k_with_many_long_named_loops(",
             "    x: pypto.Tensor([64, 64], pypto.DT_FP32),",
             "    w: pypto.Tensor([64, 64], pypto.DT_FP32),",
             "    out: pypto.Tensor([64, 64], pypto.DT_FP32),",
             "):",
             "    an_exclusive_outcast_tensor_with_a_very_long_descriptive_name_indeed = pypto.tensor([64, 64], pypto.DT_FP32, \"an_exclusive_outcast_tensor_with_a_very_long_descriptive_name_indeed\")",
             "    for i, t in pypto.loop_unroll(0, 1, 1, name=\"the_loop_that_writes_the_long_named_exclusive_outcast\"):",
             "        an_exclusive_outcast_tensor_with_a_very_long_descriptive_name_indeed[:] = pypto.add(x, x)"]
    for n in range(nloops):
        lines += ["    for i%d, t in pypto.loop_unroll(0, 2, 1, name=\"loop_number_%02d_with_a_long_and_descriptive_name\"):" % (n, n),
                  "        mm_result_with_a_long_name_%02d = pypto.matmul(x[i%d : i%d + t, :], w, pypto.DT_FP32)" % (n, n, n),
                  "        out[i%d : i%d + t, :] = mm_result_with_a_long_name_%02d + an_exclusive_outcast_tensor_with_a_very_long_descriptive_name_indeed[i%d : i%d + t, :]" % (n, n, n, n, n)]
    return "\n".join(lines) + "\n"


def main():
    bin_dir, work = sys.argv[1], sys.argv[2]
    chromium = next((c for c in ("chromium", "chromium-browser", "google-chrome") if shutil.which(c)), None)
    if not chromium:
        print("no chromium: skipped")
        return 77
    os.makedirs(work, exist_ok=True)
    failures = 0
    cases = {"seed": None, "long_why": kernel_text(30)}
    for name, text in cases.items():
        src = os.path.join(work, name + ".py")
        if text is None:
            src = os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "k_tmp_to_d_emb.py")
        else:
            with open(src, "w") as f:
                f.write(text)
        report = os.path.join(work, name + ".html")
        p = subprocess.run([os.path.join(bin_dir, "poolcheck"), "check", "--no-config-lookup",
                            "--report=" + report, src], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode not in (0, 1) or not os.path.exists(report):
            print("%s: poolcheck exit %d: %s" % (name, p.returncode, p.stderr.decode()))
            failures += 1
            continue
        with open(report, encoding="utf-8") as f:
            page = f.read()
        # W page width, I window width, S summary top; the Inputs section: N its height, P the paste
        # blocks drawn with a configuration in them, U those one click selects whole
        probe = ("<script>var inp = document.getElementById('inputs');"
                 "var pastes = Array.prototype.slice.call(document.querySelectorAll('pre.paste'));"
                 "document.title = 'W' + document.documentElement.scrollWidth + ' I' + "
                 "window.innerWidth + ' S' + Math.round(document.getElementById('summary')"
                 ".getBoundingClientRect().top) + ' N' + (inp ? Math.round(inp.getBoundingClientRect().height) : -1)"
                 " + ' P' + pastes.filter(function (p) { return p.getBoundingClientRect().height > 0 && "
                 "p.textContent.indexOf('stitch_function_num_per_pool') >= 0; }).length"
                 " + ' U' + pastes.filter(function (p) { var u = getComputedStyle(p).userSelect || "
                 "getComputedStyle(p).webkitUserSelect; return u === 'all'; }).length;</script></body>")
        probed = os.path.join(work, name + ".probe.html")
        with open(probed, "w", encoding="utf-8") as f:
            f.write(page.replace("</body>", probe, 1))
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 "--window-size=%d,900" % WIDTH, "--virtual-time-budget=3000"]
        d = subprocess.run([chromium] + flags + ["--dump-dom", "file://" + os.path.abspath(probed)],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120)
        m = re.search(r"<title>W(\d+) I(\d+) S(-?\d+) N(-?\d+) P(\d+) U(\d+)</title>", d.stdout.decode("utf-8", "replace"))
        if not m:
            print("%s: chromium gave no measurement" % name)
            failures += 1
            continue
        scroll, inner, top, inputs_h, pastes, selectable = (int(g) for g in m.groups())
        subprocess.run([chromium] + flags + ["--screenshot=" + os.path.join(work, name + ".png"),
                                             "file://" + os.path.abspath(report)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        print("%s: page %d px wide in a %d px window; summary at %d px (screenshot %s.png)" % (name, scroll, inner, top, name))
        if scroll > inner:
            print("%s: horizontal scrolling (%d > %d)" % (name, scroll, inner))
            failures += 1
        if top > 300:
            print("%s: the summary is not at the top (%d px)" % (name, top))
            failures += 1
        print("%s: Inputs section %d px high, %d paste blocks drawn, %d select whole" % (name, inputs_h, pastes, selectable))
        if inputs_h <= 0:
            print("%s: no Inputs section drawn" % name)
            failures += 1
        if pastes != 3 or selectable != 3:
            print("%s: want the 3 paste blocks (JSON, Python, C++) drawn and selectable whole" % name)
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
