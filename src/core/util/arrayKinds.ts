/**
 * Empty arrays that start in the storage kind they will end in.
 *
 * V8 stores an array's elements in one of a few kinds — small integers, unboxed doubles, or
 * references — and `[]` starts as small integers. The first push of a fractional time or of an
 * object converts the array (a new hidden class). Optimised code is compiled for the classes it
 * has seen, so every fresh queue that converts on its first push throws the engine's hot
 * functions back to the interpreter: a new Sequencer did so a dozen times over its first few
 * million messages, and a pass ran up to twice as slow until the code settled. Arrays made here
 * are already of their final kind, so one class per field is all the code ever sees.
 */

/** An empty array for numbers, kept unboxed (V8's PACKED_DOUBLE_ELEMENTS) from its first push. */
export function numberArray(): number[] {
  const a = [0.5];
  a.length = 0;
  return a;
}

/** An empty array for references (V8's PACKED_ELEMENTS) from its first push. */
export function refArray<T>(): T[] {
  const a: unknown[] = [undefined];
  a.length = 0;
  return a as T[];
}
