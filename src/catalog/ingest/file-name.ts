/**
 * Labels a log's file name states unambiguously, e.g. `..._ascend-a3_64k-3k_c32.log` → hardware
 * `ascend-a3`. Only hardware names are read: other parts of a name are too ambiguous to trust.
 */
import { basename, extname } from 'node:path';

const HARDWARE_PART = /^(ascend(-?(a[23]|910[bc]\d*))?|atlas-?800[it]?-?a[23]|gb?[23]00|b[23]00|h[12]00|h800|h20|a100|a800|l40s?|mi3\d\dx?)$/i;

/** `{ hardware }` when exactly one `_`-separated part of the file name is a hardware name. */
export function labelsFromFileName(file: string): Record<string, string> {
  const parts = basename(file, extname(file)).split('_');
  const hardware = parts.filter((p) => HARDWARE_PART.test(p));
  return hardware.length === 1 ? { hardware: hardware[0]!.toLowerCase() } : {};
}
