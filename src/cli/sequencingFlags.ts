/** The sequencing flags `replay` and `record` share, as commander hands them over (strings). */
export interface SequencingFlags {
  preset?: string;
  key?: string;
  seq?: string;
  seqBits?: string;
  gapTimeout?: string;
  capacity?: string;
}
