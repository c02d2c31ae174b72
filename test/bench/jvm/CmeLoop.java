/*
 * The consumer loop of CME's Pub/Sub sequencer sample ("OrderedPubSubListener", Java) on the JVM,
 * per key as test/bench/cmeBaseline.ts runs it, so the engine bench can set the real thing beside
 * its TypeScript port on the same stream.
 *
 * As the sample: every message becomes a UnitOfWork (its MsgSeqNum, a Java long) in a
 * ConcurrentSkipListSet ordered by MsgSeqNum, which rejects a second copy of a number; the loop
 * polls the first element while it is current + 1, polls and drops it while it is <= current,
 * and, once it has waited 10 s, skips to it. As the port (each choice there is explained in
 * cmeBaseline.ts): a set per key, the loop run for a key when that key receives a message, the
 * wait counted from the first held element's arrival, a key's first 10 s buffered before its
 * first poll, and at the end everything held processed with its gaps skipped. The counts must
 * equal the port's: the bench checks them.
 *
 * Input: the stream file test/bench/jvmStream.ts writes (little-endian): "SQJ1", int32 count,
 * int32 key count, each key name as int32 length + UTF-8, then per message int32 key index,
 * int64 MsgSeqNum, float64 arrival time (ms).
 *
 * Usage: java -cp <classes> CmeLoop <stream file> <warm-up passes> <timed passes>
 * Prints one JSON line: the JVM, its collectors, each timed pass's wall and CPU time (ms; CPU
 * time of the whole process, JIT and GC threads included, as the TypeScript side's), and the
 * counts, which every pass must agree on.
 */
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListSet;

public final class CmeLoop {
  /** The sample's maxWaitForNextSequence (10 s), and its 10 s buffering before the first poll. */
  static final double TIMEOUT_MS = 10_000;

  /** The sample's UnitOfWork: the number it is ordered by, when it arrived, and the message. */
  static final class UnitOfWork implements Comparable<UnitOfWork> {
    final long msgSeqNum;
    final double arrivedAt;
    final int item;

    UnitOfWork(long msgSeqNum, double arrivedAt, int item) {
      this.msgSeqNum = msgSeqNum;
      this.arrivedAt = arrivedAt;
      this.item = item;
    }

    @Override
    public int compareTo(UnitOfWork o) {
      return Long.compare(msgSeqNum, o.msgSeqNum);
    }
  }

  /** One key's sorted set and where its loop stands. */
  static final class Key {
    final ConcurrentSkipListSet<UnitOfWork> sortedMessageSet = new ConcurrentSkipListSet<>();
    final double firstArrival;
    boolean started;
    long currentSequenceNumber;

    Key(double firstArrival) {
      this.firstArrival = firstArrival;
    }
  }

  /** One pass over the stream: what it found. */
  static final class Loop {
    final HashMap<String, Key> keys = new HashMap<>();
    long delivered;
    long duplicates;
    long gaps;
    long lost;
    /** What processUnitOfWork saw, so the JIT cannot drop it. */
    long processed;

    void offer(String name, long seq, int item, double now) {
      Key k = keys.get(name);
      if (k == null) {
        k = new Key(now);
        keys.put(name, k);
      }
      if (!k.sortedMessageSet.add(new UnitOfWork(seq, now, item))) {
        duplicates++;
        return;
      }
      if (!k.started) {
        // "Buffering for 10 seconds" before the first poll.
        if (now - k.firstArrival < TIMEOUT_MS) return;
        start(k);
      }
      poll(k, now);
    }

    /** End of input: everything held is processed, gaps skipped. */
    void finish() {
      for (Key k : keys.values()) {
        if (!k.started && !k.sortedMessageSet.isEmpty()) start(k);
        poll(k, Double.POSITIVE_INFINITY);
      }
    }

    private void start(Key k) {
      k.started = true;
      k.currentSequenceNumber = k.sortedMessageSet.first().msgSeqNum - 1;
    }

