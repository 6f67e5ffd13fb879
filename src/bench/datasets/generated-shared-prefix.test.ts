import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { NumpyRandomState, PythonRandom } from '../../core/rng.js';
import { UsageError } from '../../core/errors.js';
import { loadTokenizer } from '../../tokenizer/index.js';
import { buildFromArgv } from '../../../test/helpers/datasets.js';

const qwen = await loadTokenizer({ model: 'Qwen/Qwen3-8B' });
const small = ['--dataset-name', 'generated-shared-prefix', '--gsp-num-groups', '3', '--gsp-prompts-per-group', '4', '--gsp-system-prompt-len', '40', '--gsp-question-len', '8', '--gsp-output-len', '6'];

/** The system prompts seed 1 gives at ratio 1: the first Python draws, decoded (gen_prompt). */
async function expectedSystemPrompts(groups: number, length: number): Promise<string[]> {
  const python = new PythonRandom(1);
  const vocab = qwen.vocabIds();
  return Promise.all(Array.from({ length: groups }, () => qwen.decode(python.choices(vocab, length))));
}

/** Index of the group whose system prompt starts `prompt`. */
function groupOf(prompt: string, systems: string[]): number {
  return systems.findIndex((system) => prompt.startsWith(`${system}\n\n`));
}

describe('generated-shared-prefix dataset', () => {
  test('groups share a system prompt; statistics lines; --num-prompts ignored', async () => {
    const { dataset, lines } = await buildFromArgv([...small, '--gsp-ordered', '--num-prompts', '1'], qwen);
    assert.equal(dataset.rows.length, 12);
    assert.equal(dataset.multiTurn, false);
    const systems = await expectedSystemPrompts(3, 40);
    assert.deepEqual(
      dataset.rows.map((r) => groupOf(r.prompt as string, systems)),
      [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2],
    );
    for (const row of dataset.rows) {
      assert.equal(row.promptLen, (await qwen.encode(row.prompt as string)).length);
      assert.equal(row.outputLen, 6);
      assert.equal(row.routingKey, undefined);
    }
    const totalInput = dataset.rows.reduce((s, r) => s + r.promptLen, 0);
    assert.deepEqual(lines.slice(0, 2), [
      '',
      'Generating new input data... (num_groups=3, 4, system_prompt_len=40, question_len=8, output_len=6, range_ratio=1.0, num_turns=1)',
    ]);
    assert.deepEqual(lines.slice(2, 10), [
      '',
      'Generated shared prefix dataset statistics:',
      'Number of groups: 3',
      'Prompts per group: 4',
      'Number of turns: 1',
      'Total prompts: 12',
      `Total input tokens: ${totalInput}`,
      'Total output tokens: 72',
    ]);
    assert.match(lines[10]!, /^Average system prompt length: \d+\.\d tokens$/);
    assert.match(lines[11]!, /^Average question length: \d+\.\d tokens$/);
    assert.equal(lines[12], '');
  });

  test('shuffle, routing keys and ratio-sampled lengths', async () => {
    const argv = [...small, '--gsp-range-ratio', '0.5', '--gsp-send-routing-key'];
    const { dataset } = await buildFromArgv(argv, qwen);
    const numpy = new NumpyRandomState(1);
    numpy.randint(20, 41, 3);
    numpy.randint(4, 9, 12);
    const outputs = numpy.randint(3, 7, 12);
    assert.deepEqual(dataset.rows.map((r) => r.outputLen).sort(), outputs.slice().sort());
    const prefix = dataset.rows[0]!.routingKey!.slice(0, -2);
    assert.match(prefix, /^[0-9a-f]{8}_\d{14}$/);
    // Ratio 0.5 gives each group its own system length; the key's group suffix follows it.
    const systemLens = new NumpyRandomState(1).randint(20, 41, 3);
    const python = new PythonRandom(1);
    const systems = await Promise.all(systemLens.map((k) => qwen.decode(python.choices(qwen.vocabIds(), k))));
    for (const row of dataset.rows) {
      assert.equal(row.routingKey, `${prefix}_${groupOf(row.prompt as string, systems)}`);
    }
    const ordered = await buildFromArgv([...argv, '--gsp-ordered'], qwen);
    assert.notDeepEqual(dataset.rows.map((r) => r.outputLen), ordered.dataset.rows.map((r) => r.outputLen));
  });

  test('multi-turn rows are lists of turns; only the first carries the system prompt', async () => {
    const { dataset, lines } = await buildFromArgv([...small, '--gsp-num-turns', '3', '--gsp-fast-prepare'], qwen);
    const systems = await expectedSystemPrompts(3, 40);
    assert.equal(dataset.multiTurn, true);
    for (const row of dataset.rows) {
      const turns = row.prompt as string[];
      assert.equal(turns.length, 3);
      assert.notEqual(groupOf(turns[0]!, systems), -1);
      assert.equal(row.promptLen, 1);
    }
    assert.equal(lines.at(-1), 'Total prompts: 12');
  });

  test('--tokenize-prompt is refused', async () => {
    await assert.rejects(buildFromArgv([...small, '--tokenize-prompt'], qwen), UsageError);
  });
});
