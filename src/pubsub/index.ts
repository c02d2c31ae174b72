/**
 * The Pub/Sub layer's one entry point. esbuild builds it (with @google-cloud/pubsub) into its own
 * bundle, dist/pubsub.js, which the CLI and the extension load only when a Pub/Sub command runs:
 * the client library is megabytes of JavaScript and protos that `seqscope replay` and extension
 * activation never need. Callers import it with `await import('./')`.
 */
export * from './admin';
export * from './capturePublisher';
export * from './captureRecorder';
export * from './connection';
export * from './liveSchemas';
export * from './liveSource';
export * from './pubsubErrors';
export * from './receivedRecord';
export * from './resourceNames';
export * from './tap';
export * from './schemaService';
export * from './topicSchema';
