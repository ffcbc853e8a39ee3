// client.js - drive poolcheck-lsp with a real LSP client library (vscode-jsonrpc), as an editor
// would: initialize, open a copy of the seed example with a zero-depth assemble pool, receive
// PC001 at the option's line, apply the quickfix's edit, send it as didChange, receive the
// cleared diagnostics, hover a tensor and a loop, close, shutdown, exit (status 0).
//
//   node client.js <poolcheck-lsp> <k_tmp_to_d_emb.py> <scratch dir>
'use strict';
const cp = require('child_process');
const fs = require('fs');
const path = require('path');
const url = require('url');
const rpc = require('vscode-jsonrpc/node');

const [server, example, work] = process.argv.slice(2);
if (!server || !example || !work) {
  console.error('usage: node client.js <poolcheck-lsp> <example.py> <scratch dir>');
  process.exit(2);
}

function fail(msg) {
  console.error('FAIL: ' + msg);
  process.exit(1);
}
function check(cond, msg) {
  if (!cond) fail(msg);
}
const deadline = setTimeout(() => fail('timed out after 120 s'), 120000);

// The copy of the seed example, with the zero-depth assemble pool configured at module level.
const option = 'pypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, 0, 1])';
let text = fs.readFileSync(example, 'utf8');
check(text.includes('import pypto\n'), 'the example has no `import pypto` line');
text = text.replace('import pypto\n', 'import pypto\n' + option + '\n');
fs.mkdirSync(work, { recursive: true });
const file = path.join(work, 'k_tmp_to_d_emb.py');
fs.writeFileSync(file, text);
const uri = url.pathToFileURL(file).href;
const lines = text.split('\n');
const optionLine = lines.findIndex((l) => l.startsWith(option));
const tensorLine = lines.findIndex((l) => l.includes('tmp_assemble = pypto.tensor('));
const loopLine = lines.findIndex((l) => l.includes('name="l_loop_1"'));

const child = cp.spawn(server, ['--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
child.on('error', (e) => fail('cannot start ' + server + ': ' + e.message));
const conn = rpc.createMessageConnection(
  new rpc.StreamMessageReader(child.stdout),
  new rpc.StreamMessageWriter(child.stdin));

// Anything on the server's stdout that is not a framed message breaks the reader: fail on it.
conn.onError(([err]) => fail('protocol error from the server stream: ' + (err && err.message)));
conn.onNotification('window/showMessage', (p) => console.log('server says: ' + p.message));
conn.onNotification('window/logMessage', (p) => console.log('server log: ' + p.message));

const published = [];
let wake = null;
conn.onNotification('textDocument/publishDiagnostics', (p) => {
  published.push(p);
  if (wake) wake();
});
async function published_matching(pred, what) {
  for (;;) {
    const hit = published.find(pred);
    if (hit) return hit;
    await new Promise((resolve) => { wake = resolve; });
  }
}

// Apply TextEdits: positions are UTF-16 code units, which is what JavaScript strings index.
function applyEdits(src, edits) {
  const starts = [0];
  for (let i = 0; i < src.length; i++) if (src[i] === '\n') starts.push(i + 1);
  const offset = (p) => starts[p.line] + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const e of sorted)
    src = src.slice(0, offset(e.range.start)) + e.newText + src.slice(offset(e.range.end));
  return src;
}

async function main() {
  conn.listen();
  const init = await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: url.pathToFileURL(work).href,
    capabilities: {
      general: { positionEncodings: ['utf-16'] },
      textDocument: {
        publishDiagnostics: { relatedInformation: true, versionSupport: true },
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } },
        hover: { contentFormat: ['markdown', 'plaintext'] },
      },
    },
  });
  const caps = init.capabilities;
  check(caps.positionEncoding === 'utf-16', 'positionEncoding ' + caps.positionEncoding);
  check(caps.textDocumentSync && caps.textDocumentSync.change === 1, 'not full sync');
  check(caps.hoverProvider === true && caps.codeActionProvider, 'hover/code actions not advertised');
  conn.sendNotification('initialized', {});

  conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'python', version: 1, text },
  });
  const first = await published_matching((p) => p.uri === uri && p.version === 1);
  const pc001 = first.diagnostics.find((d) => d.code === 'PC001');
  check(pc001, 'no PC001 in ' + JSON.stringify(first.diagnostics));
  check(pc001.range.start.line === optionLine,
    `PC001 at line ${pc001.range.start.line}, want ${optionLine} (the set_runtime_options line)`);
  check(pc001.severity === 1 && pc001.source === 'poolcheck', 'PC001 severity/source');
  check(pc001.codeDescription && /PC001\.md$/.test(pc001.codeDescription.href), 'PC001 href');
  console.log(`PC001 at ${pc001.range.start.line}:${pc001.range.start.character}: ${pc001.message}`);

  const actions = await conn.sendRequest('textDocument/codeAction', {
    textDocument: { uri },
    range: pc001.range,
    context: { diagnostics: [pc001], only: ['quickfix'] },
  });
  const fix = (actions || []).find((a) => a.kind === 'quickfix' &&
    (a.diagnostics || []).some((d) => d.code === 'PC001'));
  check(fix && fix.edit && fix.edit.changes && fix.edit.changes[uri], 'no quickfix edit for PC001');
  const fixed = applyEdits(text, fix.edit.changes[uri]);
  check(!fixed.includes('stitch_function_num_per_pool=[64, 0, 1]'), 'the edit left the zero');
  console.log(`applied "${fix.title}": ${fixed.split('\n')[optionLine]}`);

  conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text: fixed }],
  });
  const second = await published_matching((p) => p.uri === uri && p.version === 2);
  check(!second.diagnostics.some((d) => d.code === 'PC001'),
    'PC001 still reported after the fix: ' + JSON.stringify(second.diagnostics));
  check(!second.diagnostics.some((d) => d.severity === 1), 'an error remains after the fix');

  const col = lines[tensorLine].indexOf('tmp_assemble') + 3;
  const hover = await conn.sendRequest('textDocument/hover', {
    textDocument: { uri }, position: { line: tensorLine, character: col },
  });
  check(hover && /assemble_outcast/.test(hover.contents.value), 'tensor hover: ' + JSON.stringify(hover));
  const loopHover = await conn.sendRequest('textDocument/hover', {
    textDocument: { uri }, position: { line: loopLine, character: lines[loopLine].indexOf('for') + 1 },
  });
  check(loopHover && /64 instances/.test(loopHover.contents.value), 'loop hover: ' + JSON.stringify(loopHover));

  conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  await published_matching((p) => p.uri === uri && p.version === undefined && p.diagnostics.length === 0);

  await conn.sendRequest('shutdown');
  conn.sendNotification('exit');
  const code = await exited;
  check(code === 0, 'server exit status ' + code + ' after shutdown/exit');
  clearTimeout(deadline);
  conn.dispose();
  console.log('PASS: PC001 published, quickfix applied, diagnostics cleared, hovers, exit 0');
}

main().catch((e) => fail(e && e.stack ? e.stack : String(e)));
