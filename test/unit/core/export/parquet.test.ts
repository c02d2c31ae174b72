import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COLUMN_NAMES, recordTimeMicros } from '../../../../src/core/export/parquetColumns';
import { ParquetFormatter } from '../../../../src/core/export/parquetFormatter';
import { TraceWriter } from '../../../../src/core/export/traceWriter';
import { TraceEvent } from '../../../../src/core/trace/traceEvents';

/** The part of @duckdb/node-api used here (a dev dependency: DuckDB reads the files back). */
interface DuckDb {
  DuckDBInstance: {
    create(path: string): Promise<{
      connect(): Promise<{ runAndReadAll(sql: string): Promise<{ getRowObjectsJS(): Record<string, unknown>[] }> }>;
    }>;
  };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { DuckDBInstance } = require('@duckdb/node-api') as DuckDb;

const T0 = Date.parse('2024-03-07T14:00:00Z');
const HOSTILE_KEY = '=cmd|\u202e' + 'x'.repeat(2000) + '\u0007\u0000<b>';

function events(): TraceEvent[] {
  return [
    {
      type: 'message',
      key: '310',
      seq: 1,
      messageId: 'm1',
      publishTime: '2024-03-07T13:59:59.990123456Z',
      receivedAt: '2024-03-07T15:00:00.000001+01:00',
      orderingKey: 'ok',
      attributes: { Channel: '310', Note: 'a, "b"\nc' },
      data: Buffer.from('{"x":1}').toString('base64'),
      deliveryAttempt: 1,
      arrivedAt: T0,
      releasedAt: T0 + 10_010.5,
      heldMs: 10_010.5,
      latencyMs: 4.5,
      file: 'a.jsonl',
      line: 1,
    },
    { type: 'gap', key: '310', from: 2, to: 4, count: 3, openedAt: T0 + 10, declaredAt: T0 + 10_010, waitedMs: 10_000, reason: 'timeout' },
    { type: 'message', key: HOSTILE_KEY, seq: 2 ** 53 - 1, messageId: '@m', arrivedAt: T0, releasedAt: T0, heldMs: 0, line: 2 },
    { type: 'duplicate', key: '310', seq: 1, messageId: 'm1', redelivery: true, deliveryAttempt: 2, at: T0 + 20_000, line: 7 },
    {
      type: 'duplicate',
      key: '310',
      seq: 1,
      messageId: 'm1',
      redelivery: false,
      conflict: true,
      conflictReason: 'data differs from the first copy',
      firstMessageId: 'm1',
      cascade: 2,
      at: T0 + 20_001,
      line: 8,
    },
    { type: 'late', key: '310', seq: 3, messageId: 'm3', lostAt: T0 + 10_010, at: T0 + 30_000, line: 9 },
    { type: 'late', key: '311', seq: 7, messageId: 'm7', lostAt: T0, beforeStart: true, at: T0 + 30_000, line: 11 },
    {
      type: 'reordered',
      key: 'order-1',
      messageId: 'r2',
      publishTime: '2024-03-07T13:59:58.5Z',
      behindPublishTime: '2024-03-07T13:59:59.25Z',
      behindMessageId: 'r3',
      byMs: 750,
      byPosition: 2,
      receivedAt: '2024-03-07T14:00:01Z',
      at: T0 + 31_000,
      line: 12,
    },
    { type: 'reset', key: '310', from: 1_500_099, to: 1, at: T0 + 32_000, arrivedAt: T0 + 31_500, released: 2, lost: 1, how: 'next' },
    { type: 'invalid', line: 10, reason: 'not valid JSON', at: T0 + 30_000 },
  ];
}

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(':memory:');
  return (await (await db.connect()).runAndReadAll(sql)).getRowObjectsJS();
}

const quoted = (path: string) => `'${path.replace(/'/g, "''")}'`;

