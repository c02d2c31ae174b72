/**
 * What a data engineer would run instead of SeqScope: DuckDB (`@duckdb/node-api`, a dev
 * dependency of the bench only) reads the capture's key, number and id with
 * `read_json(…, format='newline_delimited')`, then counts duplicates (`GROUP BY key, seq`) and
 * holes (`LAG(seq) OVER (PARTITION BY key ORDER BY seq)`). It knows nothing of timeouts,
 * redelivery against republish, late arrivals or wrapping numbers. Bundled to
 * .bench/duckdbQuery.js (DuckDB itself stays outside the bundle: it loads a native library) and
 * run as its own node process, so its time includes the process start, like the CLI's.
 *
 * Usage: node .bench/duckdbQuery.js <file>   → prints {"rows": N, "duplicates": D, "holes": H, "missing": M}
 */

/** The part of @duckdb/node-api used here (required at run time, so type-checking does not need it installed). */
interface DuckDb {
  DuckDBInstance: {
    create(path: string): Promise<{
      connect(): Promise<{ run(sql: string): Promise<unknown>; runAndReadAll(sql: string): Promise<{ getRows(): unknown[][] }> }>;
    }>;
  };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { DuckDBInstance } = require('@duckdb/node-api') as DuckDb;

async function main(path: string): Promise<void> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const file = path.replace(/'/g, "''");
  await c.run(
    `CREATE TEMP TABLE m AS SELECT message.attributes.Channel AS key, CAST(message.attributes.MsgSeqNum AS BIGINT) AS seq, message.messageId AS id FROM read_json('${file}', format='newline_delimited')`,
  );
  const [[rows, duplicates]] = (
    await c.runAndReadAll('SELECT (SELECT count(*) FROM m), (SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM m GROUP BY key, seq))')
  ).getRows();
  const [[holes, missing]] = (
    await c.runAndReadAll(
      'SELECT count(*), coalesce(sum(seq - prev - 1), 0) FROM (SELECT seq, LAG(seq) OVER (PARTITION BY key ORDER BY seq) AS prev FROM (SELECT DISTINCT key, seq FROM m)) WHERE seq - prev > 1',
    )
  ).getRows();
  process.stdout.write(JSON.stringify({ rows: Number(rows), duplicates: Number(duplicates), holes: Number(holes), missing: Number(missing) }) + '\n');
}

main(process.argv[2]).catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
