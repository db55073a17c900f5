import { describe, expect, it } from 'vitest';
import { MalformedAnswerError } from '../../errors.js';
import { decodeAnswer, optionalNumber, optionalObject, optionalString, readFields } from './fields.js';

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

describe('readers built on value()', () => {
  interface Optional {
    label?: string;
    size?: number;
    box?: { id: string };
    list: { box?: { id: string } }[];
  }
  const read = (body: unknown) =>
    readFields<Optional, unknown>(body, (w) => ({
      label: optionalString(w, 'label'),
      size: optionalNumber(w, 'size'),
      box: optionalObject(w, 'box', (b) => b.string('id')),
      list: w.list('list', (item) => optionalObject(item, 'box', (b) => b.string('id'))),
    }));

  it('read absent optional fields as undefined and present ones checked', () => {
    expect(read({ list: [{}] })).toEqual({ label: undefined, size: undefined, box: undefined, list: [undefined] });
    expect(read({ label: 'l', size: 3, box: { id: 'b' }, list: [{ box: { id: 'c' } }] })).toEqual({
      label: 'l',
      size: 3,
      box: 'b',
      list: ['c'],
    });
  });

  it.each([
    [{ label: 1, list: [] }, 'label must be a string'],
    [{ size: '3', list: [] }, 'size must be a number'],
    [{ box: null, list: [] }, 'box must be a JSON object'],
    [{ box: {}, list: [] }, 'box.id is missing'],
    [{ list: [{}, { box: { id: 2 } }] }, 'list[1].box.id must be a string'],
  ])('name the path of a wrong optional field in %j', (body, problem) => {
    expect(() => read(body)).toThrow(`The service's answer is malformed: ${problem}`);
  });

  it("value() takes the caller's check and wording", () => {
    const even = (body: unknown) =>
      readFields<{ n: number }, number>(body, (w) => w.value('n', (v) => typeof v === 'number' && v % 2 === 0, 'even'));
    expect(even({ n: 4 })).toBe(4);
    expect(() => even({ n: 3 })).toThrow('n must be even');
    expect(() => even({})).toThrow('n is missing');
  });
});
