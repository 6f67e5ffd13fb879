import assert from 'node:assert/strict';
import { test } from 'node:test';
import { finishMessage, receiveMessage, type LoggedOutput, type LoggedRequest } from './request-log-format.js';

const request: LoggedRequest = {
  rid: 'abc', text: "it's", inputIds: null, imageData: null, samplingParams: { max_new_tokens: 8, ignore_eos: true, temperature: 0.7 }, stream: true,
};
const output: LoggedOutput = {
  text: ' a b', outputIds: [1, 2],
  metaInfo: { id: 'abc', finish_reason: { type: 'length', length: 2 }, prompt_tokens: 3, completion_tokens: 2, cached_tokens: 0, e2e_latency: 0.25 },
};

test("Receive and Finish lines in SGLang's shape, by --log-requests-level", () => {
  assert.equal(
    receiveMessage(request, 2),
    `Receive: obj=GenerateReqInput(rid='abc', text="it's", input_ids=None, image_data=None, sampling_params={'max_new_tokens': 8, 'ignore_eos': True, 'temperature': 0.7}, stream=True)`,
  );
  assert.equal(receiveMessage(request, 0), "Receive: obj=GenerateReqInput(rid='abc', stream=True)");
  assert.equal(
    receiveMessage(request, 1),
    "Receive: obj=GenerateReqInput(rid='abc', sampling_params={'max_new_tokens': 8, 'ignore_eos': True, 'temperature': 0.7}, stream=True)",
  );
  assert.equal(
    finishMessage(request, output, 0),
    "Finish: obj=GenerateReqInput(rid='abc', stream=True), out={'meta_info': {'id': 'abc', 'finish_reason': {'type': 'length', 'length': 2}, " +
      "'prompt_tokens': 3, 'completion_tokens': 2, 'cached_tokens': 0, 'e2e_latency': 0.25}}",
  );
  assert.match(finishMessage(request, output, 2), /, out=\{'text': ' a b', 'output_ids': \[1, 2\], 'meta_info': \{/);
});

test('level 2 keeps the first and last 1024 characters of a long input; level 3 all of it', () => {
  const long = { ...request, text: 'x'.repeat(3000), imageData: ['data:image/png;base64,' + 'A'.repeat(5000)] };
  const cut = receiveMessage(long, 2);
  assert.ok(cut.includes(`text='${'x'.repeat(1024)}' ... '${'x'.repeat(1024)}'`));
  assert.ok(cut.length < 5000, String(cut.length));
  assert.ok(receiveMessage(long, 3).includes(`'${'x'.repeat(3000)}'`));
  const ids = receiveMessage({ ...request, text: null, inputIds: Array.from({ length: 3000 }, () => 7) }, 2);
  assert.match(ids, /input_ids=\[7, 7.*7\] \.\.\. \[7, .*7\]/);
});
