import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBenchCommand, resolveBenchOption } from './bench-command.js';

test('states only what the command gives, with argparse prefix abbreviations', () => {
  const warnings: string[] = [];
  const args = parseBenchCommand(
    ['--backend', 'sglang', '--host', '$MASTER_ADDR', '--num-prompt', '10', '--random-input', '1024', '--request-rate', 'inf',
      '--random-range-ratio', '1', '--profile-activities', 'CPU', 'GPU', '--disable-tqdm', '--bogus', '3'],
    warnings,
  );
  assert.deepEqual(args, {
    backend: 'sglang',
    host: '$MASTER_ADDR',
    num_prompts: 10,
    random_input_len: 1024,
    request_rate: Infinity,
    random_range_ratio: 1,
    profile_activities: ['CPU', 'GPU'],
    disable_tqdm: true,
  });
  assert.deepEqual(warnings, ['bench command option --bogus is not a bench_serving option; ignored']);
});

test('exact names win over prefixes; ambiguous prefixes are unknown', () => {
  assert.equal(resolveBenchOption('--profile'), 'profile');
  assert.equal(resolveBenchOption('--random'), null);
});
