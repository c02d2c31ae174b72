/**
 * A Pub/Sub `ReceivedMessage` in the REST shape, plus SeqScope's own fields: the record type every
 * reader produces (captureRecord.ts re-exports it). Types only, below every reader, so the readers
 * that build records (JSON Lines, BigQuery rows, Avro) need not import one another.
 */
export interface PubsubMessage {
  /** Base64 payload. */
  data?: string;
  attributes?: Record<string, string>;
  messageId: string;
  publishTime?: string;
  orderingKey?: string;
  /**
   * SeqScope's addition: the payload (`data`, JSON text) is a record its schema already decoded,
   * as the named export wrote it — a BigQuery subscription's table with `use_topic_schema`, whose
   * columns are the schema's fields (see bigQueryRows.ts). Read as it is, never by a schema.
   */
  decodedBy?: string;
}

export interface ReceivedMessage {
  ackId?: string;
  message: PubsubMessage;
  deliveryAttempt?: number;
  /** RFC 3339; SeqScope's addition. */
  receivedAt?: string;
  /**
   * The topic it was received from (`projects/P/topics/T`), SeqScope's addition in a recording of
   * several topics at once: a sequence is per topic and key, so the key of a record that carries
   * a topic is qualified by the topic's id (see topicKey).
   */
  topic?: string;
}
