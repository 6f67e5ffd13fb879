import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { SimServerHandle } from '../src/sim/server/sim-server.js';
import { get, MODEL, post, startTruthSim } from './sim-server-helpers.js';

const weatherTool: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city', 'unit'] },
  },
};

describe('sim: OpenAI API through the official openai client', () => {
  let sim: SimServerHandle;
  let client: OpenAI;
  before(async () => {
    sim = await startTruthSim(['--reasoning-parser', 'qwen3', '--tool-call-parser', 'qwen25']);
    client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'not-needed', maxRetries: 0 });
  });
  after(() => sim.close());

  test('models list names the served model', async () => {
    const models = await client.models.list();
    assert.equal(models.data[0]!.id, MODEL);
  });

  test('completions: non-stream usage and streamed deltas with include_usage', async () => {
    const done = await client.completions.create({ model: MODEL, prompt: 'Once upon a time', max_tokens: 7, ignore_eos: true } as OpenAI.CompletionCreateParamsNonStreaming);
    assert.equal(done.usage!.completion_tokens, 7);
    assert.equal(done.choices[0]!.finish_reason, 'length');
    const stream = await client.completions.create({ model: MODEL, prompt: 'Once upon a time', max_tokens: 5, stream: true, stream_options: { include_usage: true }, ignore_eos: true } as OpenAI.CompletionCreateParamsStreaming);
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.text ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    assert.equal(text.trim().split(' ').length, 5);
    assert.equal(usage!.completion_tokens, 5);
    assert.equal(usage!.total_tokens, usage!.prompt_tokens + 5);
  });

  test('chat stream: reasoning_content first, then content; thinking can be switched off', async () => {
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Why is the sky blue?' }],
      max_completion_tokens: 12,
      stream: true,
      ignore_eos: true,
    } as OpenAI.ChatCompletionCreateParamsStreaming);
    const kinds: string[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]!.delta as { content?: string | null; reasoning_content?: string | null };
      if (delta.reasoning_content) kinds.push('reasoning');
      if (delta.content) kinds.push('content');
      finish = chunk.choices[0]!.finish_reason ?? finish;
    }
    assert.equal(kinds.length, 12);
    assert.equal(kinds[0], 'reasoning');
    assert.equal(kinds.at(-1), 'content');
    assert.equal(kinds.lastIndexOf('reasoning') < kinds.indexOf('content'), true);
    assert.equal(finish, 'length');
    const plain = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 6,
      ignore_eos: true,
      chat_template_kwargs: { enable_thinking: false },
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const message = plain.choices[0]!.message as { content: string; reasoning_content?: string | null };
    assert.equal(message.reasoning_content, null);
    assert.equal(message.content.trim().split(' ').length, 6);
    assert.equal(plain.usage!.completion_tokens, 6);
  });

  test('tool call streams id, name and argument pieces, and the role "tool" follow-up gets an answer', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages,
      tools: [weatherTool],
      max_completion_tokens: 20,
      stream: true,
      ignore_eos: true,
      chat_template_kwargs: { enable_thinking: false },
    } as OpenAI.ChatCompletionCreateParamsStreaming);
    let id = '';
    let name = '';
    let args = '';
    let pieces = 0;
    let finish: string | null = null;
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]!.delta.tool_calls ?? []) {
        assert.equal(call.index, 0);
        if (call.id) id = call.id;
        if (call.function?.name) name = call.function.name;
        args += call.function?.arguments ?? '';
        pieces += 1;
      }
      finish = chunk.choices[0]!.finish_reason ?? finish;
    }
    assert.equal(finish, 'tool_calls');
    assert.equal(name, 'get_weather');
    assert.ok(pieces > 1);
    const parsed = JSON.parse(args);
    assert.deepEqual(Object.keys(parsed), ['city', 'unit']);
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] });
    messages.push({ role: 'tool', tool_call_id: id, content: '{"temperature": 21}' });
    const answer = await client.chat.completions.create({
      model: MODEL,
      messages,
      tools: [weatherTool],
      max_completion_tokens: 8,
      ignore_eos: true,
      chat_template_kwargs: { enable_thinking: false },
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    assert.equal(answer.choices[0]!.finish_reason, 'length');
    assert.equal(answer.choices[0]!.message.tool_calls ?? null, null);
    assert.equal(answer.choices[0]!.message.content!.trim().split(' ').length, 8);
  });

  test('a request id sent as rid is the answer id and keys the truth record, as SGLang takes it', async () => {
    const completion = await post(sim.url, '/v1/completions', { model: MODEL, prompt: 'Hi', max_tokens: 2, rid: 'oai-rid-1' });
    assert.equal(completion.json.id, 'oai-rid-1');
    const chat = await post(sim.url, '/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'Hi' }], max_tokens: 2, rid: 'oai-rid-2' });
    assert.equal(chat.json.id, 'oai-rid-2');
    const truth = (await get(sim.url, '/sim/truth')).json as { requests: Record<string, unknown> };
    assert.ok(truth.requests['oai-rid-1'] && truth.requests['oai-rid-2'], 'both requests keep their truth under their rid');
    const wrong = await post(sim.url, '/v1/completions', { model: MODEL, prompt: 'Hi', max_tokens: 2, rid: 7 });
    assert.equal(wrong.status, 400);
  });

  test('stop strings end the answer at the match with finish stop', async () => {
    // Every answer word starts with a space, so a one-space stop string matches inside the first token.
    const stopped = await client.completions.create({ model: MODEL, prompt: 'x', max_tokens: 30, stop: [' '], ignore_eos: true } as OpenAI.CompletionCreateParamsNonStreaming);
    assert.equal(stopped.choices[0]!.finish_reason, 'stop');
    assert.equal(stopped.choices[0]!.text, '');
    assert.equal(stopped.usage!.completion_tokens, 1);
  });

  test('errors reach the client as OpenAI API errors', async () => {
    await assert.rejects(
      client.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] }),
      (error: unknown) => error instanceof OpenAI.NotFoundError && /no-such-model/.test(error.message),
    );
    await assert.rejects(
      client.completions.create({ model: MODEL, prompt: 'hi', max_tokens: 'ten' as unknown as number }),
      (error: unknown) => error instanceof OpenAI.BadRequestError && (error as InstanceType<typeof OpenAI.BadRequestError>).param === 'max_tokens',
    );
  });
});
