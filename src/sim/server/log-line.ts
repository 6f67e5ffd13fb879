/**
 * One line of SGLang's server log: `[2026-03-04 15:13:22 DP0 TP0] message`, the format SGLang's
 * configure_logger gives every process (asctime to the second, local time, then the process's
 * DP/TP/EP prefix, which only scheduler processes have).
 */
import type { RankTag } from './scheduler-log-lines.js';

const pad = (n: number): string => String(n).padStart(2, '0');

/** Python logging's `%Y-%m-%d %H:%M:%S` of `date`, in local time. */
export function logTimestamp(date: Date): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** ` DP0 TP0 EP0`, the parts the rank has, each after a space; '' for none. */
function prefix(tag: RankTag | null): string {
  if (tag === null) return '';
  let text = '';
  if (tag.dp !== null) text += ` DP${tag.dp}`;
  if (tag.tp !== null) text += ` TP${tag.tp}`;
  if (tag.ep !== null) text += ` EP${tag.ep}`;
  return text;
}

/** The whole line: timestamp and prefix in brackets, then the message. `tag` is null outside the scheduler. */
export function logLine(timestamp: string, tag: RankTag | null, message: string): string {
  return `[${timestamp}${prefix(tag)}] ${message}`;
}
