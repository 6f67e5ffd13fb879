/**
 * A reader of the Prometheus text exposition format (0.0.4), the one `/metrics` of SGLang and vLLM
 * speaks: `name{label="value",...} value [timestamp]` lines, `#` comments, escaped label values,
 * `NaN` and `±Inf`. Pure. A line it cannot read is skipped and counted, never guessed at.
 *
 * Not the npm `parse-prometheus-text-format` (1.1.1): tried on a hostile reading, it takes
 * `garbage line here` for a sample named `garbage` of value "line", and hands every value back as
 * text; checking its output would take as much code as this reader, which a server's bad line
 * cannot fool.
 */

export interface Sample {
  /** The sample's name as written (`sglang:queue_time_seconds_bucket`, `vllm:prefix_cache_hits_total`). */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** Lines that were neither comments, blank nor readable samples. */
  unreadLines: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;

/** The number a sample value spells, or null (Go's ParseFloat spellings Prometheus writes: `+Inf`, `-Inf`, `NaN`, exponents). */
export function parseSampleValue(text: string): number | null {
  switch (text) {
    case '+Inf':
    case 'Inf':
      return Infinity;
    case '-Inf':
      return -Infinity;
    case 'NaN':
      return NaN;
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return null;
  return Number(text);
}

/** Reads `{a="x",b="y"}` from `line` at `start`; the labels and the index after `}`, or null. */
function readLabels(line: string, start: number): { labels: Record<string, string>; end: number } | null {
  const labels: Record<string, string> = {};
  let i = start + 1;
  for (;;) {
    while (line[i] === ' ' || line[i] === ',') i++;
    if (line[i] === '}') return { labels, end: i + 1 };
    const name = NAME.exec(line.slice(i));
    if (name === null) return null;
    i += name[0].length;
    while (line[i] === ' ') i++;
    if (line[i] !== '=' || line[i + 1] !== '"') return null;
    i += 2;
    let value = '';
    for (; i < line.length && line[i] !== '"'; i++) {
      if (line[i] !== '\\') {
        value += line[i];
        continue;
      }
      i++;
      const escaped = line[i];
      value += escaped === 'n' ? '\n' : (escaped ?? '');
    }
    if (i >= line.length) return null;
    labels[name[0]] = value;
    i++;
  }
}

/** One sample line, or null when it does not read as one. */
function parseLine(line: string): Sample | null {
  const name = NAME.exec(line);
  if (name === null) return null;
  let i = name[0].length;
  let labels: Record<string, string> = {};
  if (line[i] === '{') {
    const read = readLabels(line, i);
    if (read === null) return null;
    labels = read.labels;
    i = read.end;
  }
  const rest = line.slice(i).trim().split(/\s+/);
  if (rest.length < 1 || rest.length > 2) return null;
  const value = parseSampleValue(rest[0]!);
  return value === null ? null : { name: name[0], labels, value };
}

/** Every sample of an exposition text. */
export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  let unreadLines = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const sample = parseLine(line);
    if (sample === null) unreadLines++;
    else samples.push(sample);
  }
  return { samples, unreadLines };
}
