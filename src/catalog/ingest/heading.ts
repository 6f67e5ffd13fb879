/**
 * Reads the facts a recipe heading states, e.g. `Qwen3-235B Atlas 800I A3-8Card PD Mixed 3.5K-1.5K 50ms`
 * or `B200 x8, DeepSeek-V3.2-Exp, TP8, EAGLE/MTP, concurrency 1`, and whether it refers to an
 * earlier recipe ("same deployment", "same deployment and benchmark plus --random-range-ratio 1").
 */
import { readShellWords } from '../../core/command-line.js';

export interface HeadingFacts {
  model?: string;
  hardware?: string;
  cards?: number;
  nodes?: number;
  deployMode?: 'pd-mixed' | 'pd-separation';
  /** Workload label as written, normalised to upper-case K: `3.5K-1.5K`. */
  datasetLabel?: string;
  targetLatencyMs?: number;
  /** Stated by a recipe's fact line (`Quantization: W8A8`); a heading's words never say it. */
  quantization?: string;
  concurrency?: number;
  reusesDeployment: boolean;
  reusesBenchmark: boolean;
  /** bench_serving flags the heading adds to the reused benchmark (`plus --random-range-ratio 1`). */
  extraBenchArgs: string[];
}

const HARDWARE =
  /\b(GB[23]00|B[23]00|H[12]00|H800|H20|A100|A800|L40S?|MI3\d{2}X?|Atlas\s*800[IT]?\s*A[23]|Ascend[\s-]?910[BC]\d*|910[BC]\d*)(?![\w.])/i;
const MODEL = /\b((?:DeepSeek|Qwen|Llama|GLM|Kimi|Mistral|Mixtral|gpt-oss|MiniMax|Gemma|Phi)[\w.\-]*\w)/i;
const SIZE = String.raw`\d+(?:\.\d+)?[Kk]`;
/** `3.5K-1.5K`, `1k/1k`, `128K+1K`, and `3.5K1.5K` (pages drop the separator). */
const WORKLOAD = new RegExp(String.raw`\b(${SIZE})\s*[-/+]?\s*(${SIZE})(?![\w.])`);
const ISL_OSL = /ISL\/OSL\s*=?\s*(\d+(?:\.\d+)?[Kk]?)\s*\/\s*(\d+(?:\.\d+)?[Kk]?)/i;
const IN_OUT = new RegExp(String.raw`\bIN\s*(${SIZE})\s*OUT\s*(${SIZE})(?![\w.])`, 'i');
/** A qualifier written right after a workload: `128K+1K (90% prefix cache hit rate)`. */
const QUALIFIER = /^\s*(\([^()]{1,80}\))/;

/**
 * The workload a text states, normalised to upper-case K and a dash (`3.5K-1.5K`); null when it
 * states none. With `keepQualifier` (a table cell, where it can only describe the workload), a
 * parenthesis right after it is kept: `128K-1K (90% prefix cache hit rate)`.
 */
export function workloadLabel(text: string, keepQualifier = false): string | null {
  const m = WORKLOAD.exec(text) ?? ISL_OSL.exec(text) ?? IN_OUT.exec(text);
  if (!m) return null;
  const qualifier = keepQualifier ? QUALIFIER.exec(text.slice(m.index + m[0].length)) : null;
  return `${m[1]!.toUpperCase()}-${m[2]!.toUpperCase()}${qualifier ? ` ${qualifier[1]}` : ''}`;
}

function firstNumber(re: RegExp, text: string): number | undefined {
  const m = re.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** Extracts what a heading states; absent fields were not stated. */
export function parseHeading(text: string): HeadingFacts {
  const facts: HeadingFacts = { reusesDeployment: false, reusesBenchmark: false, extraBenchArgs: [] };
  const hardware = HARDWARE.exec(text);
  if (hardware) facts.hardware = hardware[1]!.replace(/\s+/g, ' ');
  const model = MODEL.exec(text);
  if (model) facts.model = model[1]!;
  const cards =
    firstNumber(/\b(\d+)\s*-?\s*(?:cards?|gpus?|npus?)\b/i, text) ??
    (hardware ? firstNumber(new RegExp(String.raw`${escapeRe(hardware[1]!)}\s*[x×]\s*(\d+)\b`, 'i'), text) : undefined) ??
    (hardware ? firstNumber(new RegExp(String.raw`\b(\d+)\s*[x×]\s*${escapeRe(hardware[1]!)}`, 'i'), text) : undefined);
  if (cards !== undefined) facts.cards = cards;
  const nodes = firstNumber(/\b(\d+)\s*nodes?\b/i, text);
  if (nodes !== undefined) facts.nodes = nodes;
  if (/\bPD[\s-]*(mixed|co-?located)/i.test(text)) facts.deployMode = 'pd-mixed';
  else if (/\bPD[\s-]*(separat|disagg)/i.test(text)) facts.deployMode = 'pd-separation';
  const workload = workloadLabel(text);
  if (workload) facts.datasetLabel = workload;
  const latency = firstNumber(/\b(\d+(?:\.\d+)?)\s?ms\b/i, text);
  if (latency !== undefined) facts.targetLatencyMs = latency;
  const concurrency = firstNumber(/\bconcurrency\s*[:=]?\s*(\d+)/i, text);
  if (concurrency !== undefined) facts.concurrency = concurrency;
  facts.reusesDeployment = /\bsame\s+(deployment|setup|server)/i.test(text);
  facts.reusesBenchmark = /\bsame\s+(?:(?:deployment|setup|server)\s+and\s+)?bench(mark)?/i.test(text);
  const plus = /\bplus\s+(--.*)$/i.exec(text);
  if (plus) facts.extraBenchArgs = readShellWords(plus[1]!).words;
  return facts;
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
