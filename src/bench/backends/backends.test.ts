import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LineSplitter } from '../transport/line-splitter.js';
import type { RequestInput } from '../types.js';
import { backendAdapter, feedBody, feedLine, MalformedChunkError, type ParsedResponse, type PayloadOptions } from './index.js';
import type { BackendName } from '../args/types.js';
import { readServerReport } from './server-report.js';

const OPTIONS: PayloadOptions = { disableStream: false, disableIgnoreEos: false, returnLogprob: false, returnRoutedExperts: false };

function input(overrides: Partial<RequestInput> = {}): RequestInput {
  return {
    prompt: 'hello',
    apiUrl: 'http://127.0.0.1:1/x',
    promptLen: 5,
    outputLen: 8,
    model: 'm',
    loraName: null,
    imageData: null,
    extraRequestBody: {},
    ...overrides,
  };
}

/**
 * Replays a recorded body: `events` are [arrival time, bytes] pairs; each event's bytes are cut
 * into pieces at `cuts` (all arriving at that time) to exercise odd chunk boundaries.
 */
function replay(backend: BackendName, events: Array<[number, string]>, cutEvery = 0, requested = input()): ParsedResponse {
  const parser = backendAdapter(backend).createParser(requested, 0, true);
  const splitter = new LineSplitter();
  for (const [time, text] of events) {
    const bytes = Buffer.from(text, 'utf8');
    const step = cutEvery > 0 ? cutEvery : bytes.length;
    for (let at = 0; at < bytes.length; at += step) {
      splitter.push(bytes, at, Math.min(at + step, bytes.length), (line) => feedLine(parser, line, time));
    }
  }
  splitter.flush((line) => feedLine(parser, line, events.at(-1)![0]));
  return parser.result();
}

const sse = (data: unknown): string => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

describe('native /generate stream', () => {
  const native = (text: string, tokens: number) => sse({ text, meta_info: { completion_tokens: tokens } });
  const events: Array<[number, string]> = [
    [0.1, native('a', 1)],
    [0.2, native('ab', 2)],
    [0.5, native('abcd', 5)], // 3 tokens in one chunk (speculative decoding)
    [0.6, native('abcd', 5)], // no new token: skipped entirely
    [0.7, native('abcdé', 6)],
    [0.8, sse('[DONE]')],
  ];

  for (const cut of [0, 1, 3, 7]) {
    test(`cumulative text, completion_tokens deltas split ITL evenly (cut every ${cut} bytes)`, () => {
      const result = replay('sglang', events, cut);
      assert.equal(result.generatedText, 'abcdé');
      assert.equal(result.ttft, 0.1);
      assert.equal(result.outputLen, 6);
      assert.equal(result.itl.length, 5);
      assert.ok(Math.abs(result.itl[0]! - 0.1) < 1e-12);
      for (const gap of result.itl.slice(1, 4)) assert.ok(Math.abs(gap - 0.1) < 1e-12);
      // The skipped 0.6 chunk did not move the clock: the last gap runs from 0.5.
      assert.ok(Math.abs(result.itl[4]! - 0.2) < 1e-12);
      assert.equal(result.latency, 0.8);
    });
  }

  test('keeps the requested length when no text arrived', () => {
    const result = replay('sglang', [[0.3, sse('[DONE]')]]);
    assert.equal(result.outputLen, 8);
    assert.equal(result.ttft, 0);
  });

  test('non-stream body is the single arrival', () => {
    const parser = backendAdapter('sglang').createParser(input(), 0, false);
    feedBody(parser, JSON.stringify({ text: 'xyz', meta_info: { completion_tokens: 3 } }), 0.4);
    const result = parser.result();
    assert.deepEqual([result.ttft, result.latency, result.itl.length, result.outputLen], [0.4, 0.4, 0, 3]);
  });

  test('payload order and extra body spread at top level', () => {
    const { body } = backendAdapter('sglang').buildBody(
      input({ extraRequestBody: { temperature: 0.5 }, imageData: ['data:x'], loraName: 'l1' }),
      { ...OPTIONS, disableIgnoreEos: true },
    );
    assert.deepEqual(Object.keys(body), [
      'text', 'sampling_params', 'stream', 'lora_path', 'return_logprob', 'return_routed_experts',
      'logprob_start_len', 'temperature', 'image_data',
    ]);
    assert.deepEqual(body.sampling_params, { temperature: 0, max_new_tokens: 8, ignore_eos: false });
    assert.equal(body.lora_path, 'l1');
    const ids = backendAdapter('sglang').buildBody(input({ prompt: [1, 2, 3] }), OPTIONS).body;
    assert.deepEqual(ids.input_ids, [1, 2, 3]);
  });
});

