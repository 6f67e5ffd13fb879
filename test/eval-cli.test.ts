/**
 * `servebench eval` (the built CLI) against scripted loopback servers that answer from an answer
 * key with known mistakes, unreadable answers and failed requests, over each API family: the
 * printed accuracy, invalid rate and per-subject figures are exact, every question lands in the
 * answers file, the run lands in the catalog beside the performance runs of the same server, the
 * sim is recognised, `--parallel` holds, and bad data is one line.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openCatalog } from '../src/catalog/index.js';
import { route } from '../src/dashboard/routes.js';
import { startAnswerKeyServer, SGLANG_SERVER_INFO } from './helpers/answer-key-server.js';
import { runCli } from './helpers/cli.js';
import { spawnSim } from './helpers/sim-process.js';

const workDir = mkdtempSync(join(tmpdir(), 'servebench-eval-'));
after(() => rmSync(workDir, { recursive: true, force: true }));
let fileCounter = 0;
function freshPath(name: string): string {
  return join(workDir, `${++fileCounter}-${name}`);
}

function writeFile(name: string, text: string): string {
  const path = freshPath(name);
  writeFileSync(path, text);
  return path;
}

function lines(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The four SGLang result lines, with latency and throughput checked for form only (they are timings). */
function assertResultLines(stdout: string, accuracy: string, invalid: string): void {
  assert.match(stdout, new RegExp(`^Accuracy: ${accuracy.replace('.', '\\.')}\nInvalid: ${invalid.replace('.', '\\.')}\nLatency: \\d+\\.\\d{3} s\nOutput throughput: \\d+\\.\\d{3} token/s$`, 'm'));
}

/** GSM8K records, their scripted replies and what each must score (2 of them serve as examples too, as in SGLang). */
const GSM8K_KEY: Array<{ question: string; answer: string; reply: string | number; verdict: 'correct' | 'wrong' | 'invalid' }> = [
  { question: 'Q0: 2 plus 5?', answer: '2 + 5 = 7\n#### 7', reply: ' 2 + 5 = 7. The answer is 7.', verdict: 'correct' },
  { question: 'Q1: 6 times 4?', answer: '6 * 4 = 24\n#### 24', reply: ' 6 * 4 = 25', verdict: 'wrong' },
  { question: 'Q2: 1000 plus 234?', answer: '#### 1,234', reply: ' It is 1,234.', verdict: 'correct' },
  { question: 'Q3: 9 minus 3?', answer: '#### 6', reply: ' I cannot say.', verdict: 'invalid' },
  // Correct only when the request carries SGLang's stop string "Question" and the server stops there.
  { question: 'Q4: 10 over 2?', answer: '#### 5', reply: ' 10 / 2 = 5\n\nQuestion: 99 plus 1?\nAnswer: 100', verdict: 'correct' },
  // A leading zero is no Python literal: SGLang counts the answer as invalid.
  { question: 'Q5: 3 plus 4?', answer: '#### 7', reply: ' agent 007', verdict: 'invalid' },
  { question: 'Q6: 8 plus 8?', answer: '#### 16', reply: 500, verdict: 'invalid' },
  { question: 'Q7: 5 times 5?', answer: '#### 25', reply: ' 25', verdict: 'correct' },
];

function gsm8kFile(): string {
  return writeFile('gsm8k.jsonl', GSM8K_KEY.map(({ question, answer }) => JSON.stringify({ question, answer })).join('\n') + '\n');
}

/** The question a GSM8K prompt ends with. */
function askedGsm8k(prompt: string): string {
  return /Question: ([^\n]*)\nAnswer:$/.exec(prompt)![1]!;
}

