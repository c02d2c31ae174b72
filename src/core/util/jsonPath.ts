/**
 * Payload field paths (`--key json:payload[0].instrument.symbol`): dotted names with `[n]`
 * array indexes, nothing else. A full JSONPath engine (filters, wildcards, script) would add
 * evaluation we never want on untrusted payloads, and one path picks one value.
 */
import { InputError } from './inputError';

/** A parsed path: property names and array indexes, in order. */
export type JsonPath = readonly (string | number)[];

/** A name: anything but `.`, `[`, `]`. */
const NAME = /^[^.[\]]+/;
const INDEX = /^\[(\d+)\]/;

/** Parses `a.b[0].c` (a leading `$.`, as JSONPath writes the root, is allowed); throws RangeError saying where the path is wrong. */
export function parseJsonPath(text: string): JsonPath {
  const out: (string | number)[] = [];
  let rest = text.startsWith('$.') ? text.slice(2) : text;
  let expectName = true;
  while (rest.length > 0) {
    const idx = INDEX.exec(rest);
    if (idx) {
      if (out.length === 0 && expectName) throw new InputError(`path "${text}" must start with a field name`);
      const n = Number(idx[1]);
      if (!Number.isSafeInteger(n)) throw new InputError(`path "${text}": index ${idx[1]} is too large`);
      out.push(n);
      rest = rest.slice(idx[0].length);
      expectName = false;
      continue;
    }
    if (rest[0] === '.') {
      if (expectName) throw new InputError(`path "${text}" has an empty field name`);
      rest = rest.slice(1);
      expectName = true;
      if (rest.length === 0) throw new InputError(`path "${text}" ends with "."`);
      continue;
    }
    const name = NAME.exec(rest);
    if (!name || !expectName)
      throw new InputError(
        `path "${text}" is not valid at "${rest}": write field names joined by "." with [n] for array items, e.g. payload[0].instrument.symbol`,
      );
    out.push(name[0]);
    rest = rest.slice(name[0].length);
    expectName = false;
  }
  if (out.length === 0) throw new InputError('the path is empty: write e.g. header.sentTime');
  return out;
}

export function formatJsonPath(path: JsonPath): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s === '' ? p : `.${p}`;
  return s;
}

/** The value at `path`, or undefined. Own properties only: `constructor` or `__proto__` find nothing. */
export function evalJsonPath(value: unknown, path: JsonPath): unknown {
  let v = value;
  for (const p of path) {
    if (typeof p === 'number') {
      if (!Array.isArray(v) || p >= v.length) return undefined;
      v = v[p];
    } else {
      if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, p)) return undefined;
      v = (v as Record<string, unknown>)[p];
    }
  }
  return v;
}
