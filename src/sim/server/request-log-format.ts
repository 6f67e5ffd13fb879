/**
 * The text of SGLang's `--log-requests` lines (its RequestLogger): `Receive: obj=GenerateReqInput(...)`
 * when a request arrives and `Finish: obj=..., out={...}` when it ends, in Python's repr. The sim
 * logs the request fields it reads (no headers, so never an API key), and `--log-requests-level`
 * decides what is left out and where long values are cut, as in SGLang:
 * 0 metadata only, 1 and sampling parameters, 2 and inputs and outputs cut to their first and last
 * 1024 characters (or items), 3 everything.
 */
import { pyRepr, pyStrRepr, type PyValue } from '../../core/pyrepr.js';

/** The request as SGLang's tokenizer manager holds it (GenerateReqInput), reduced to what the sim has. */
export interface LoggedRequest {
  rid: string;
  text: string | null;
  inputIds: readonly number[] | null;
  /** Images as sent (data URIs); null without images. */
  imageData: readonly string[] | null;
  samplingParams: { readonly [key: string]: PyValue };
  stream: boolean;
}

/** The native `/generate` answer the request got. */
export interface LoggedOutput {
  text: string;
  outputIds: readonly number[];
  metaInfo: { readonly [key: string]: PyValue };
}

interface Detail {
  maxLength: number;
  skipInput: ReadonlySet<string>;
  skipOutput: ReadonlySet<string>;
}

const UNCUT = 2 ** 30;
const INPUTS = ['text', 'input_ids', 'image_data'];
const OUTPUTS = new Set(['text', 'output_ids']);
const NONE = new Set<string>();

/** What each `--log-requests-level` leaves out and where it cuts (SGLang's RequestLogger metadata). */
function detailOf(level: number): Detail {
  if (level === 0) return { maxLength: UNCUT, skipInput: new Set([...INPUTS, 'sampling_params']), skipOutput: OUTPUTS };
  if (level === 1) return { maxLength: UNCUT, skipInput: new Set(INPUTS), skipOutput: OUTPUTS };
  return { maxLength: level === 2 ? 2048 : UNCUT, skipInput: NONE, skipOutput: NONE };
}

/** SGLang's dataclass_to_string_truncated: a string or list longer than `maxLength` keeps its two ends, at every depth. */
function truncatedRepr(value: PyValue, maxLength: number): string {
  const half = Math.floor(maxLength / 2);
  if (typeof value === 'string') {
    if (value.length <= maxLength) return pyStrRepr(value);
    const chars = [...value];
    if (chars.length <= maxLength) return pyStrRepr(value);
    return `${pyStrRepr(chars.slice(0, half).join(''))} ... ${pyStrRepr(chars.slice(-half).join(''))}`;
  }
  if (Array.isArray(value)) {
    // Element by element, as SGLang's later releases do: one long image URI must not print whole.
    const list = (items: readonly PyValue[]): string => `[${items.map((item) => truncatedRepr(item, maxLength)).join(', ')}]`;
    return value.length <= maxLength ? list(value) : `${list(value.slice(0, half))} ... ${list(value.slice(-half))}`;
  }
  if (value !== null && typeof value === 'object' && value.constructor === Object) {
    const entries = Object.entries(value as { readonly [key: string]: PyValue });
    return `{${entries.map(([key, item]) => `${pyStrRepr(key)}: ${truncatedRepr(item, maxLength)}`).join(', ')}}`;
  }
  return pyRepr(value);
}

/** `{'a': 1, ...}` or `Name(a=1, ...)` of `fields`, leaving out `skip`. */
function fieldsRepr(fields: Array<[string, PyValue]>, skip: ReadonlySet<string>, maxLength: number, name: string | null): string {
  const shown = fields.filter(([key]) => !skip.has(key));
  if (name === null) return `{${shown.map(([key, value]) => `${pyStrRepr(key)}: ${truncatedRepr(value, maxLength)}`).join(', ')}}`;
  return `${name}(${shown.map(([key, value]) => `${key}=${truncatedRepr(value, maxLength)}`).join(', ')})`;
}

function requestRepr(request: LoggedRequest, detail: Detail): string {
  const fields: Array<[string, PyValue]> = [
    ['rid', request.rid],
    ['text', request.text],
    ['input_ids', request.inputIds],
    ['image_data', request.imageData],
    ['sampling_params', request.samplingParams],
    ['stream', request.stream],
  ];
  return fieldsRepr(fields, detail.skipInput, detail.maxLength, 'GenerateReqInput');
}

/** `Receive: obj=GenerateReqInput(rid='...', ...)` */
export function receiveMessage(request: LoggedRequest, level: number): string {
  return `Receive: obj=${requestRepr(request, detailOf(level))}`;
}

/** `Finish: obj=GenerateReqInput(...), out={'text': ..., 'output_ids': [...], 'meta_info': {...}}` */
export function finishMessage(request: LoggedRequest, output: LoggedOutput, level: number): string {
  const detail = detailOf(level);
  const out: Array<[string, PyValue]> = [
    ['text', output.text],
    ['output_ids', output.outputIds],
    ['meta_info', output.metaInfo],
  ];
  return `Finish: obj=${requestRepr(request, detail)}, out=${fieldsRepr(out, detail.skipOutput, detail.maxLength, null)}`;
}