    private void poll(Key k, double now) {
      ConcurrentSkipListSet<UnitOfWork> set = k.sortedMessageSet;
      while (!set.isEmpty()) {
        UnitOfWork first = set.first();
        long next = first.msgSeqNum;
        if (next == k.currentSequenceNumber + 1) {
          processUnitOfWork(set.pollFirst());
          k.currentSequenceNumber++;
        } else if (next <= k.currentSequenceNumber) {
          set.pollFirst();
          duplicates++;
        } else if (now - first.arrivedAt > TIMEOUT_MS) {
          gaps++;
          lost += next - k.currentSequenceNumber - 1;
          k.currentSequenceNumber = next - 1;
        } else {
          return;
        }
      }
    }

    private void processUnitOfWork(UnitOfWork u) {
      delivered++;
      processed += u.item;
    }
  }

  /** The stream, as arrays: per message its key's name (one String per key), number and arrival. */
  static final class Stream {
    final String[] keyOf;
    final long[] seq;
    final double[] time;

    Stream(String[] keyOf, long[] seq, double[] time) {
      this.keyOf = keyOf;
      this.seq = seq;
      this.time = time;
    }
  }

  static Stream read(String path) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(Paths.get(path))).order(ByteOrder.LITTLE_ENDIAN);
    byte[] magic = new byte[4];
    b.get(magic);
    if (!"SQJ1".equals(new String(magic, StandardCharsets.US_ASCII))) throw new IOException(path + " is not a stream file (SQJ1)");
    int count = b.getInt();
    String[] names = new String[b.getInt()];
    for (int i = 0; i < names.length; i++) {
      byte[] utf8 = new byte[b.getInt()];
      b.get(utf8);
      names[i] = new String(utf8, StandardCharsets.UTF_8);
    }
    String[] keyOf = new String[count];
    long[] seq = new long[count];
    double[] time = new double[count];
    for (int i = 0; i < count; i++) {
      keyOf[i] = names[b.getInt()];
      seq[i] = b.getLong();
      time[i] = b.getDouble();
    }
    if (b.hasRemaining()) throw new IOException(path + ": " + b.remaining() + " bytes after the last message");
    return new Stream(keyOf, seq, time);
  }

  static Loop pass(Stream s) {
    Loop loop = new Loop();
    String[] keyOf = s.keyOf;
    long[] seq = s.seq;
    double[] time = s.time;
    for (int i = 0; i < keyOf.length; i++) loop.offer(keyOf[i], seq[i], i, time[i]);
    loop.finish();
    return loop;
  }

  /** CPU time of the whole process (every thread), ns. */
  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  static String counts(Loop l) {
    return "{\"delivered\":" + l.delivered + ",\"duplicates\":" + l.duplicates + ",\"gaps\":" + l.gaps + ",\"lost\":" + l.lost + "}";
  }

  static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      System.err.println("usage: java CmeLoop <stream file> <warm-up passes> <timed passes>");
      System.exit(2);
    }
    Stream s = read(args[0]);
    int warmups = Integer.parseInt(args[1]);
    int passes = Integer.parseInt(args[2]);
    String found = null;
    long checksum = 0;
    for (int i = 0; i < warmups; i++) {
      Loop l = pass(s);
      checksum += l.processed;
      found = counts(l);
    }
    List<String> wall = new ArrayList<>();
    List<String> cpu = new ArrayList<>();
    for (int i = 0; i < passes; i++) {
      // As the TypeScript side: a full collection first, so one pass's garbage is not billed to the next.
      System.gc();
      long c0 = processCpuNanos();
      long t0 = System.nanoTime();
      Loop l = pass(s);
      long t1 = System.nanoTime();
      long c1 = processCpuNanos();
      wall.add(String.valueOf((t1 - t0) / 1e6));
      cpu.add(String.valueOf((c1 - c0) / 1e6));
      checksum += l.processed;
      String c = counts(l);
      if (found != null && !found.equals(c)) throw new IllegalStateException("passes disagree: " + found + " and " + c);
      found = c;
    }
    List<String> gcs = new ArrayList<>();
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) gcs.add(quote(gc.getName()));
    String vm = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
    System.out.println(
        "{\"vm\":" + quote(vm)
            + ",\"gc\":[" + String.join(",", gcs) + "]"
            + ",\"messages\":" + s.keyOf.length
            + ",\"warmups\":" + warmups
            + ",\"wallMs\":[" + String.join(",", wall) + "]"
            + ",\"cpuMs\":[" + String.join(",", cpu) + "]"
            + ",\"counts\":" + found
            + ",\"checksum\":" + checksum
            + "}");
  }
}
