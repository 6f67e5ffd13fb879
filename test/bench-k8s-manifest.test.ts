/**
 * `bench --k8s-manifest`: the manifest of a sharded run, against a golden file and the Kubernetes
 * API schemas; then its pods played on this host (the ConfigMap's run file, the ranks an Indexed
 * Job gives through JOB_COMPLETION_INDEX) against a loopback server.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Job } from 'kubernetes-models/batch/v1';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';
import { listeningPort, startBench } from './helpers/bench-ranks.js';
import { REPO_ROOT, runCli } from './helpers/cli.js';
import { lastRecord } from './helpers/jsonl-record.js';
import { startStreamServer } from './helpers/stream-server.js';

const workDir = mkdtempSync(join(tmpdir(), 'servebench-k8s-'));
const GOLDEN = join(REPO_ROOT, 'test/fixtures/k8s-manifest/run1.yaml');
const BENCH = ['--backend', 'vllm', '--base-url', 'http://vllm.inference.svc:8000', '--model', 'Qwen/Qwen2.5-0.5B-Instruct', '--dataset-name', 'random', '--random-input-len', '3500', '--random-output-len', '1500', '--num-prompts', '3328', '--max-concurrency', '832'];

after(() => rmSync(workDir, { recursive: true, force: true }));

function objectsOf(text: string): Array<Record<string, unknown>> {
  return parseAllDocuments(text).map((document) => document.toJS() as Record<string, unknown>).filter((object) => object !== null);
}

describe('bench --k8s-manifest', () => {
  test('writes the golden manifest: an Indexed Job of K + 1 pods, a headless Service, the run in a ConfigMap', async () => {
    const file = join(workDir, 'run1.yaml');
    const result = await runCli(['bench', ...BENCH, '--shards', '4', '--k8s-manifest', file, '--image', 'registry.example.com/servebench:0.1.0', '--k8s-name', 'run1']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '', 'nothing runs, nothing is printed as a result');
    assert.match(result.stderr, /wrote .*run1\.yaml: a Job of 5 pods \(a coordinator and 4 shards\).*kubectl apply -f/);
    const written = readFileSync(file, 'utf8');
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, written);
    assert.equal(written, readFileSync(GOLDEN, 'utf8'));
  });

  test('every object passes the Kubernetes API schema and says what the run needs', () => {
    const [configMap, service, job] = objectsOf(readFileSync(GOLDEN, 'utf8'));
    new ConfigMap(configMap as ConstructorParameters<typeof ConfigMap>[0]).validate();
    new Service(service as ConstructorParameters<typeof Service>[0]).validate();
    new Job(job as ConstructorParameters<typeof Job>[0]).validate();
    const spec = (job as { spec: Record<string, unknown> }).spec;
    assert.equal(spec.completionMode, 'Indexed');
    assert.equal(spec.completions, 5);
    assert.equal(spec.parallelism, 5);
    assert.equal(spec.backoffLimit, 0);
    assert.equal((service as { spec: { clusterIP: string } }).spec.clusterIP, 'None');
    const argv = (JSON.parse((configMap as { data: Record<string, string> }).data['run.json']!) as { argv: string[] }).argv;
    assert.deepEqual(argv.slice(argv.indexOf('--shards'), argv.indexOf('--shards') + 4), ['--shards', '4', '--coordinator', 'run1-0.run1:29400']);
    assert.ok(!argv.includes('--image') && !argv.includes('--k8s-manifest'));
  });

  test('a schema-breaking name or a secret in the flags is refused in one line, writing nothing', async () => {
    const bad = await runCli(['bench', ...BENCH, '--shards', '2', '--k8s-manifest', join(workDir, 'bad.yaml'), '--k8s-image', 'img', '--k8s-name', 'Run_1']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--k8s-name 'Run_1' is not a DNS label/);
    const secret = await runCli(['bench', ...BENCH, '--header', 'Authorization=Bearer sk-123', '--shards', '2', '--k8s-manifest', join(workDir, 'secret.yaml'), '--k8s-image', 'img']);
    assert.equal(secret.code, 2);
    assert.match(secret.stderr, /would store a secret from the bench flags in its ConfigMap/);
    assert.doesNotMatch(secret.stderr, /sk-123/);
    const noImage = await runCli(['bench', ...BENCH, '--shards', '2', '--k8s-manifest', join(workDir, 'x.yaml')]);
    assert.equal(noImage.code, 2);
    assert.match(noImage.stderr, /--k8s-manifest needs --image IMAGE/);
  });

  test("the pods' run played here: the ConfigMap's run file, ranks from JOB_COMPLETION_INDEX", async () => {
    const server = await startStreamServer({ firstTokenDelayMs: 2, intervalMs: 2 });
    try {
      const manifest = join(workDir, 'local.yaml');
      const written = await runCli(['bench', '--backend', 'sglang', '--base-url', server.url, '--model', 'Qwen/Qwen2.5-0.5B-Instruct', '--dataset-name', 'random', '--random-input-len', '16', '--random-output-len', '4', '--num-prompts', '12', '--warmup-requests', '0', '--disable-tqdm', '--shards', '2', '--k8s-manifest', manifest, '--k8s-image', 'img']);
      assert.equal(written.code, 0, written.stderr);
      const configMap = objectsOf(readFileSync(manifest, 'utf8'))[0] as { data: Record<string, string> };
      const { argv } = JSON.parse(configMap.data['run.json']!) as { argv: string[] };
      // The cluster's names and paths become this host's: the coordinator's port, the results' folder, a short linger.
      const local = (port: number) =>
        argv.map((arg) => arg.replace('servebench-0.servebench:29400', `127.0.0.1:${port}`).replace('/results/', `${workDir}/`)).map((arg, i, all) => (all[i - 1] === '--linger' ? '0' : arg));
      const coordinatorFile = join(workDir, 'coordinator.json');
      writeFileSync(coordinatorFile, JSON.stringify({ argv: local(0) }));
      const coordinator = startBench(['--run-file', coordinatorFile], { JOB_COMPLETION_INDEX: '0' });
      const port = await listeningPort(coordinator);
      const ranks = [1, 2].map((rank) => {
        const shardFile = join(workDir, `shard-${rank}.json`);
        writeFileSync(shardFile, JSON.stringify({ argv: local(port) }));
        return startBench(['--run-file', shardFile], { JOB_COMPLETION_INDEX: String(rank) }).done;
      });
      const [ended, ...shardsEnded] = await Promise.all([coordinator.done, ...ranks]);
      assert.equal(ended!.code, 0, ended!.stderr);
      for (const shard of shardsEnded) assert.equal(shard.code, 0, shard.stderr);
      const record = lastRecord(join(workDir, 'servebench.jsonl'));
      assert.equal(record.completed, 12);
    } finally {
      await server.close();
    }
  });
});
