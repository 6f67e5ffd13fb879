/**
 * Help as a user reaches it, through the built CLI: every command's help is argparse's (SGLang's
 * look) with defaults shown, `servebench help CMD` prints the same text as `servebench CMD --help`,
 * `bench --help` states each option's default the way Python's argparse does (`(default: X)`),
 * leaving out defaults that mean "not set", and `predict --help` lists the launch flags the
 * launch parser reads.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COMMAND_NAMES } from '../src/cli/main.js';
import { SGLANG_FLAGS, SIM_MODEL_FLAGS } from '../src/deployment/flags/effective-flags.js';
import { runCli } from './helpers/cli.js';

describe('servebench help', () => {
  for (const command of COMMAND_NAMES) {
    test(`help ${command} and ${command} --help print the same argparse help, exit 0`, async () => {
      const [viaHelp, viaFlag] = await Promise.all([runCli(['help', command]), runCli([command, '--help'])]);
      assert.equal(viaHelp.code, 0);
      assert.equal(viaFlag.code, 0);
      assert.match(viaHelp.stdout, new RegExp(`^usage: servebench ${command} `));
      assert.match(viaHelp.stdout, /\n\noptional arguments:\n  -h, --help +show this help/);
      assert.match(viaHelp.stdout, /\(default: /);
      assert.equal(viaHelp.stdout, viaFlag.stdout);
      assert.equal(viaHelp.stderr, '');
    });
  }

  test('predict --help lists every launch flag the launch parser reads, with its aliases and defaults', async () => {
    const { stdout } = await runCli(['predict', '--help']);
    for (const spec of [...SGLANG_FLAGS, ...SIM_MODEL_FLAGS]) {
      const names = spec.names.map((name) => `--${name}${spec.metavar === undefined ? '' : ` ${spec.metavar}`}`).join(', ');
      assert.ok(stdout.includes(`  ${names}`), names);
    }
    const entry = (start: string): string => {
      const found = stdout.split(/\n(?=  -)/).find((text) => text.startsWith(`  ${start}`));
      assert.ok(found, `${start} is listed`);
      return found.replace(/\s+/g, ' ').trim();
    };
    // Each numeric flag says what it takes, as its check states it.
    assert.match(entry('--tp-size N, --tp N, --tensor-parallel-size N'), /tensor-parallel size: .*; takes an integer ≥ 1 \(default: 1\)$/);
    assert.match(entry('--dp-size N, --dp N, --data-parallel-size N'), /\(default: 1\)$/);
    assert.equal(entry('--chunked-prefill-size N'), '--chunked-prefill-size N prefill chunk in tokens; -1 disables chunking; takes an integer ≥ -1 (-1: no chunking)');
    assert.match(entry('--mem-fraction-static F'), /takes a number > 0 and ≤ 1$/);
    assert.match(entry('--hardware NAME'), /device profile: a100, .*\(default: h100\)$/);
  });

  test('help alone lists the commands, exit 0', async () => {
    const result = await runCli(['help']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^usage: servebench <command> \[options\]/);
    assert.match(result.stdout, /servebench help <command>/);
  });

  test('help of an unknown command is one line, exit 2', async () => {
    const result = await runCli(['help', 'benchh']);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, "servebench: error: unknown command 'benchh'; run 'servebench --help' for the list\n");
  });

  test('help with two command names is one line, exit 2', async () => {
    const result = await runCli(['help', 'bench', 'sim']);
    assert.equal(result.code, 2);
    assert.equal(result.stderr.trimEnd().split('\n').length, 1);
    assert.match(result.stderr, /^servebench help: error: expected one command name/);
  });
});

describe('servebench bench --help defaults', () => {
  /** The help text of one option, its wrapped lines joined by single spaces. */
  async function optionHelp(): Promise<(flag: string) => string> {
    const result = await runCli(['bench', '--help']);
    assert.equal(result.code, 0);
    const entries = result.stdout.split(/\n(?=  -)/);
    return (flag) => {
      const entry = entries.find((text) => text.startsWith(`  ${flag} `) || text.startsWith(`  ${flag}\n`));
      assert.ok(entry, `${flag} is listed`);
      // The last option is followed by the notes after a blank line.
      return entry.split('\n\n')[0]!.replace(/\s+/g, ' ').trim();
    };
  }

  test('options with a default show it as Python writes it', async () => {
    const help = await optionHelp();
    assert.match(help('--backend'), /\(default: sglang\)$/);
    assert.match(help('--num-prompts'), /\(default: 1000\)$/);
    assert.match(help('--request-rate'), /\(default: inf\)$/);
    assert.match(help('--random-range-ratio'), /\(default: 0\.0\)$/);
    assert.match(help('--profile-activities'), /\(default: \['CPU', 'GPU'\]\)$/);
    assert.match(help('--stream-idle-timeout'), /\(default: 600\)$/);
  });

  test("a note after the options tells bench_serving's per-second peaks from the extras' true ones", async () => {
    const result = await runCli(['bench', '--help']);
    const notes = result.stdout.slice(result.stdout.lastIndexOf('\n\n')).replace(/\s+/g, ' ').trimEnd();
    assert.match(notes, /^ Peaks: the result block's 'Peak output token throughput' and 'Peak concurrent requests' are bench_serving's/);
    assert.match(notes, /'Peak in-flight requests', the most requests in flight at one instant \(never above --max-concurrency\)/);
    assert.match(notes, /'Peak output tok\/s \(1 s window\)', the most output tokens in any one-second window\.$/);
  });

  test('unset defaults (None, a flag, the empty string) are not shown', async () => {
    const help = await optionHelp();
    for (const flag of ['--base-url', '--max-concurrency', '--output-details', '--dataset-path', '--header']) {
      assert.doesNotMatch(help(flag), /\(default: /, flag);
    }
  });
});

