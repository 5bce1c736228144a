import { readFileSync } from 'node:fs';
import http from 'node:http';
import { Readable } from 'node:stream';
import { readMultipart } from './lib/http/read-multipart.ts';
const b = readFileSync('/work/shared/data/faces/misc/32bit.png').subarray(0, 279922);
// A plain Node server handing the IncomingMessage to readMultipart as a web Request, like Next does.
const srv = http.createServer(async (req, res) => {
  const request = new Request('http://x' + req.url, { method: 'POST', headers: req.headers, body: Readable.toWeb(req), duplex: 'half' });
  try { const form = await readMultipart(request, { maxFileBytes: 10e6, maxFieldBytes: 16385, fileFields: ['image'] }); res.end('ok ' + form.files.size); }
  catch (e) { res.statusCode = 400; res.end(String(e.message)); }
});
await new Promise((r) => srv.listen(38518, '127.0.0.1', r));
let hangs = 0;
for (let i = 0; i < 40; i++) {
  const f = new FormData(); f.append('image', new Blob([b], { type: 'image/png' }), 'a');
  const r = await fetch('http://127.0.0.1:38518/', { method: 'POST', body: f, signal: AbortSignal.timeout(3000) }).then((r) => r.text(), (e) => 'HANG');
  if (r === 'HANG') hangs++;
}
console.log('hangs', hangs, 'of 40');
process.exit(0);
