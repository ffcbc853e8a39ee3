// client.js - drive poolcheck-lsp with a real LSP client library (vscode-jsonrpc), as an editor
// would: initialize, open a copy of the seed example with a zero-depth assemble pool, receive
// PC001 at the option's line, apply the quickfix's edit, send it as didChange, receive the
// cleared diagnostics, hover a tensor and a loop, ask for inlay hints and code lenses; open the
// example as it is (default mode), run its code lens's command, apply the workspace/applyEdit
// the server sends, and see PC009 go and the lens lose its command; close, shutdown, exit (0).
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

// The example unchanged, in default mode: PC009 suggests a configuration and its lens applies it.
const plainFile = path.join(work, 'k_plain.py');
let plainText = fs.readFileSync(example, 'utf8');
fs.writeFileSync(plainFile, plainText);
const plainUri = url.pathToFileURL(plainFile).href;

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

// workspace/applyEdit from the server: apply it to the plain document, as an editor would.
const applyRequests = [];
conn.onRequest('workspace/applyEdit', (p) => {
  applyRequests.push(p);
  const edits = p.edit && p.edit.changes && p.edit.changes[plainUri];
  if (!edits) return { applied: false, failureReason: 'no edit for ' + plainUri };
  plainText = applyEdits(plainText, edits);
  return { applied: true };
});

async function main() {
  conn.listen();
  const init = await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: url.pathToFileURL(work).href,
    capabilities: {
      general: { positionEncodings: ['utf-16'] },
      workspace: { applyEdit: true },
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
  check(caps.inlayHintProvider && caps.codeLensProvider && caps.executeCommandProvider &&
    caps.executeCommandProvider.commands.includes('poolcheck.applySuggestedConfiguration'),
    'inlay hints / code lenses / executeCommand not advertised: ' + JSON.stringify(caps));
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

  // Inlay hints: the tensor's pool and bytes after its name, the loop's instances after its header.
  const hints = await conn.sendRequest('textDocument/inlayHint', {
    textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } },
  });
  const fixedLines = fixed.split('\n');
  const tHint = (hints || []).find((h) => h.label === 'assemble_outcast, 4096 B');
  check(tHint && tHint.position.line === tensorLine &&
    tHint.position.character === fixedLines[tensorLine].indexOf('tmp_assemble') + 'tmp_assemble'.length &&
    tHint.kind === 1 && tHint.paddingLeft === true, 'tensor inlay hint: ' + JSON.stringify(hints));
  const lHint = (hints || []).find((h) => h.position.line === loopLine);
  check(lHint && lHint.label === '64 instances, 1 DeviceTask' &&
    lHint.position.character === fixedLines[loopLine].length, 'loop inlay hint: ' + JSON.stringify(hints));
  const oneLine = await conn.sendRequest('textDocument/inlayHint', {
    textDocument: { uri }, range: { start: { line: loopLine, character: 0 }, end: { line: loopLine + 1, character: 0 } },
  });
  check(oneLine.length === 1, 'inlay hints of one line: ' + JSON.stringify(oneLine));
  console.log(`inlay hints: ${hints.length}, e.g. "${tHint.label}", "${lHint.label}"`);

  // Code lens of the precise-mode document: the predicted depths, nothing to apply.
  const lenses = await conn.sendRequest('textDocument/codeLens', { textDocument: { uri } });
  check(lenses.length === 1 && lenses[0].command.title === 'poolcheck: predicted [64, 1, 1]' &&
    lenses[0].command.command === '', 'code lens (precise mode): ' + JSON.stringify(lenses));

  // The plain example: its lens applies the suggestion through workspace/applyEdit.
  conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: plainUri, languageId: 'python', version: 1, text: plainText },
  });
  const plainFirst = await published_matching((p) => p.uri === plainUri && p.version === 1);
  check(plainFirst.diagnostics.some((d) => d.code === 'PC009'), 'no PC009 on the plain example');
  const plainLenses = await conn.sendRequest('textDocument/codeLens', { textDocument: { uri: plainUri } });
  const lens = plainLenses[0];
  check(plainLenses.length === 1 && lens.command.command === 'poolcheck.applySuggestedConfiguration' &&
    lens.command.title === 'poolcheck: predicted [64, 1, 1] \u00b7 apply stitch_function_num_per_pool=[64, 2, 1]' &&
    lens.command.arguments[0] === plainUri && lens.command.arguments[1] === 'k_tmp_to_d_emb',
    'code lens (default mode): ' + JSON.stringify(plainLenses));
  console.log(`code lens at line ${lens.range.start.line}: ${lens.command.title}`);
  const res = await conn.sendRequest('workspace/executeCommand', {
    command: lens.command.command, arguments: lens.command.arguments,
  });
  check(res === null, 'executeCommand result ' + JSON.stringify(res));
  check(applyRequests.length === 1, 'workspace/applyEdit requests: ' + applyRequests.length);
  check(plainText.includes('stitch_function_num_per_pool=[64, 2, 1]'), 'the edit did not configure the pool');
  conn.sendNotification('textDocument/didChange', {
    textDocument: { uri: plainUri, version: 2 }, contentChanges: [{ text: plainText }],
  });
  const plainSecond = await published_matching((p) => p.uri === plainUri && p.version === 2);
  check(!plainSecond.diagnostics.some((d) => d.code === 'PC009' || d.severity === 1),
    'after applying: ' + JSON.stringify(plainSecond.diagnostics));
  const after = await conn.sendRequest('textDocument/codeLens', { textDocument: { uri: plainUri } });
  check(after.length === 1 && after[0].command.command === '', 'lens after applying: ' + JSON.stringify(after));
  console.log(`applied "${applyRequests[0].label}"; the lens now reads: ${after[0].command.title}`);
  conn.sendNotification('textDocument/didClose', { textDocument: { uri: plainUri } });

  conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  await published_matching((p) => p.uri === uri && p.version === undefined && p.diagnostics.length === 0);

  await conn.sendRequest('shutdown');
  conn.sendNotification('exit');
  const code = await exited;
  check(code === 0, 'server exit status ' + code + ' after shutdown/exit');
  clearTimeout(deadline);
  conn.dispose();
  console.log('PASS: PC001 published, quickfix applied, diagnostics cleared, hovers, inlay hints, ' +
    'code lenses, the lens command applied through workspace/applyEdit, exit 0');
}

main().catch((e) => fail(e && e.stack ? e.stack : String(e)));
