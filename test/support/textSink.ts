import { Writable } from 'node:stream';

/** A stream that keeps what is written to it (in `text`), and says whether it is a terminal. */
export function textSink(isTTY = false): Writable & { text: string; isTTY: boolean } {
  const w = new Writable({
    write(chunk, _enc, done) {
      w.text += String(chunk);
      done();
    },
  }) as Writable & { text: string; isTTY: boolean };
  w.text = '';
  w.isTTY = isTTY;
  return w;
}
