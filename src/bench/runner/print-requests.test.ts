import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RequestInput, RequestOutput } from '../types.js';
import { requestEndLine, requestStartLine } from './print-requests.js';

test('--print-requests lines carry the reference dataclass reprs with elided texts', () => {
  const input: RequestInput = {
    prompt: 'secret prompt', apiUrl: 'http://h/v1/chat/completions', promptLen: 3, outputLen: 4, model: 'm',
    loraName: null, imageData: null, extraRequestBody: { top_p: 0.5 },
  };
  assert.equal(
    requestStartLine('r1', input, 1700000000.5),
    `rid=r1 time=1700000000.5 message="request start" request_func_input="RequestFuncInput(prompt='...', api_url='http://h/v1/chat/completions', prompt_len=3, output_len=4, model='m', lora_name=None, image_data=None, extra_request_body={'top_p': 0.5}, timestamp=None, routing_key=None)"`,
  );
  const output = {
    generatedText: 'answer', success: true, latency: 1, ttft: 0.25, itl: [0.5], textChunks: ['b'], promptLen: 3,
    error: '', outputLen: 2, startTime: 12.5, queueTime: 0, failureCause: null,
  } satisfies RequestOutput;
  assert.equal(
    requestEndLine('r1', output, 1700000001, 0.5),
    `rid=r1 time=1700000001.0 time_delta=0.5 message="request end" output="RequestFuncOutput(generated_text='...', success=True, latency=1.0, ttft=0.25, itl=[0.5], text_chunks=['b'], prompt_len=3, error='', output_len=2, start_time=12.5)"`,
  );
});
