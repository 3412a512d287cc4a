#!/usr/bin/env node
// A stand-in for `lintgv server` whose fix-all action has an edit: no lintgv rule has a safe
// fix yet, so the real server's fix-all changes nothing, and this is how the test sees the
// extension apply a fix-all edit while a file is saved. It speaks just enough LSP over
// stdio: full document sync, and `source.fixAll.lintgv` rewriting `tvm.ir.GlobalVar(` to
// `supply.fresh_global(`.

if (process.argv.includes('--version')) {
  console.log('lintgv 0.0.0 (fix-all stand-in)');
  process.exit(0);
}

const documents = new Map();
let buffer = Buffer.alloc(0);

function send(message) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
}

function fixAll(uri) {
  const text = documents.get(uri);
  if (text === undefined || !text.includes('tvm.ir.GlobalVar(')) {
    return [];
  }
  const lines = text.split('\n');
  const range = { start: { line: 0, character: 0 }, end: { line: lines.length - 1, character: lines.at(-1).length } };
  const newText = text.replaceAll('tvm.ir.GlobalVar(', 'supply.fresh_global(');
  return [{ title: 'Fix all', kind: 'source.fixAll.lintgv', edit: { changes: { [uri]: [{ range, newText }] } } }];
}

function handle(message) {
  const { id, method, params } = message;
  switch (method) {
    case 'initialize':
      return send({
        id,
        result: {
          capabilities: {
            textDocumentSync: 1,
            codeActionProvider: { codeActionKinds: ['source.fixAll.lintgv'] },
          },
          serverInfo: { name: 'fix-all stand-in' },
        },
      });
    case 'textDocument/didOpen':
      documents.set(params.textDocument.uri, params.textDocument.text);
      return undefined;
    case 'textDocument/didChange':
      documents.set(params.textDocument.uri, params.contentChanges.at(-1).text);
      return undefined;
    case 'textDocument/codeAction':
      return send({
        id,
        result: (params.context.only ?? []).includes('source.fixAll.lintgv') ? fixAll(params.textDocument.uri) : [],
      });
    case 'shutdown':
      return send({ id, result: null });
    case 'exit':
      return process.exit(0);
    default:
      return id === undefined || method === undefined ? undefined : send({ id, result: null });
  }
}

process.stdin.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf('\r\n\r\n');
    if (end < 0) {
      return;
    }
    const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString('ascii'))?.[1]);
    if (buffer.length < end + 4 + length) {
      return;
    }
    const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    buffer = buffer.subarray(end + 4 + length);
    handle(JSON.parse(body));
  }
});
