import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
const contents = `import { ClientApp } from './index.js';
const app = new ClientApp({ projectId: 'p', publishableClientKey: 'k', baseUrl: 'https://a.example', tokenStore: 'cookie' });
app.getUser().then(console.log);`;
const onCall = { name: 'x', setup: (b) => b.onResolve({ filter: /./ }, (a) => a.kind === 'dynamic-import' ? { path: a.path, external: true } : undefined) };
const r = await build({ stdin: { contents, resolveDir: 'src', loader: 'ts' }, bundle: true, minify: true, format: 'esm', platform: 'browser', plugins:[onCall], conditions: ['source'], write: false, metafile: true, logLevel: 'silent' });
const t = r.outputFiles[0].text; console.log(t.length, gzipSync(t).length);
for (const w of ['account-security', 'Passkey', 'Mfa', 'totp', 'passkeys']) { let i = -1; while ((i = t.indexOf(w, i + 1)) >= 0) console.log(w, '...', t.slice(Math.max(0, i - 150), i + 150)); }
const ins = Object.entries(r.metafile.outputs[Object.keys(r.metafile.outputs)[0]].inputs).sort((a,b)=>b[1].bytesInOutput-a[1].bytesInOutput);
for (const [p, i] of ins.slice(0, 60)) console.log(i.bytesInOutput, p);