describe('Parquet export', function () {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'seqscope-parquet-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function writeTrace(name: string, evs: TraceEvent[]): Promise<string> {
    const path = join(dir, name);
    const w = await TraceWriter.open(path, 'parquet');
    for (const ev of evs) w.add(ev);
    await w.flush();
    await w.close();
    return path;
  }

  it('DuckDB reads every column with its type', async () => {
    const path = await writeTrace('types.parquet', events());
    const described = await query(`DESCRIBE SELECT * FROM read_parquet(${quoted(path)})`);
    const types = Object.fromEntries(described.map((r) => [r.column_name, r.column_type]));
    assert.deepEqual(Object.keys(types), COLUMN_NAMES);
    const tz = 'TIMESTAMP WITH TIME ZONE';
    assert.deepEqual(types, {
      type: 'VARCHAR',
      key: 'VARCHAR',
      seq: 'BIGINT',
      from: 'BIGINT',
      to: 'BIGINT',
      count: 'BIGINT',
      messageId: 'VARCHAR',
      redelivery: 'BOOLEAN',
      firstMessageId: 'VARCHAR',
      cascade: 'BIGINT',
      conflict: 'BOOLEAN',
      conflictReason: 'VARCHAR',
      publishTime: tz,
      receivedAt: tz,
      orderingKey: 'VARCHAR',
      deliveryAttempt: 'BIGINT',
      arrivedAt: tz,
      releasedAt: tz,
      heldMs: 'DOUBLE',
      openedAt: tz,
      declaredAt: tz,
      waitedMs: 'DOUBLE',
      lostAt: tz,
      at: tz,
      reason: 'VARCHAR',
      latencyMs: 'DOUBLE',
      file: 'VARCHAR',
      line: 'BIGINT',
      attributes: 'MAP(VARCHAR, VARCHAR)',
      data: 'BLOB',
      behindMessageId: 'VARCHAR',
      behindPublishTime: tz,
      byMs: 'DOUBLE',
      byPosition: 'BIGINT',
      released: 'BIGINT',
      lost: 'BIGINT',
      how: 'VARCHAR',
      beforeStart: 'BOOLEAN',
      decodedBy: 'VARCHAR',
    });
  });

  it('round-trips every event: same rows, same values, absent fields as NULL', async () => {
    const evs = events();
    const path = await writeTrace('rows.parquet', evs);
    const rows = await query(
      `SELECT type, key, seq, "from", "to", count, messageId, redelivery, firstMessageId, cascade, conflict, conflictReason,
        epoch_us(publishTime) AS publishTime, epoch_us(receivedAt) AS receivedAt, orderingKey, deliveryAttempt,
        epoch_us(arrivedAt) AS arrivedAt, epoch_us(releasedAt) AS releasedAt, heldMs, epoch_us(openedAt) AS openedAt,
        epoch_us(declaredAt) AS declaredAt, waitedMs, epoch_us(lostAt) AS lostAt, epoch_us("at") AS "at", reason, latencyMs,
        file, line, to_json(attributes)::VARCHAR AS attributes, data, behindMessageId, epoch_us(behindPublishTime) AS behindPublishTime,
        byMs, byPosition, released, lost, how, beforeStart, decodedBy
       FROM read_parquet(${quoted(path)})`,
    );
    assert.equal(rows.length, evs.length);
    const us = (ms: number) => BigInt(Math.round(ms * 1000));
    for (const [i, ev] of evs.entries()) {
      const row = rows[i];
      const e = ev as unknown as Record<string, unknown>;
      for (const name of COLUMN_NAMES) {
        const want = e[name];
        const got = row[name];
        if (want === undefined) {
          assert.equal(got, null, `${ev.type} ${name} is NULL`);
        } else if (name === 'publishTime' || name === 'receivedAt' || name === 'behindPublishTime') {
          assert.equal(got, recordTimeMicros(want as string), `${ev.type} ${name}`);
        } else if (['arrivedAt', 'releasedAt', 'openedAt', 'declaredAt', 'lostAt', 'at'].includes(name)) {
          assert.equal(got, us(want as number), `${ev.type} ${name}`);
        } else if (['seq', 'from', 'to', 'count', 'cascade', 'deliveryAttempt', 'line', 'byPosition', 'released', 'lost'].includes(name)) {
          assert.equal(got, BigInt(want as number), `${ev.type} ${name}`);
        } else if (name === 'attributes') {
          assert.deepEqual(JSON.parse(got as string), want);
        } else if (name === 'data') {
          assert.deepEqual(Buffer.from(got as Uint8Array), Buffer.from(want as string, 'base64'));
        } else {
          assert.equal(got, want, `${ev.type} ${name}`);
        }
      }
    }
    // Times are exact to the µs, from the record's own digits (the +01:00 offset applied).
    assert.equal(rows[0].publishTime, 1709819999990123n);
    assert.equal(rows[0].receivedAt, 1709820000000001n);
    assert.equal(rows[2].key, HOSTILE_KEY);
    assert.equal(rows[2].seq, 2n ** 53n - 1n);
  });

  it('a 10 MB payload round-trips byte for byte', async () => {
    const payload = Buffer.alloc(10 * 1024 * 1024);
    for (let i = 0; i < payload.length; i++) payload[i] = (i * 131 + (i >> 11)) & 0xff;
    const ev: TraceEvent = {
      type: 'message',
      key: 'big',
      seq: 1,
      messageId: 'big-1',
      data: payload.toString('base64'),
      arrivedAt: T0,
      releasedAt: T0,
      heldMs: 0,
      line: 1,
    };
    const path = await writeTrace('big.parquet', [ev, { ...ev, seq: 2, messageId: 'big-2', data: undefined }]);
    const rows = await query(`SELECT seq, octet_length(data) AS n, md5(data) AS md5 FROM read_parquet(${quoted(path)}) ORDER BY seq`);
    const { createHash } = await import('node:crypto');
    assert.deepEqual(rows, [
      { seq: 1n, n: BigInt(payload.length), md5: createHash('md5').update(payload).digest('hex') },
      { seq: 2n, n: null, md5: null },
    ]);
  });

  it('writes a row group per batch of rows as they come, and the footer indexes them all', async () => {
    const f = new ParquetFormatter(1000);
    const parts: Uint8Array[] = [f.header()];
    const many: TraceEvent[] = [];
    for (let i = 0; i < 2500; i++)
      many.push({ type: 'message', key: `k${i % 7}`, seq: i, messageId: `m${i}`, arrivedAt: T0 + i, releasedAt: T0 + i, heldMs: 0, line: i + 1 });
    // Two full groups leave the formatter before the footer; the rest waits for it.
    const first = f.format(many.slice(0, 2100));
    assert.ok(first.length > 0, 'the first two row groups are out');
    parts.push(first, f.format(many.slice(2100)), f.footer());
    const path = join(dir, 'groups.parquet');
    writeFileSync(path, Buffer.concat(parts));
    const groups = await query(`SELECT row_group_id, any_value(row_group_num_rows) AS n FROM parquet_metadata(${quoted(path)}) GROUP BY 1 ORDER BY 1`);
    assert.deepEqual(
      groups.map((g) => g.n),
      [1000n, 1000n, 500n],
    );
    const [sum] = await query(`SELECT count(*) AS n, sum(seq) AS s, count(DISTINCT key) AS keys FROM read_parquet(${quoted(path)})`);
    assert.deepEqual(sum, { n: 2500n, s: BigInt((2499 * 2500) / 2), keys: 7n });
  });

  it('an empty trace is a valid file with no rows', async () => {
    const path = await writeTrace('empty.parquet', []);
    const [r] = await query(`SELECT count(*) AS n FROM read_parquet(${quoted(path)})`);
    assert.equal(r.n, 0n);
  });

  it('reads record times to the µs from their own digits', () => {
    assert.equal(recordTimeMicros('2024-03-07T13:59:59.990123456Z'), 1709819999990123n);
    assert.equal(recordTimeMicros('2024-03-07T13:59:59Z'), 1709819999000000n);
    assert.equal(recordTimeMicros('1709819999990123456'), 1709819999990123n);
    assert.equal(recordTimeMicros('1709819999990'), 1709819999990000n);
    assert.equal(recordTimeMicros('not a time'), null);
  });

  it('reads a second it has just read the same way as any other, whatever came before', () => {
    const second = (ms: number) => new Date(ms).toISOString().slice(0, 19);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_102_444_700 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.stringMatching(/^\d{0,9}$/)), { minLength: 1, maxLength: 20 }),
        (base, times) => {
          for (const [offset, digits] of times) {
            const s = base + offset;
            const text = `${second(s * 1000)}${digits ? `.${digits}` : ''}Z`;
            const micros = BigInt(s) * 1_000_000n + BigInt((digits + '000000').slice(0, 6));
            assert.equal(recordTimeMicros(text), micros, text);
            assert.equal(recordTimeMicros(` ${text}`), micros, `padded ${text}`);
          }
        },
      ),
    );
    assert.equal(recordTimeMicros('2024-02-30T00:00:00.5Z'), null);
    assert.equal(recordTimeMicros('2024-03-07T13:59:59.5+01:00'), 1709816399500000n);
  });
});