describe('OpenAI completions stream', () => {
  const chunk = (text: string, usage: unknown = null) => sse({ choices: [{ index: 0, text }], usage });

  test('each non-empty text is an arrival; usage read on token lines; tolerant SSE lines', () => {
    const body: Array<[number, string]> = [
      [0.1, ': ping\n\nevent: message\n' + chunk('He')],
      [0.2, `data:${JSON.stringify({ choices: [{ text: 'llo' }], usage: null })}\n\n`],
      [0.25, chunk('')],
      [0.4, chunk('!', { completion_tokens: 3 })],
      [0.5, sse({ choices: [], usage: { completion_tokens: 4 } })],
      [0.6, sse('[DONE]')],
    ];
    for (const cut of [0, 2, 5]) {
      const result = replay('sglang-oai', body, cut);
      assert.equal(result.generatedText, 'Hello!');
      assert.equal(result.ttft, 0.1);
      assert.deepEqual(result.textChunks, ['llo', '!']);
      assert.equal(result.itl.length, 2);
      assert.ok(Math.abs(result.itl[1]! - 0.2) < 1e-12);
      // The usage-only chunk with an empty choices list is read (Q2 F).
      assert.equal(result.outputLen, 4);
      assert.equal(result.latency, 0.6);
    }
  });

  test('keeps the requested length without usage; a missing choices list fails the request', () => {
    assert.equal(replay('vllm', [[0.1, chunk('a')], [0.2, chunk('b')]]).outputLen, 8);
    assert.throws(() => replay('vllm', [[0.1, sse({ error: { message: 'bad' } })]]), MalformedChunkError);
    assert.throws(() => replay('vllm', [[0.1, 'data: {not json\n']]), /malformed chunk/);
  });

  test('payload defaults yield to the extra body; LoRA overrides model', () => {
    const { body } = backendAdapter('openai').buildBody(
      input({ extraRequestBody: { temperature: 0.7, top_p: 0.9 }, loraName: 'ad' }),
      OPTIONS,
    );
    assert.deepEqual(body, {
      model: 'ad', prompt: 'hello', best_of: 1, max_tokens: 8, stream: true,
      ignore_eos: true, temperature: 0.7, top_p: 0.9, lora_path: 'ad',
    });
  });

  test('truss: fixed payload, requested length, no text chunks', () => {
    const result = replay('truss', [[0.1, chunk('a')], [0.3, chunk('b', { completion_tokens: 99 })]]);
    assert.equal(result.outputLen, 8);
    assert.deepEqual(result.textChunks, []);
    assert.equal(result.itl.length, 1);
    const { body } = backendAdapter('truss').buildBody(input(), { ...OPTIONS, disableStream: true });
    assert.deepEqual(Object.keys(body), ['model', 'prompt', 'temperature', 'best_of', 'max_tokens', 'stream', 'ignore_eos']);
    assert.equal(body.stream, false);
  });
});

