/**
 * CPU time of this machine's processes by role (Linux, /proc): what the Pub/Sub emulator, the
 * benchmark's own process, the VS Code server, the extension host and the browser used between
 * two readings. A live benchmark shares the cores with the emulator and the publisher, which a
 * user's machine does not run; this says how much of the machine each took.
 */
import { readdirSync, readFileSync } from 'node:fs';

export const CPU_ROLES = [
  'extension host',
  'browser renderers',
  'browser, other processes',
  'VS Code server',
  'Pub/Sub emulator',
  'benchmark (publisher, driver)',
  'other',
] as const;

export type CpuRole = (typeof CPU_ROLES)[number];

/** User + system CPU seconds of each process, and its role. */
export type CpuReading = Map<number, { role: CpuRole; seconds: number }>;

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS = 100;

function roleOf(pid: number, argv: string[]): CpuRole {
  if (pid === process.pid) return 'benchmark (publisher, driver)';
  const exe = argv[0] ?? '';
  const joined = argv.join(' ');
  if (argv.includes('--type=extensionHost')) return 'extension host';
  if (/java$/.test(exe) || joined.includes('cloud-pubsub-emulator')) return 'Pub/Sub emulator';
  // Chromium rewrites a child's command line as one string: look for the flag in the whole of it.
  if (/chrom/.test(exe)) return joined.includes('--type=renderer') ? 'browser renderers' : 'browser, other processes';
  if (joined.includes('code-server') || joined.includes('server-main')) return 'VS Code server';
  return 'other';
}

/** Every process's CPU so far (those that cannot be read, or ended meanwhile, are left out). */
export function readCpu(): CpuReading {
  const out: CpuReading = new Map();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const d of pids) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'latin1');
      // Fields after the command (in parentheses, which may hold spaces): utime is the 14th, stime the 15th.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(rest[11]) + Number(rest[12]);
      const argv = readFileSync(`/proc/${d}/cmdline`, 'latin1').split('\0').filter(Boolean);
      out.set(Number(d), { role: roleOf(Number(d), argv), seconds: ticks / TICKS });
    } catch {
      /* ended meanwhile */
    }
  }
  return out;
}

/** CPU seconds by role between two readings (a process started meanwhile counts from 0). */
export function cpuBetween(before: CpuReading, after: CpuReading): Map<CpuRole, number> {
  const by = new Map<CpuRole, number>(CPU_ROLES.map((r) => [r, 0]));
  for (const [pid, a] of after) {
    const b = before.get(pid);
    by.set(a.role, (by.get(a.role) ?? 0) + a.seconds - (b && b.role === a.role ? b.seconds : 0));
  }
  return by;
}
