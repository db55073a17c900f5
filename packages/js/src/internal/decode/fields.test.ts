import { describe, expect, it } from 'vitest';
import { MalformedAnswerError } from '../../errors.js';
import { decodeAnswer, readFields } from './fields.js';

interface Wire {
  name: string;
  note: string | null;
  count: number;
  flag: boolean;
  maybe?: boolean;
  data: null | number | string | { a: number };
  extra?: null | string;
  child: { id: string };
  parent: { id: string } | null;
  items: { id: string }[];
}

const answer: Wire = {
  name: 'n',
  note: null,
  count: 2,
  flag: false,
  data: { a: 1 },
  child: { id: 'c' },
  parent: null,
  items: [{ id: 'i0' }, { id: 'i1' }],
};

const readAll = (body: unknown) =>
  readFields<Wire, unknown>(body, (w) => ({
    name: w.string('name'),
    note: w.stringOrNull('note'),
    count: w.number('count'),
    flag: w.boolean('flag'),
    maybe: w.optionalBoolean('maybe'),
    data: w.json('data'),
    extra: w.optionalJson('extra'),
    child: w.object('child', (c) => c.nonEmptyString('id')),
    parent: w.objectOrNull('parent', (p) => p.string('id')),
    items: w.list('items', (i) => i.string('id')),
  }));

describe('field readers', () => {
  it('read every kind of field', () => {
    expect(readAll(answer)).toEqual({
      name: 'n',
      note: null,
      count: 2,
      flag: false,
      maybe: undefined,
      data: { a: 1 },
      extra: null,
      child: 'c',
      parent: null,
      items: ['i0', 'i1'],
    });
  });

  it.each([
    ['name', null, 'name must be a string'],
    ['note', 3, 'note must be a string or null'],
    ['count', '2', 'count must be a number'],
    ['flag', 0, 'flag must be a boolean'],
    ['maybe', 'true', 'maybe must be a boolean'],
    ['child', { id: '' }, 'child.id must be a non-empty string'],
    ['child', null, 'child must be a JSON object'],
    ['parent', { id: 1 }, 'parent.id must be a string'],
    ['items', [{ id: 'i0' }, {}], 'items[1].id is missing'],
  ])('name the path of a wrong %s', (key, value, problem) => {
    expect(() => readAll({ ...answer, [key]: value })).toThrow(`The service's answer is malformed: ${problem}`);
  });

  it('read only own fields, never the prototype’s', () => {
    const decode = (body: unknown) => readFields<{ toString: string }, string>(body, (w) => w.string('toString'));
    expect(() => decode({})).toThrow('toString is missing');
  });

  it('throw MalformedAnswerError with the field and problem as data', () => {
    const error = (() => {
      try {
        readAll({ ...answer, count: undefined });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(MalformedAnswerError);
    expect(error).toMatchObject({ call: null, field: 'count', problem: 'is missing' });
  });
});

describe('decodeAnswer', () => {
  it('names the call in a malformed answer', () => {
    expect(() => decodeAnswer('GET /users/me', {}, readAll)).toThrow(
      "The service's answer to GET /users/me is malformed: name is missing",
    );
  });

  it('passes other errors through unchanged', () => {
    const failure = new TypeError('boom');
    expect(() =>
      decodeAnswer('GET /x', {}, () => {
        throw failure;
      }),
    ).toThrow(failure);
  });
});