describe('eval gsm8k over SGLang /generate', () => {
  test('exact accuracy and invalid rate; stop strings, greedy sampling and headers sent; answers file; catalog beside a bench run of the same server', async () => {
    const server = await startAnswerKeyServer({
      answer: (prompt) => (prompt.includes('\nAnswer:') ? GSM8K_KEY.find((k) => k.question === askedGsm8k(prompt))!.reply : ' ok ok ok ok'),
    });
    try {
      const db = freshPath('catalog.db');
      const answers = freshPath('answers.jsonl');
      const env = { OPENAI_API_KEY: 'sk-eval-secret' };
      const result = await runCli(
        ['eval', 'gsm8k', '--data-path', gsm8kFile(), '--num-shots', '2', '--base-url', server.url, '--header', 'X-Tenant: tenant-secret', '--db', db, '--output-file', answers, '--label', 'hardware=H100'],
        { env },
      );
      assert.equal(result.code, 0, result.stderr);
      assertResultLines(result.stdout, '0.500', '0.375');
      assert.match(result.stderr, /warning: 1 of 8 requests failed \(http_5xx 1\); their answers count as invalid/);

      assert.equal(server.requests.length, 8);
      for (const request of server.requests) {
        assert.equal(request.path, '/generate');
        assert.deepEqual(request.body.sampling_params, { temperature: 0, max_new_tokens: 512, ignore_eos: false, stop: ['Question', 'Assistant:', '<|separator|>'] });
        assert.equal(request.body.stream, true);
        assert.equal(request.headers.authorization, 'Bearer sk-eval-secret');
        assert.equal(request.headers['x-tenant'], 'tenant-secret');
        assert.ok(String(request.body.text).startsWith('Question: Q0: 2 plus 5?\nAnswer: 2 + 5 = 7\n#### 7\n\nQuestion: Q1: 6 times 4?\nAnswer: 6 * 4 = 24\n#### 24\n\nQuestion: '));
      }

      const records = lines(answers);
      assert.deepEqual(
        records.map((r) => [r.question, r.correct, r.extracted === null ? 'invalid' : 'read']),
        GSM8K_KEY.map((k) => [`Question: ${k.question}\nAnswer:`, k.verdict === 'correct', k.verdict === 'invalid' ? 'invalid' : 'read']),
      );
      assert.equal(records[4]!.reply, ' 10 / 2 = 5\n\n');
      assert.equal(records[7]!.output_tokens, 1);
      assert.match(String(records[6]!.error), /^Internal Server Error/);

      const bench = await runCli(['bench', '--backend', 'sglang', '--base-url', server.url, '--dataset-name', 'random', '--random-input-len', '16', '--random-output-len', '4', '--num-prompts', '4', '--db', db, '--output-file', freshPath('bench.jsonl'), '--label', 'hardware=H100']);
      assert.equal(bench.code, 0, bench.stderr);

      const runs = await runCli(['runs', '--db', db]);
      assert.match(runs.stdout, /gsm8k 2-shot .* gsm8k 2-shot: accuracy 0\.500 over 8 questions/);
      const evalId = /^(\w{12}) .*gsm8k 2-shot:/m.exec(runs.stdout)![1]!;
      const benchId = /^(\w{12}) .*16-4/m.exec(runs.stdout)![1]!;

      const show = await runCli(['show', evalId, '--db', db]);
      assert.match(show.stdout, /source: +eval \S+answers\.jsonl — gsm8k 2-shot: accuracy 0\.500 over 8 questions/);
      assert.match(show.stdout, /^ {2}accuracy +0\.50$/m);
      assert.match(show.stdout, /^ {2}failed +1$/m);
      assert.match(show.stdout, new RegExp(`same server configuration:\n  run ${benchId}: 16-4, concurrency not set, mean TPOT \\d+\\.\\d\\d ms`));
      const benchShow = await runCli(['show', benchId, '--db', db]);
      assert.match(benchShow.stdout, new RegExp(`same server configuration:\n  run ${evalId}: gsm8k accuracy 0\\.500 over 8 questions`));

      const table = await runCli(['table', '--db', db, '--format', 'csv']);
      assert.equal(table.code, 0, table.stderr);
      const [header, row, ...rest] = table.stdout.trim().split('\n');
      // A Suspect column joins when the bench run's client was saturated (a loaded machine) or a request failed.
      assert.match(header!, /,output_tok_s_per_card,gsm8k_accuracy,(suspect,)?recipe,/);
      assert.match(row!, new RegExp(`,0\\.500,(?:[^,"]*,|"(?:[^"]|"")*",)?\\d+-bench\\.jsonl,.*,${benchId},`));
      assert.deepEqual(rest, [], 'the eval run is no row of its own');

      const catalog = openCatalog(db, { mustExist: true });
      try {
        const page = (path: string): string => String(route(catalog, new URL(`http://127.0.0.1${path}`)).body);
        assert.match(page('/runs'), new RegExp(`href="/runs/${evalId}"[^]*gsm8k 2-shot: accuracy 0\\.500 over 8 questions`));
        const evalPage = page(`/runs/${evalId}`);
        assert.match(evalPage, /data-metric="accuracy"><div class="v">0\.500<\/div><div class="k">Accuracy \(gsm8k\)/);
        assert.match(evalPage, new RegExp(`<h2>Same server configuration</h2>\n<ul id="linked"><li><a href="/runs/${benchId}">`));
        assert.match(page(`/runs/${benchId}`), new RegExp(`<a href="/runs/${evalId}"><code>${evalId}</code></a> gsm8k accuracy 0\\.500 over 8 questions`));
      } finally {
        catalog.close();
      }

      const stored = await runCli(['show', evalId, '--db', db, '--json']);
      for (const text of [result.stdout, result.stderr, readFileSync(answers, 'utf8'), stored.stdout, show.stdout]) {
        assert.doesNotMatch(text, /sk-eval-secret|tenant-secret/);
      }
      assert.match(stored.stdout, /"header":\["X-Tenant: <redacted>"\]/);
    } finally {
      await server.close();
    }
  });

  test('--parallel 256 holds: 256 questions in flight at once, every answer scored', async () => {
    const count = 600;
    const records = Array.from({ length: count }, (_, i) => ({ question: `N${i}: ${i} plus ${i}?`, answer: `#### ${2 * i}` }));
    const data = writeFile('many.jsonl', records.map((r) => JSON.stringify(r)).join('\n'));
    const server = await startAnswerKeyServer({
      answer: (prompt) => ` That makes ${2 * Number(/N(\d+):/.exec(askedGsm8k(prompt))![1])}.`,
      // Long enough that a loaded machine sends all 256 before the first answer comes back.
      delayMs: 1000,
    });
    try {
      const result = await runCli(['eval', 'gsm8k', '--data-path', data, '--num-shots', '0', '--num-questions', String(count), '--parallel', '256', '--base-url', server.url, '--no-catalog', '--output-file', freshPath('many-answers.jsonl')]);
      assert.equal(result.code, 0, result.stderr);
      assertResultLines(result.stdout, '1.000', '0.000');
      assert.equal(server.requests.length, count);
      assert.equal(server.maxInFlight(), 256);
    } finally {
      await server.close();
    }
  });
  test('a SIGTERM mid-run keeps what was answered: graded, in the answers file and the catalog, exit 143', async () => {
    const count = 400;
    const records = Array.from({ length: count }, (_, i) => ({ question: `N${i}: ${i} plus ${i}?`, answer: `#### ${2 * i}` }));
    const data = writeFile('stopped.jsonl', records.map((r) => JSON.stringify(r)).join('\n'));
    const server = await startAnswerKeyServer({
      answer: (prompt) => ` That makes ${2 * Number(/N(\d+):/.exec(askedGsm8k(prompt))![1])}.`,
      delayMs: 100,
    });
    try {
      const db = freshPath('stopped.db');
      const answers = freshPath('stopped-answers.jsonl');
      const result = await runCli(
        ['eval', 'gsm8k', '--data-path', data, '--num-shots', '0', '--num-questions', String(count), '--parallel', '4', '--base-url', server.url, '--db', db, '--output-file', answers],
        { whenStderr: { pattern: /^eval gsm8k: /m, delayMs: 600, act: (child) => child.kill('SIGTERM') } },
      );
      assert.equal(result.code, 143, result.stderr);
      assert.match(result.stderr, /servebench eval: stopped by SIGTERM; the (\d+) of 400 questions asked are graded and saved \(exit status 143\)/);
      const asked = Number(/the (\d+) of 400 questions/.exec(result.stderr)![1]);
      assert.ok(asked > 0 && asked < count, `asked ${asked}`);
      assert.equal(lines(answers).length, asked);
      assertResultLines(result.stdout, '1.000', '0.000');
      const runs = await runCli(['runs', '--db', db, '--json']);
      assert.equal((JSON.parse(runs.stdout) as unknown[]).length, 1);
    } finally {
      await server.close();
    }
  });
});

