/** What the figures were measured on: printed at the top of the report and stored with results. */
import { readFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, totalmem } from 'node:os';

export interface MachineInfo {
  cpu: string;
  cores: number;
  node: string;
  platform: string;
  memoryGiB: number;
  /** 1-minute load average when the run started: other work on the machine shows up as noise. */
  loadAverage: number;
}

/** 1-minute load average (0 where the platform has none). */
export function loadAverage(): number {
  return Math.round(loadavg()[0] * 100) / 100;
}

export function machineInfo(): MachineInfo {
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    // /proc/cpuinfo names the model even where os.cpus() reports a generic string.
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) cpu = m[1].trim();
  } catch {
    // Not Linux: keep os.cpus()'s model.
  }
  return {
    cpu,
    cores: cpus().length,
    node: process.version,
    platform: `${platform()} ${arch()}`,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadAverage: loadAverage(),
  };
}