describe('OpenAI chat stream', () => {
  const delta = (d: Record<string, unknown>, usage: unknown = null) => sse({ choices: [{ index: 0, delta: d }], usage });

  test('TTFT is the first content; the first reasoning token is recorded separately', () => {
    const result = replay(
      'sglang-oai-chat',
      [
        [0.05, delta({ role: 'assistant', content: '' })],
        [0.1, delta({ reasoning_content: 'think' })],
        [0.2, delta({ reasoning_content: 'more' })],
        [0.3, delta({ content: 'Hi' })],
        [0.35, delta({ content: ' there' })],
        [0.4, sse({ choices: [], usage: { completion_tokens: 5 } })],
        [0.45, sse('[DONE]')],
      ],
      4,
    );
    assert.equal(result.firstReasoningTtft, 0.1);
    assert.equal(result.ttft, 0.3);
    assert.equal(result.generatedText, 'Hi there');
    assert.deepEqual(result.textChunks, [' there']);
    assert.equal(result.outputLen, 5);
    assert.equal(result.latency, 0.45);
  });

  test('messages: list prompt verbatim, images before text, plain text as one user message', () => {
    const adapter = backendAdapter('vllm-chat');
    const history = [{ role: 'user', content: 'a' }];
    assert.deepEqual(adapter.buildBody(input({ prompt: history }), OPTIONS).body.messages, history);
    assert.deepEqual(adapter.buildBody(input({ imageData: ['data:i'] }), OPTIONS).body.messages, [
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:i' } }, { type: 'text', text: 'hello' }] },
    ]);
    const { body } = adapter.buildBody(input({ extraRequestBody: { ignore_eos: false } }), OPTIONS);
    assert.deepEqual(Object.keys(body), ['model', 'messages', 'max_completion_tokens', 'stream', 'temperature', 'ignore_eos']);
    assert.equal(body.ignore_eos, false);
  });

  test('non-stream body: message content, usage, TTFT = latency', () => {
    const parser = backendAdapter('vllm-chat').createParser(input(), 0, false);
    feedBody(parser, JSON.stringify({ choices: [{ message: { content: 'ok' } }], usage: { completion_tokens: 2 } }), 0.9);
    const result = parser.result();
    assert.deepEqual([result.generatedText, result.ttft, result.latency, result.outputLen], ['ok', 0.9, 0.9, 2]);
  });
});

describe('trt stream', () => {
  test('every JSON line is an arrival, data: prefix without a space, latency to the last token', () => {
    const result = replay('trt', [
      [0.1, 'data:{"text_output":"a"}\n\n'],
      [0.2, 'data:{"text_output":""}\n\n'],
      [0.4, 'data:{"text_output":"b"}\n\n'],
    ], 3);
    assert.equal(result.generatedText, 'ab');
    assert.equal(result.itl.length, 2);
    assert.equal(result.latency, 0.4);
    assert.equal(result.outputLen, 8);
  });

  test('--disable-ignore-eos removes min_length and end_id; trt sends no auth', () => {
    const adapter = backendAdapter('trt');
    const { body, stream } = adapter.buildBody(input(), { ...OPTIONS, disableIgnoreEos: true, disableStream: true });
    assert.equal(stream, true);
    assert.ok(!('min_length' in body) && !('end_id' in body));
    assert.equal(adapter.sendsAuth, false);
  });
});

test('gserver is rejected with one line', () => {
  assert.throws(() => backendAdapter('gserver'), /gserver/);
});

test('what a response says about itself: the last meta_info (native) or usage (OpenAI) is kept', () => {
  assert.deepEqual(
    readServerReport({ prompt_tokens: 10, completion_tokens: 4, cached_tokens: 8, spec_verify_ct: 2, e2e_latency: 0.5, queue_time: 0.01, id: 'x' }, undefined),
    { promptTokens: 10, completionTokens: 4, cachedTokens: 8, specVerifyCount: 2, e2eLatency: 0.5, queueTime: 0.01 },
  );
  assert.deepEqual(readServerReport(undefined, { prompt_tokens: 7, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 5 } }), {
    promptTokens: 7,
    completionTokens: 3,
    cachedTokens: 5,
  });
  assert.deepEqual(readServerReport(undefined, { prompt_tokens: 7, prompt_tokens_details: null }), { promptTokens: 7 });
  assert.equal(readServerReport(null, null), undefined);
  // Negative, infinite or non-numeric figures are not taken.
  assert.deepEqual(readServerReport({ queue_time: -3, cached_tokens: 1e999, completion_tokens: '5', prompt_tokens: 2 }, undefined), { promptTokens: 2 });
});
