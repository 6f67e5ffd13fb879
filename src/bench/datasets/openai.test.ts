import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { loadTokenizer } from '../../tokenizer/index.js';
import { buildFromArgv, scratchFolder } from '../../../test/helpers/datasets.js';

const qwen = await loadTokenizer({ model: 'Qwen/Qwen3-8B' });
const scratch = scratchFolder('servebench-openai-');
after(() => rmSync(scratch.dir, { recursive: true, force: true }));

const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
const requests = [
  { messages: [{ role: 'user', content: 'Weather in Paris?' }], max_tokens: 64, tools, temperature: 0.5, model: 'ignored' },
  { max_tokens: 10 }, // no messages: skipped, but counts toward --num-prompts
  { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }], max_completion_tokens: 5 },
];
const path = scratch.write('requests.jsonl', requests.map((r) => JSON.stringify(r)).join('\n\n'));

describe('openai dataset', () => {
  test('rows keep messages verbatim, per-row extra body and template + tools token counts', async () => {
    const { dataset, lines } = await buildFromArgv(['--dataset-name', 'openai', '--dataset-path', path, '--num-prompts', '10'], qwen);
    assert.equal(dataset.rows.length, 2);
    const [first, second] = dataset.rows as [(typeof dataset.rows)[0], (typeof dataset.rows)[0]];
    assert.deepEqual(first.prompt, requests[0]!.messages);
    assert.deepEqual(first.extraRequestBody, { tools, temperature: 0.5 });
    assert.equal(first.outputLen, 64);
    const templated = qwen.applyChatTemplate(requests[0]!.messages!, { addGenerationPrompt: true });
    // Python json.dumps spacing: ", " and ": ".
    const toolsText = JSON.stringify(tools).replace(/,/g, ', ').replace(/:/g, ': ');
    assert.equal(first.promptLen, (await qwen.encode(templated, false)).length + (await qwen.encode(toolsText)).length);
    assert.equal(second.outputLen, 256);
    assert.deepEqual(second.extraRequestBody, {});
    assert.deepEqual(lines, [
      'Loaded 2 OpenAI-format requests',
      `#Input tokens: ${first.promptLen + second.promptLen}`,
      `#Output tokens: ${64 + 256}`,
    ]);
  });

  test('--num-prompts counts objects read; --sharegpt-output-len overrides max_tokens', async () => {
    const { dataset } = await buildFromArgv(['--dataset-name', 'openai', '--dataset-path', path, '--num-prompts', '2', '--sharegpt-output-len', '7'], qwen);
    assert.equal(dataset.rows.length, 1);
    assert.equal(dataset.rows[0]!.outputLen, 7);
  });

  test('a malformed line names the file and line', async () => {
    const bad = scratch.write('bad.jsonl', `${JSON.stringify(requests[0])}\n{"messages": [\n`);
    await assert.rejects(buildFromArgv(['--dataset-name', 'openai', '--dataset-path', bad], qwen), (e: unknown) => {
      assert.ok(e instanceof UserError);
      assert.match(e.message, /bad\.jsonl line 2: invalid JSON/);
      return true;
    });
  });
});