describe('numeric options state their range in help, and their check holds to it', () => {
  /** Per command: each numeric option, a value its help's range excludes, and what the help states. */
  const CASES: { command: string; option: string; outside: string; states: RegExp; prefix?: string[] }[] = [
    { command: 'runs', option: '--limit', outside: '0', states: /takes an integer ≥ 1/ },
    { command: 'dashboard', option: '--port', outside: '70000', states: /takes an integer from 0 to 65535/ },
    { command: 'plot', option: '--width', outside: '10', states: /takes an integer from 200 to 8000/ },
    { command: 'eval', option: '--parallel', outside: '0', states: /takes an integer ≥ 1/, prefix: ['gsm8k', '--data-path', 'x.jsonl'] },
    { command: 'eval', option: '--seed', outside: '-1', states: /takes an integer from 0 to 4294967295/, prefix: ['gsm8k', '--data-path', 'x.jsonl'] },
    { command: 'bench', option: '--sim-time-scale', outside: '0.5', states: /Takes 'auto' or a number from 1 to 1000/ },
    { command: 'sweep', option: '--search-start', outside: '0', states: /takes an integer ≥ 1 for --search concurrency, a number > 0 for --search rate/, prefix: ['--slo', 'tpot=20ms', '--search', 'concurrency'] },
    { command: 'sweep', option: '--max-load', outside: '0', states: /takes an integer ≥ 1 for --search concurrency, a number > 0 for --search rate/, prefix: ['--slo', 'tpot=20ms', '--search', 'concurrency'] },
    { command: 'sweep', option: '--tolerance', outside: '0', states: /a number > 0 and ≤ 1 for --search rate/, prefix: ['--slo', 'tpot=20ms', '--search', 'rate'] },
    { command: 'sweep', option: '--prompts-per-load', outside: '0', states: /takes a number > 0/, prefix: ['--concurrency', '1'] },
  ];
  const helps = new Map<string, Promise<string>>();
  const helpOf = (command: string): Promise<string> => {
    if (!helps.has(command)) helps.set(command, runCli([command, '--help']).then((r) => r.stdout));
    return helps.get(command)!;
  };

  for (const { command, option, outside, states, prefix = [] } of CASES) {
    test(`${command} ${option}: help states the range; ${outside} is refused in one line, exit 2`, async () => {
      const entry = (await helpOf(command)).split(/\n(?=  -)/).find((text) => text.startsWith(`  ${option} `));
      assert.ok(entry, `${option} is listed`);
      assert.match(entry.replace(/\s+/g, ' '), states);
      const refused = await runCli([command, ...prefix, option, outside]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.equal(refused.stderr.trimEnd().split('\n').length, 1, refused.stderr);
      assert.ok(refused.stderr.includes(option), refused.stderr);
    });
  }
});
