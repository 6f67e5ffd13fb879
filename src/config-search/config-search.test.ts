import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConfigCandidate } from './config-space.js';
import { createLocalEvaluator, searchConfigurations, type EvaluationContext } from './config-search.js';
import { formatRankingTable, formatSkipped, formatTopLaunches } from './config-report.js';
import { parseSlo } from '../sweep/slo.js';
import type { PointMeasurement } from '../sweep/sweep.js';

function candidate(label: string): ConfigCandidate {
  return { label, mode: 'pd-mixed', instances: [{ role: 'mixed', replicas: 1, devices: 8, flags: [] }] };
}

/** A synthetic candidate: `speed` scales throughput, `slope` how fast TPOT grows with concurrency. */
function measureWith(speed: number, slope: number) {
  return async (load: number): Promise<PointMeasurement> => {
    const tpot = 0.005 + slope * load;
    const outputs = [{
      generatedText: '', success: true, ttft: 0.1, latency: 0.1 + tpot * 99, itl: [], textChunks: [], promptLen: 1,
      error: '', outputLen: 100, startTime: 0, queueTime: 0, failureCause: null,
    }];
    return { metrics: { output_throughput: speed * Math.min(load, 256) / (0.1 + tpot * 99) }, outputs, durationSeconds: 1, runId: null };
  };
}

/** A search over `candidates` evaluated in-process with the given context parts. */
function search(
  candidates: ConfigCandidate[],
  context: Omit<EvaluationContext, 'candidates'>,
  passes: { tolerance: number; coarseTolerance: number; refine: number },
  onCandidate?: (outcome: { candidate: ConfigCandidate }) => void,
) {
  return searchConfigurations({
    candidates,
    evaluator: createLocalEvaluator({ candidates, ...context }),
    parallelism: 2,
    ...passes,
    ...(onCandidate ? { onCandidate } : {}),
  });
}

describe('searchConfigurations', () => {
  const candidates = [candidate('slow'), candidate('fast'), candidate('too big'), candidate('hopeless')];
  const behaviour: Record<string, [number, number]> = { slow: [100, 0.0002], fast: [100, 0.0001], hopeless: [100, 1] };

  test('ranks by tokens/s per card at the SLO knee, refining the best; infeasible and SLO-missing candidates go last', async () => {
    const seen: string[] = [];
    let predictions = 0;
    const counted = (measure: ReturnType<typeof measureWith>) => (load: number) => {
      predictions += 1;
      return measure(load);
    };
    const ranked = await search(
      candidates,
      {
        cards: 8,
        slo: parseSlo('tpot=20ms'),
        maxConcurrency: 1024,
        infeasibility: (c) => (c.label === 'too big' ? 'does not fit' : null),
        measureFor: (c) => counted(measureWith(...(behaviour[c.label] as [number, number]))),
      },
      { tolerance: 0, coarseTolerance: 0.25, refine: 1 },
      (outcome) => seen.push(outcome.candidate.label),
    );
    assert.deepEqual([...seen].sort(), ['fast', 'hopeless', 'slow', 'too big']);
    assert.deepEqual(ranked.map((o) => o.candidate.label), ['fast', 'slow', 'hopeless', 'too big']);
    assert.equal(ranked[0]?.chosen?.load, 150); // 5 ms + 0.1 ms × 150 = 20 ms
    // Only the best candidate is refined; the runner-up keeps its coarse knee (within 25% below 75).
    const coarse = ranked[1]?.chosen?.load ?? 0;
    assert.ok(coarse <= 75 && coarse >= 75 / 1.25, `coarse knee ${coarse}`);
    assert.ok((ranked[0]?.perCard ?? 0) > (ranked[1]?.perCard ?? 0));
    assert.equal(ranked[2]?.chosen, null);
    assert.equal(ranked[3]?.skipped, 'does not fit');
    assert.equal(ranked[3]?.runs, 0);
    // The refinement reuses the coarse pass: every prediction is made once and counted once.
    assert.equal(ranked.reduce((n, o) => n + o.runs, 0), predictions);
  });

  test('without an SLO each candidate is judged at its throughput peak', async () => {
    const ranked = await search(
      [candidate('slow'), candidate('fast')],
      { cards: 8, slo: null, maxConcurrency: 4096, infeasibility: () => null, measureFor: (c) => measureWith(...(behaviour[c.label] as [number, number])) },
      { tolerance: 0, coarseTolerance: 0, refine: 0 },
    );
    assert.equal(ranked[0]?.candidate.label, 'fast');
    assert.equal(ranked[0]?.chosen?.load, 256);
  });
});

describe('configuration report', () => {
  test('ranking table and launch commands of the best candidates', async () => {
    const pd: ConfigCandidate = {
      label: '2x(P TP2) + 1x(D TP4)', mode: 'pd-separated',
      instances: [
        { role: 'prefill', replicas: 2, devices: 2, flags: ['--tp', '2', '--disaggregation-mode', 'prefill'] },
        { role: 'decode', replicas: 1, devices: 4, flags: ['--tp', '4', '--disaggregation-mode', 'decode'] },
      ],
    };
    const mixed: ConfigCandidate = { label: 'TP8', mode: 'pd-mixed', instances: [{ role: 'mixed', replicas: 1, devices: 8, flags: ['--tp', '8'] }] };
    const ranked = await search(
      [mixed, pd, candidate('too big')],
      {
        cards: 8, slo: parseSlo('tpot=20ms'), maxConcurrency: 512,
        infeasibility: (c) => (c.label === 'too big' ? 'needs 90 GB per device' : null),
        measureFor: (c) => measureWith(c === pd ? 120 : 100, 0.0001),
      },
      { tolerance: 0, coarseTolerance: 0.25, refine: 2 },
    );
    const table = formatRankingTable(ranked, null).split('\n');
    assert.match(table[0] as string, /^#  configuration +mode +concurrency +out tok\/s +tok\/s\/card +mean TTFT ms +mean TPOT ms +runs +note$/);
    assert.match(table[1] as string, /^1  2x\(P TP2\) \+ 1x\(D TP4\) +pd-separated +150 /);
    assert.equal(table.length, 3, 'the skipped candidate has no rank');
    assert.deepEqual(formatSkipped(ranked), ['Skipped 1 configuration that cannot run here (not predicted, not ranked):', '  too big: needs 90 GB per device']);

    const launches = formatTopLaunches(ranked, { modelPath: 'Qwen/Qwen3-32B', devicesPerNode: 16, top: 2, expectedError: null });
    assert.equal(launches[0], `#1 2x(P TP2) + 1x(D TP4): ${ranked[0]?.perCard.toFixed(1)} output tok/s per card at concurrency 150`);
    assert.equal(launches[1], '  python -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp 2 --disaggregation-mode prefill  # x2 prefill instances');
    assert.equal(launches[2], '  python -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp 4 --disaggregation-mode decode --max-running-requests 150');
    assert.match(launches[3] as string, /^  python -m sglang_router\.launch_router --pd-disaggregation --prefill http:\/\/prefill-1:30000 --prefill http:\/\/prefill-2:30000 --decode http:\/\/decode-1:30000$/);
    assert.equal(launches[4], `#2 TP8: ${ranked[1]?.perCard.toFixed(1)} output tok/s per card at concurrency 150`);
    assert.equal(launches.length, 6);
  });
});
