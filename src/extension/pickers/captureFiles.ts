/** Gzip-compressed captures end in `.gz` (`feed.jsonl.gz`): a filter matches the last extension only. */
export const CAPTURE_FILTERS = { 'Captures (JSON Lines, JSON, Avro, gzip)': ['jsonl', 'json', 'ndjson', 'avro', 'gz'], 'All files': ['*'] };
