#!/usr/bin/env python3
"""End-to-end test of the HTML report (docs/report.md), registered by tests/e2e/html.cmake.

1. Writes the report of the seed example (examples/k_tmp_to_d_emb.py) with
   `poolcheck check --report=out.html`, or, while the CLI has no --report, with html_report_demo
   (which calls pc_rep_html_write the same way).
2. Validates it: well-formed XML (xml.dom.minidom), tags balanced as HTML (html.parser),
   self-contained (no script, nothing a browser would fetch), and the seed's numbers as SVG text:
   predicted 64, 1, 1 and the DeviceTask sizes 128 and 1; the Inputs section with the command
   line's --set and --bind and their sources, and the JSON / Python / C++ snippets to paste.
3. Renders it with headless Chromium (installed if missing: scripts/install-deps.sh chromium, else
   apt-get) in the light and the dark colour scheme, and checks that the screenshots are not blank
   (distinct colours counted with the pure-Python PNG decoder below) and that the dark one is dark.

Exit status: 0 pass, 1 fail, 77 skipped (no Chromium and it could not be installed).
"""
import argparse
import html.parser
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.dom.minidom
import zlib

SVG_NS = 'http://www.w3.org/2000/svg'


def fail(msg):
    print('html_report_e2e: FAIL: ' + msg, file=sys.stderr)
    sys.exit(1)


def note(msg):
    print('html_report_e2e: ' + msg)


# ---- 1. the report ---------------------------------------------------------------------------

def write_report(args, out):
    example = os.path.join('examples', 'k_tmp_to_d_emb.py')
    helptext = subprocess.run([args.poolcheck, 'check', '--help'], capture_output=True, text=True)
    if '--report' in helptext.stdout + helptext.stderr:
        # a --set and a --bind, so that the Inputs section has something from the command line
        cmd = [args.poolcheck, 'check', '--no-config-lookup', '--set', 'max_workspace_kb=4096', '--bind', 'B_STATIC=1',
               '--report=' + out, example]
    else:
        cmd = [args.demo, out, example]
    note('running ' + ' '.join(cmd))
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=args.source_dir)
    if r.returncode != 0:
        fail('%s exited with %d\nstdout:\n%s\nstderr:\n%s' % (cmd[0], r.returncode, r.stdout, r.stderr))
    if not os.path.isfile(out) or os.path.getsize(out) == 0:
        fail('no report written to ' + out)


# ---- 2. validation ---------------------------------------------------------------------------

VOID = {'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'}


