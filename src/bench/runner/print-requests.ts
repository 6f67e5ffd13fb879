/**
 * `--print-requests` lines (spec §2.4): one before and one after each request, with the
 * dataclass reprs bench_serving prints (prompt and generated text elided as '...').
 */
import { pyFloat } from '../../core/pyformat.js';
import { pyRepr, type PyValue } from '../../core/pyrepr.js';
import { redactText } from '../../core/redact.js';
import type { RequestInput, RequestOutput } from '../types.js';

function dataclassRepr(name: string, fields: Array<[string, PyValue]>): string {
  return `${name}(${fields.map(([key, value]) => `${key}=${pyRepr(value)}`).join(', ')})`;
}

/** `rid=… time=… message="request start" request_func_input="RequestFuncInput(prompt='...', …)"`. */
export function requestStartLine(rid: string, input: RequestInput, unixSeconds: number): string {
  const repr = dataclassRepr('RequestFuncInput', [
    ['prompt', '...'],
    ['api_url', redactText(input.apiUrl)],
    ['prompt_len', input.promptLen],
    ['output_len', input.outputLen],
    ['model', input.model],
    ['lora_name', input.loraName],
    ['image_data', input.imageData],
    ['extra_request_body', input.extraRequestBody as PyValue],
    ['timestamp', null],
    ['routing_key', input.routingKey ?? null],
  ]);
  return `rid=${rid} time=${pyRepr(pyFloat(unixSeconds))} message="request start" request_func_input="${repr}"`;
}

/** `rid=… time=… time_delta=… message="request end" output="RequestFuncOutput(generated_text='...', …)"`. */
export function requestEndLine(rid: string, output: RequestOutput, unixSeconds: number, deltaSeconds: number): string {
  const repr = dataclassRepr('RequestFuncOutput', [
    ['generated_text', '...'],
    ['success', output.success],
    ['latency', pyFloat(output.latency)],
    ['ttft', pyFloat(output.ttft)],
    ['itl', output.itl.map(pyFloat)],
    ['text_chunks', output.textChunks],
    ['prompt_len', output.promptLen],
    ['error', output.error],
    ['output_len', output.outputLen],
    ['start_time', pyFloat(output.startTime)],
  ]);
  return `rid=${rid} time=${pyRepr(pyFloat(unixSeconds))} time_delta=${pyRepr(pyFloat(deltaSeconds))} message="request end" output="${repr}"`;
}
