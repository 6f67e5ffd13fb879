import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TokenEmission } from '../types.js';
import type { OutputPlan } from '../text/output-plan.js';
import { ChatFormatter, CompletionFormatter, NativeFormatter, TrtFormatter } from './wire-format.js';

const plan: OutputPlan = { tokens: 4, finishReason: 'length', pieces: [' a', ' b"', ' c', ' d'], ids: [1, 2, 3, 4], matchedStop: null };
const context = { id: 'r1', model: 'm', created: 1, promptTokens: 7, plan };

function emission(completionTokens: number, tokens: number, finished = false): TokenEmission {
  return { requestId: 'r1', time: 0, tokens, completionTokens, cachedTokens: 2, specVerifyCount: 0, finished, finishReason: finished ? 'length' : null };
}

/** Parses SSE text exactly as bench_serving does: lines, `data: ` prefix, `[DONE]` skipped. */
function events(text: string): Record<string, any>[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && l !== 'data: [DONE]')
    .map((l) => JSON.parse(l.replace(/^data: /, '')));
}

describe('NativeFormatter', () => {
  test('streams cumulative text with completion_tokens and a final finish_reason', () => {
    const f = new NativeFormatter(context);
    const first = events(f.event(emission(1, 1), 0.1));
    const last = f.event(emission(4, 3, true), 0.2);
    assert.equal(first[0]!.text, ' a');
    assert.equal(first[0]!.meta_info.completion_tokens, 1);
    assert.equal(first[0]!.meta_info.finish_reason, null);
    const final = events(last)[0]!;
    assert.equal(final.text, ' a b" c d');
    assert.deepEqual(final.meta_info.finish_reason, { type: 'length', length: 4 });
    assert.equal(final.meta_info.prompt_tokens, 7);
    assert.equal(final.meta_info.cached_tokens, 2);
    assert.ok(last.endsWith('data: [DONE]\n\n'));
  });

  test('non-stream body carries text, output_ids and meta_info', () => {
    const f = new NativeFormatter(context);
    f.collect(emission(2, 2));
    f.collect(emission(4, 2, true));
    const body = JSON.parse(f.body(emission(4, 2, true), 0.3));
    assert.equal(body.text, ' a b" c d');
    assert.deepEqual(body.output_ids, [1, 2, 3, 4]);
    assert.equal(body.meta_info.e2e_latency, 0.3);
  });
});

describe('CompletionFormatter', () => {
  test('deltas, continuous usage, and the include_usage trailer with empty choices', () => {
    const f = new CompletionFormatter(context, { includeUsage: true, continuousUsage: true });
    const a = events(f.event(emission(1, 1)));
    const b = events(f.event(emission(4, 3, true)));
    assert.equal(a[0]!.choices[0].text, ' a');
    assert.equal(a[0]!.usage.completion_tokens, 1);
    assert.equal(b[0]!.choices[0].text, ' b" c d');
    assert.equal(b[0]!.choices[0].finish_reason, 'length');
    assert.deepEqual(b[1]!.choices, []);
    assert.deepEqual(b[1]!.usage, { prompt_tokens: 7, completion_tokens: 4, total_tokens: 11, prompt_tokens_details: { cached_tokens: 2 } });
  });
});

describe('ChatFormatter', () => {
  test('reasoning first, then content, split inside one emission', () => {
    const f = new ChatFormatter(context, { reasoningTokens: 2, toolCall: null }, { includeUsage: false, continuousUsage: false });
    const a = events(f.event(emission(1, 1)));
    const b = events(f.event(emission(4, 3, true)));
    assert.deepEqual(a[0]!.choices[0].delta, { role: 'assistant', content: null, reasoning_content: ' a' });
    assert.equal(b[0]!.choices[0].delta.reasoning_content, ' b"');
    assert.equal(b[1]!.choices[0].delta.content, ' c d');
    assert.equal(b[1]!.choices[0].finish_reason, 'length');
    assert.equal(b.length, 2);
  });

  test('tool call: header with id and name, argument pieces, finish tool_calls', () => {
    const call = { id: 'call_1', name: 'get_weather', argumentPieces: ['{"ci', 'ty":', ' "x"', '}'] };
    const f = new ChatFormatter(context, { reasoningTokens: 0, toolCall: call }, { includeUsage: false, continuousUsage: false });
    const chunks = [...events(f.event(emission(1, 1))), ...events(f.event(emission(4, 3, true)))];
    const first = chunks[0]!.choices[0].delta.tool_calls[0];
    assert.deepEqual(first, { index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"ci' } });
    assert.deepEqual(chunks[1]!.choices[0].delta.tool_calls[0], { index: 0, function: { arguments: 'ty": "x"}' } });
    assert.equal(chunks[1]!.choices[0].finish_reason, 'tool_calls');
    const body = new ChatFormatter(context, { reasoningTokens: 0, toolCall: call }, { includeUsage: false, continuousUsage: false });
    body.collect(emission(4, 4, true));
    const message = JSON.parse(body.body(emission(4, 4, true))).choices[0].message;
    assert.equal(message.content, null);
    assert.equal(message.tool_calls[0].function.arguments, '{"city": "x"}');
  });
});

describe('TrtFormatter', () => {
  test('one `data:` line per emission with only its own text (several tokens under speculative decoding), no [DONE]', () => {
    const f = new TrtFormatter(plan);
    const first = f.event(emission(1, 1));
    const last = f.event(emission(4, 3, true));
    assert.ok(first.startsWith('data:{') && first.endsWith('}\n\n'));
    assert.equal(JSON.parse(first.slice('data:'.length)).text_output, ' a');
    assert.equal(JSON.parse(last.slice('data:'.length)).text_output, ' b" c d');
    assert.ok(!last.includes('[DONE]'));
  });

  test('the non-stream body holds the whole text', () => {
    const f = new TrtFormatter(plan);
    f.collect(emission(2, 2));
    f.collect(emission(4, 2, true));
    assert.equal(JSON.parse(f.body()).text_output, ' a b" c d');
  });
});
