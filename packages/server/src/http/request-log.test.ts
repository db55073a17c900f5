import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { defaultLogger } from './request-log.js';

it('the default logger writes JSON lines with levels by name', () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  defaultLogger(sink).info({ reqId: 'r1' }, 'answered');
  expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'info', reqId: 'r1', msg: 'answered' });
});
