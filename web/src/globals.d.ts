// SPDX-License-Identifier: GPL-3.0-or-later
// The page's globals: the hand-over from boot.js, and the test and benchmark
// hooks (e2e/, benchmarks/) that the page writes on window.

/** What boot.js hands over to the referee client (referee/client.js). */
interface PcdBoot {
  worker?: Worker | null;
  events?: Array<MessageEvent | ErrorEvent>;
  error?: string | null;
  t?: number;
  ready?: Record<string, unknown>;
  sw?: { page: string; build: string | null; controlled: boolean; reloading: boolean; registered?: boolean; error?: string } | null;
}

/** One answer applied, for window.__perf (ctrl.js's "perf" event). */
interface PerfRecord {
  op: string;
  ply: number;
  ms: number;
  worker_ms?: number;
  paint_ms?: number;
  [k: string]: unknown;
}

interface Window {
  __pcdBoot?: PcdBoot;
  __perf: PerfRecord[];
  __boot: Record<string, unknown> & { worker?: Record<string, number> | null };
  __bare?: Record<string, unknown>;
  __review?: Record<string, unknown>;
  __arbiter?: { updates: Array<Record<string, number | undefined>>; applied: number };
  pychessdraw?: Record<string, unknown>;
  webkitAudioContext?: typeof AudioContext;
  showOpenFilePicker?: (opts: unknown) => Promise<Array<{ name: string; getFile: () => Promise<File> }>>;
}