class Balance(html.parser.HTMLParser):
    """Tags nested and closed as HTML reads them; nothing that loads or runs anything."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.errors = []

    def check_attrs(self, tag, attrs):
        for name, value in attrs:
            value = value or ''
            if name == 'src' or name.startswith('on'):
                self.errors.append('%s has %s=' % (tag, name))
            if name in ('href', 'xlink:href') and not (value.startswith('#') or value.startswith('file://')):
                self.errors.append('%s links to %r' % (tag, value))
            if 'url(' in value and 'url(#' not in value:
                self.errors.append('%s %s uses url(): %r' % (tag, name, value))

    def handle_starttag(self, tag, attrs):
        if tag in ('script', 'iframe', 'object', 'embed', 'img', 'link', 'image', 'use', 'foreignobject'):
            self.errors.append('<%s> element' % tag)
        self.check_attrs(tag, attrs)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.check_attrs(tag, attrs)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append('</%s> closes <%s>' % (tag, self.stack[-1] if self.stack else 'nothing'))
            return
        self.stack.pop()


def svg_texts(dom):
    out = []
    for t in dom.getElementsByTagNameNS(SVG_NS, 'text'):
        out.append(''.join(n.data for n in t.childNodes if n.nodeType == n.TEXT_NODE))
    return out


def validate(path):
    data = open(path, 'rb').read()
    try:
        dom = xml.dom.minidom.parseString(data)
    except Exception as e:  # expat's ExpatError, with line and column
        fail('not well-formed XML: %s' % e)
    text = data.decode('utf-8')
    p = Balance()
    p.feed(text)
    p.close()
    if p.errors:
        fail('HTML: ' + '; '.join(p.errors[:10]))
    if p.stack:
        fail('HTML: unclosed ' + ', '.join(p.stack))
    if not text.startswith('<!DOCTYPE html>'):
        fail('no <!DOCTYPE html>')
    for bad in ('@import', '@font-face'):
        if bad in text:
            fail('style sheet uses ' + bad)
    style = ''.join(n.data for s in dom.getElementsByTagName('style') for n in s.childNodes)
    if 'prefers-color-scheme: dark' not in style:
        fail('no dark colour scheme')
    texts = svg_texts(dom)
    want = {'predicted 64': 1, 'predicted 1': 2, 'T0: 128 instances': 1, 'T1: 1 instance': 1,
            'closed: k reached': 1, 'closed: end': 1, '128': 1, '64': 1, '1': 1}
    for s, n in want.items():
        got = texts.count(s)
        if got < n:
            fail('SVG text %r appears %d times, want at least %d' % (s, got, n))
    if not any(t.startswith('each cell = 1 instance') for t in texts):
        fail('no "each cell = 1 instance" note')
    check_inputs(dom)
    note('report is well-formed, self-contained and shows the seed numbers (%d bytes, %d SVG texts)'
         % (len(data), len(texts)))


def element_text(node):
    if node.nodeType == node.TEXT_NODE:
        return node.data
    return ''.join(element_text(c) for c in node.childNodes)


def check_inputs(dom):
    """The Inputs section (the report reproduces what it was run with): the command line, the --set and --bind with their
    source, and the three snippets to paste."""
    by_id = {}
    for tag in ('section', 'pre', 'h3'):
        for e in dom.getElementsByTagName(tag):
            if e.getAttribute('id'):
                by_id[e.getAttribute('id')] = e
    sec = by_id.get('inputs')
    if sec is None:
        fail('no Inputs section (id="inputs")')
    text = element_text(sec)
    for want in ('poolcheck check --no-config-lookup --set max_workspace_kb=4096 --bind B_STATIC=1',
                 'B_STATIC1--bind', 'max_workspace_kb4096--set', 'Configuration to paste'):
        if want not in text:
            fail('the Inputs section lacks %r' % want)
    snippets = {'json': '"stitch_function_num_per_pool": [64, 2, 1]',
                'python': 'pypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, 2, 1])',
                'cpp': 'config::SetRuntimeOption("stitch_function_num_per_pool", std::vector<int64_t>{64, 2, 1});'}
    for kind, want in snippets.items():
        pre = by_id.get('paste-' + kind)
        if pre is None or want not in element_text(pre):
            fail('no %s snippet with %r' % (kind, want))


# ---- 3. rendering ----------------------------------------------------------------------------

def find_chromium():
    for name in ('chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'):
        p = shutil.which(name)
        if p:
            return p
    return None


def ensure_chromium(source_dir):
    exe = find_chromium()
    if exe:
        return exe
    note('Chromium is missing: installing it')
    script = os.path.join(source_dir, 'scripts', 'install-deps.sh')
    subprocess.run(['bash', script, 'chromium'], capture_output=True)
    exe = find_chromium()
    if exe:
        return exe
    # install-deps.sh installs its whole list; when another package of it cannot be installed
    # here, install the one package directly.
    sudo = [] if os.geteuid() == 0 else (['sudo', '-n'] if shutil.which('sudo') else None)
    if sudo is not None and shutil.which('apt-get'):
        env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
        subprocess.run(sudo + ['apt-get', 'update', '-qq'], capture_output=True, env=env)
        subprocess.run(sudo + ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'chromium'],
                       capture_output=True, env=env)
    return find_chromium()


def screenshot(exe, html_path, png_path, dark):
    profile = tempfile.mkdtemp(prefix='pc-html-chromium-')
    try:
        cmd = [exe, '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
               '--disable-component-update', '--disable-sync', '--no-first-run', '--hide-scrollbars',
               '--user-data-dir=' + profile, '--screenshot=' + png_path, '--window-size=1200,1600']
        if dark:
            cmd += ['--force-dark-mode', '--blink-settings=preferredColorScheme=0']
        cmd.append('file://' + os.path.abspath(html_path))
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if r.returncode != 0 or not os.path.isfile(png_path):
            fail('chromium exited with %d\n%s' % (r.returncode, r.stderr[-3000:]))
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def png_pixels(path):
    """Decode an 8-bit, non-interlaced greyscale/RGB/RGBA PNG: (width, height, channels, rows)."""
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        fail(path + ' is not a PNG')
    pos, idat, ihdr = 8, [], None
    while pos < len(data):
        (length,) = struct.unpack('>I', data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b'IHDR':
            ihdr = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat.append(body)
        elif kind == b'IEND':
            break
    if not ihdr:
        fail(path + ': no IHDR')
    width, height, depth, ctype, _, _, interlace = ihdr
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(ctype)
    if depth != 8 or channels is None or interlace:
        fail('%s: unsupported PNG (depth %d, colour type %d, interlace %d)' % (path, depth, ctype, interlace))
    raw = zlib.decompress(b''.join(idat))
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b = prev[i]
                c = prev[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        elif f != 0:
            fail('%s: bad filter type %d' % (path, f))
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def check_picture(path, dark):
    width, height, ch, rows = png_pixels(path)
    colours, counts = set(), {}
    for row in rows:
        for x in range(0, width * ch, ch):
            px = row[x:x + min(ch, 3)]
            colours.add(px)
            counts[px] = counts.get(px, 0) + 1
    background = max(counts, key=counts.get)
    coverage = 1 - counts[background] / (width * height)
    lum = sum(background) / len(background)
    note('%s: %dx%d, %d distinct colours, %.1f%% drawn, background %s'
         % (os.path.basename(path), width, height, len(colours), 100 * coverage, background.hex()))
    if len(colours) <= 10:
        fail('%s looks blank: %d distinct colours' % (path, len(colours)))
    if coverage < 0.03:
        fail('%s looks blank: %.2f%% of the pixels differ from the background' % (path, 100 * coverage))
    if dark and lum > 80:
        fail('%s: the dark colour scheme has a light background (%s)' % (path, background.hex()))
    if not dark and lum < 180:
        fail('%s: the light colour scheme has a dark background (%s)' % (path, background.hex()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--poolcheck', required=True)
    ap.add_argument('--demo', required=True)
    ap.add_argument('--source-dir', required=True)
    ap.add_argument('--work', required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    out = os.path.join(args.work, 'out.html')
    if os.path.exists(out):
        os.remove(out)
    write_report(args, out)
    validate(out)
    exe = ensure_chromium(args.source_dir)
    if not exe:
        print('html_report_e2e: SKIP: Chromium is not installed and could not be installed', file=sys.stderr)
        sys.exit(77)
    for dark in (False, True):
        png = os.path.join(args.work, 'out-dark.png' if dark else 'out.png')
        if os.path.exists(png):
            os.remove(png)
        screenshot(exe, out, png, dark)
        check_picture(png, dark)
    note('PASS')


if __name__ == '__main__':
    main()