describe('eval mmlu over OpenAI chat', () => {
  const ANSWER_KEY: Record<string, string> = {
    'AA1 order of Z_4?': ' C', // correct (C)
    'AA2 is Z_3 cyclic?': 'D', // wrong (A)
    'AA3 size of S_3?': 'The', // invalid
    'CB1 powerhouse of the cell?': 'B', // correct (B)
    'CB2 DNA base pairs with A?': ' D', // correct (D)
  };

  function mmluFolder(): string {
    const root = freshPath('mmlu');
    mkdirSync(join(root, 'dev'), { recursive: true });
    mkdirSync(join(root, 'test'));
    writeFileSync(join(root, 'dev', 'abstract_algebra_dev.csv'), 'Dev question about groups?,1,2,3,4,B\n');
    writeFileSync(join(root, 'dev', 'college_biology_dev.csv'), '"Dev question, about cells?",w,x,y,z,A\n');
    writeFileSync(join(root, 'test', 'abstract_algebra_test.csv'), 'AA1 order of Z_4?,1,2,4,8,C\nAA2 is Z_3 cyclic?,yes,no,maybe,never,A\nAA3 size of S_3?,3,6,9,12,B\n');
    writeFileSync(join(root, 'test', 'college_biology_test.csv'), 'CB1 powerhouse of the cell?,nucleus,mitochondrion,ribosome,wall,B\nCB2 DNA base pairs with A?,G,C,A,T,D\n');
    return root;
  }

  test('per-subject figures are exact; one token asked, no stop strings; the usage chunk counts the tokens', async () => {
    const server = await startAnswerKeyServer({
      answer: (prompt) => ANSWER_KEY[/\n\n([^\n]*)\nA\. [^\n]*\nB\. [^\n]*\nC\. [^\n]*\nD\. [^\n]*\nAnswer:$/.exec(prompt)![1]!]!,
    });
    try {
      const answers = freshPath('mmlu-answers.jsonl');
      const result = await runCli(['eval', 'mmlu', '--data-path', mmluFolder(), '--num-shots', '1', '--backend', 'openai-chat', '--base-url', server.url, '--no-catalog', '--output-file', answers]);
      assert.equal(result.code, 0, result.stderr);
      assertResultLines(result.stdout, '0.600', '0.200');
      assert.ok(
        result.stdout.endsWith(
          [
            'SUBJECT           QUESTIONS  CORRECT  INVALID  ACCURACY',
            '----------------  ---------  -------  -------  --------',
            'abstract_algebra          3        1        1     0.333',
            'college_biology           2        2        0     1.000',
            'all                       5        3        1     0.600',
            '',
          ].join('\n'),
        ),
        result.stdout,
      );
      const first = server.requests.find((r) => JSON.stringify(r.body).includes('AA1'))!;
      assert.equal(first.path, '/v1/chat/completions');
      assert.equal(first.body.max_completion_tokens, 1);
      assert.equal(first.body.temperature, 0);
      assert.equal(first.body.stop, undefined);
      assert.deepEqual(first.body.stream_options, { include_usage: true });
      assert.equal(
        (first.body.messages as Array<{ role: string; content: string }>)[0]!.content,
        'The following are multiple choice questions (with answers) about abstract algebra.\n\nDev question about groups?\nA. 1\nB. 2\nC. 3\nD. 4\nAnswer: B\n\nAA1 order of Z_4?\nA. 1\nB. 2\nC. 4\nD. 8\nAnswer:',
      );
      const records = lines(answers);
      assert.deepEqual(records.map((r) => [r.subject, r.extracted, r.correct, r.output_tokens]), [
        ['abstract_algebra', 'C', true, 1],
        ['abstract_algebra', 'D', false, 1],
        ['abstract_algebra', null, false, 1],
        ['college_biology', 'B', true, 1],
        ['college_biology', 'D', true, 1],
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('eval gpqa over OpenAI completions', () => {
  test('exact per-domain figures; the scripted replies find the shuffled letter of the right answer', async () => {
    const csv = [
      'Question,Correct Answer,Incorrect Answer 1,Incorrect Answer 2,Incorrect Answer 3,High-level domain',
      'G0 spin of an electron?,one half,one,zero,two,Physics',
      'G1 speed of light?,c,c/2,2c,zero,Physics',
      'G2 pH of water?,seven,one,fourteen,three,Chemistry',
      '"G3 unit of force, in SI?",newton,joule,watt,pascal,Physics',
    ].join('\n');
    const letterOf = (prompt: string, text: string): string => [...prompt.matchAll(/^([A-D])\) (.*)$/gm)].find((m) => m[2] === text)![1]!;
    const server = await startAnswerKeyServer({
      answer(prompt) {
        if (prompt.includes('G0 ')) return `The spin is one half.\nAnswer: ${letterOf(prompt, 'one half')}`;
        if (prompt.includes('G1 ')) return `Answer: ${letterOf(prompt, 'zero')}`;
        if (prompt.includes('G2 ')) return 'I think it is the second one.';
        return `Answer: $${letterOf(prompt, 'newton')}$`;
      },
    });
    try {
      const result = await runCli(['eval', 'gpqa', '--data-path', writeFile('gpqa.csv', csv), '--backend', 'sglang-oai', '--base-url', server.url, '--no-catalog', '--output-file', freshPath('gpqa-answers.jsonl')]);
      assert.equal(result.code, 0, result.stderr);
      assertResultLines(result.stdout, '0.500', '0.250');
      assert.match(result.stdout, /^Chemistry +1 +0 +1 +0\.000\nPhysics +3 +2 +0 +0\.667\nall +4 +2 +1 +0\.500$/m);
      assert.equal(server.requests[0]!.path, '/v1/completions');
      assert.equal(server.requests[0]!.body.max_tokens, 2048);
    } finally {
      await server.close();
    }
  });
});

describe('eval against the sim', () => {
  test('a server that reports itself as servebench sim gets no accuracy figure, on screen or in the catalog', async () => {
    const server = await startAnswerKeyServer({
      answer: (prompt) => ` ${GSM8K_KEY.find((k) => k.question === askedGsm8k(prompt))!.answer}`,
      serverInfo: { ...SGLANG_SERVER_INFO, version: 'servebench-sim 0.1.0' },
    });
    try {
      const db = freshPath('sim-catalog.db');
      const answers = freshPath('sim-answers.jsonl');
      const result = await runCli(['eval', 'gsm8k', '--data-path', gsm8kFile(), '--base-url', server.url, '--db', db, '--output-file', answers]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^The server is servebench sim: it answers with synthetic text, so accuracy and invalid rate are meaningless here/m);
      assert.match(result.stdout, /^Accuracy: meaningless: servebench sim answers with synthetic text, not a model\nInvalid: meaningless \(synthetic answers\)\nLatency: /m);
      assert.deepEqual([...new Set(lines(answers).map((r) => r.correct))], [null]);
      const runs = await runCli(['runs', '--db', db, '--json']);
      const [run] = JSON.parse(runs.stdout) as Array<{ metrics: Record<string, unknown> }>;
      assert.equal(run!.metrics.accuracy, null);
      assert.equal(run!.metrics.answers, 'synthetic');
    } finally {
      await server.close();
    }
  });

  test('servebench sim itself is recognised from its /get_server_info', async () => {
    const sim = await spawnSim(['--model-path', 'Qwen/Qwen2.5-0.5B-Instruct', '--hardware', 'h100', '--port', '0']);
    try {
      const result = await runCli(['eval', 'gsm8k', '--data-path', gsm8kFile(), '--num-questions', '3', '--max-new-tokens', '16', '--base-url', sim.url, '--no-catalog', '--output-file', freshPath('real-sim.jsonl')]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^Accuracy: meaningless/m);
      assert.match(result.stdout, /^Output throughput: \d+\.\d{3} token\/s$/m);
    } finally {
      sim.child.kill('SIGTERM');
    }
  });
});

describe('eval with bad input', () => {
  /** One stderr line naming the problem, the exit status, nothing on stdout, no stack trace. */
  async function assertOneLine(args: string[], code: number, message: RegExp): Promise<string> {
    const result = await runCli(['eval', ...args, '--no-catalog', '--output-file', freshPath('unused.jsonl'), '--port', '9']);
    assert.equal(result.code, code, result.stderr);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr.trimEnd().split('\n').length, 1, result.stderr);
    assert.doesNotMatch(result.stderr, /\n\s+at /);
    assert.match(result.stderr, message);
    return result.stderr;
  }

  test('a missing file says what --data-path must be', async () => {
    await assertOneLine(['gsm8k', '--data-path', join(workDir, 'absent.jsonl')], 1, /^servebench eval: error: \S+absent\.jsonl: no such file; --data-path must be a GSM8K JSONL file/);
    await assertOneLine(['gpqa', '--data-path', workDir], 1, /: a folder, not a file; --data-path must be a GPQA CSV file/);
  });

  test('a malformed file names the line and what was expected', async () => {
    const bad = writeFile('bad.jsonl', '{"question": "q", "answer": "#### 1"}\n{"question": "q2", "answer": "no number"}\n');
    await assertOneLine(['gsm8k', '--data-path', bad], 1, /bad\.jsonl:2: expected a JSON object with string "question" and "answer", the answer ending in "#### N", got/);
    await assertOneLine(['gpqa', '--data-path', writeFile('bad.csv', 'Question,Answer\nq,a\n')], 1, /bad\.csv: expected CSV with a header naming the columns .*; no column 'Correct Answer'/);
  });

  test('an MMLU path that is no data folder says which layout is expected', async () => {
    await assertOneLine(['mmlu', '--data-path', gsm8kFile()], 1, /: a file, not a folder; --data-path must be an MMLU data folder holding dev\/<subject>_dev\.csv and test\/<subject>_test\.csv/);
    const empty = freshPath('empty-mmlu');
    mkdirSync(empty);
    await assertOneLine(['mmlu', '--data-path', empty], 1, /empty-mmlu: no test\/ folder/);
  });

  test('a backend without stop strings, no --data-path, or a header without separator is a usage error (exit 2)', async () => {
    await assertOneLine(['gsm8k', '--data-path', gsm8kFile(), '--backend', 'trt'], 2, /eval cannot score answers over --backend trt/);
    await assertOneLine(['gsm8k'], 2, /the following arguments are required: --data-path/);
    const typo = await assertOneLine(['gsm8k', '--data-path', gsm8kFile(), '--header', 'Authorization Bearer sk-typo'], 2, /argument --header: entry without ':' or '='/);
    assert.doesNotMatch(typo, /sk-typo/);
  });
});
