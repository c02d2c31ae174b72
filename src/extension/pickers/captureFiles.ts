/** Gzip-compressed captures end in `.gz` (`feed.jsonl.gz`): a filter matches the last extension only. */
export const CAPTURE_FILTERS = { 'Captures (JSON Lines, JSON, gzip)': ['jsonl', 'json', 'ndjson', 'gz'], 'All files': ['*'] };
