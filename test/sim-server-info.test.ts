/**
 * The sim's auxiliary endpoints as SGLang answers them: /get_server_info reports the resolved value
 * of every setting the start-up banner prints (never null where SGLang's post-init ServerArgs has a
 * value), /v1/models and /v1/models/{name} return SGLang's model card, /health_generate its empty
 * 200 after a one-second poll.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeLaunch } from '../src/sim/flags/launch-summary.js';
import { parseLaunchArgs } from '../src/deployment/flags/launch-flags.js';
import { resolveInstance } from '../src/sim/model/resolve-instance.js';
import { startSimServer, type SimServerHandle } from '../src/sim/server/sim-server.js';
import { get } from './sim-server-helpers.js';

async function withSim(args: string[], use: (sim: SimServerHandle) => Promise<void>, dataset?: string): Promise<void> {
  const sim = await startSimServer(args, { port: 0, host: '127.0.0.1', quiet: true, dataset });
  try {
    await use(sim);
  } finally {
    await sim.close();
  }
}

/** The settings the banner prints a value for, by their /get_server_info name, with the banner's value. */
function bannerValues(args: string[], quantization: string | null): Record<string, unknown> {
  const { launch } = parseLaunchArgs(args);
  const d = resolveInstance(launch);
  const values: Record<string, unknown> = {
    max_running_requests: d.maxRunningPerRank * d.attentionDp,
    chunked_prefill_size: Number.isFinite(d.chunkedPrefillPerRank) ? d.chunkedPrefillPerRank * d.attentionDp : -1,
    context_length: d.contextLength,
    page_size: d.pageSize,
    cuda_graph_max_bs: d.cudaGraphMaxBs,
    max_total_num_tokens: d.kvCapacityPerRank * d.attentionDp * d.replicas,
    tp_size: d.tp,
    ep_size: d.ep,
    mem_fraction_static: d.memFractionStatic,
    dtype: 'auto',
    kv_cache_dtype: launch.kvCacheDtype ?? 'auto',
    max_prefill_tokens: launch.maxPrefillTokens ?? 16384,
    quantization,
  };
  if (d.speculative !== null) {
    Object.assign(values, { speculative_algorithm: d.speculative.algorithm, speculative_num_steps: d.speculative.steps, speculative_num_draft_tokens: d.speculative.draftTokens, speculative_eagle_topk: 1 });
  }
  // The banner does print each of these figures.
  const banner = describeLaunch(launch, d, null, d.contextLength).join('\n');
  assert.match(banner, new RegExp(`max running ${d.maxRunningPerRank} per rank.*page ${d.pageSize}.*CUDA graph ≤ ${d.cudaGraphMaxBs}`));
  return values;
}

describe('sim: SGLang face of the auxiliary endpoints', () => {
  // Each with the quantization its checkpoint has (the banner names the format).
  const launches: Array<[string[], string | null]> = [
    [['--model-path', 'Qwen/Qwen3-8B'], null],
    [['--model-path', 'openai/gpt-oss-120b', '--hardware', 'b200', '--kv-cache-dtype', 'fp8_e4m3'], 'mxfp4'],
    [['--model-path', 'deepseek-ai/DeepSeek-V3', '--hardware', 'h200', '--tp', '8', '--dp', '4', '--enable-dp-attention', '--ep', '8', '--speculative-algorithm', 'NEXTN'], 'fp8'],
  ];
  for (const [args, quantization] of launches) {
    test(`/get_server_info has no null where the banner prints a value: ${args[1]}`, async () => {
      await withSim(args, async (sim) => {
        const info = (await get(sim.url, '/get_server_info')).json as Record<string, unknown>;
        for (const [key, value] of Object.entries(bannerValues(args, quantization))) assert.deepEqual(info[key], value, key);
        const nulls = Object.entries(info).filter(([, value]) => value === null).map(([key]) => key);
        const sglangNone = ['revision', 'moe_dense_tp_size', 'max_total_tokens', 'reasoning_parser', 'tool_call_parser', 'quantization', 'speculative_algorithm', 'speculative_num_steps', 'speculative_eagle_topk', 'speculative_num_draft_tokens', 'disaggregation_ib_device'];
        assert.deepEqual(nulls.filter((key) => !sglangNone.includes(key)), []);
      });
    });
  }

  test('a BF16 checkpoint reports no quantization; --quantization is reported as given', async () => {
    await withSim(['--model-path', 'Qwen/Qwen3-8B', '--quantization', 'w8a8_int8'], async (sim) => {
      assert.equal((await get(sim.url, '/get_server_info')).json.quantization, 'w8a8_int8');
    });
    await withSim(['--model-path', 'Qwen/Qwen3-8B'], async (sim) => {
      assert.equal((await get(sim.url, '/get_server_info')).json.quantization, null);
    });
  });

  test("the run's dataset sets --sim-dataset unless the flags name one, in any spelling the parser takes", async () => {
    const dataset = async (args: string[], run?: string) => {
      let reported: unknown;
      await withSim(['--model-path', 'Qwen/Qwen3-8B', ...args], async (sim) => (reported = (await get(sim.url, '/get_server_info')).json.servebench.sim_dataset), run);
      return reported;
    };
    assert.equal(await dataset([], 'random'), 'random');
    assert.equal(await dataset(['--sim-data', 'sharegpt'], 'random'), 'sharegpt');
    assert.equal(await dataset([]), null);
  });

  test('the body holds SGLang\'s names; what the sim simulates, and its own settings, are under servebench', async () => {
    const args = ['--model-path', 'Qwen/Qwen3-8B', '--hardware', 'ascend-910c', '--tp', '4', '--trust-remote-code'];
    await withSim(args, async (sim) => {
      for (const path of ['/get_server_info', '/server_info']) {
        const info = (await get(sim.url, path)).json as Record<string, unknown>;
        for (const simOnly of ['hardware', 'hardware_profile', 'sim_model', 'sim_seed', 'sim_dataset', 'sim_realtime', 'ignored_flags', 'raw_args']) {
          assert.ok(!(simOnly in info), `${simOnly} is no SGLang server arg`);
        }
        assert.deepEqual([info.device, info.tp_size, info.quantization, info.disaggregation_mode], ['npu', 4, null, 'null']);
        assert.deepEqual(info.servebench, {
          hardware: { id: 'ascend-910c', name: 'Huawei Ascend 910C, one of two dies (Atlas 800I A3)', family: 'ascend', unit: 'die', devices_per_card: 2, devices_per_node: 16 },
          devices: 4,
          cards: 2,
          weight_format: 'bf16',
          raw_args: args,
          ignored_flags: ['--trust-remote-code'],
          sim_model: null,
          sim_seed: 0,
          sim_dataset: null,
          sim_realtime: false,
        });
      }
    });
    await withSim(['--model-path', 'Qwen/Qwen3-8B'], async (sim) => {
      const info = (await get(sim.url, '/get_server_info')).json;
      assert.equal(info.device, 'cuda');
      assert.equal(info.servebench.hardware.id, 'h100', "the sim's default device");
    });
  });

  test("/v1/models lists SGLang's model card; /v1/models/{name} retrieves it, or answers SGLang's 404", async () => {
    await withSim(['--model-path', 'Qwen/Qwen3-8B', '--served-model-name', 'my-qwen'], async (sim) => {
      const before = Math.floor(Date.now() / 1000);
      const list = (await get(sim.url, '/v1/models')).json;
      assert.equal(list.object, 'list');
      const { created, ...card } = list.data[0];
      assert.deepEqual(card, { id: 'my-qwen', object: 'model', owned_by: 'sglang', root: 'my-qwen', parent: null, max_model_len: 40960 });
      assert.ok(created >= before && created <= Math.ceil(Date.now() / 1000));
      assert.equal((await get(sim.url, '/v1/models/my-qwen')).json.id, 'my-qwen');
      const missing = await get(sim.url, '/v1/models/Qwen/Qwen3-8B');
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.json, {
        error: { message: "The model 'Qwen/Qwen3-8B' does not exist", type: 'invalid_request_error', param: 'model', code: 'model_not_found' },
      });
    });
  });

  test('/health_generate: an empty 200 at the first one-second poll after a one-token generation', async () => {
    await withSim(['--model-path', 'Qwen/Qwen2.5-0.5B-Instruct'], async (sim) => {
      const started = performance.now();
      const reply = await fetch(`${sim.url}/health_generate`);
      const waited = performance.now() - started;
      assert.equal(reply.status, 200);
      assert.equal(await reply.text(), '');
      assert.equal(reply.headers.get('content-type'), null);
      assert.ok(waited >= 990 && waited < 1800, `${waited} ms`);
      const health = await fetch(`${sim.url}/health`);
      assert.deepEqual([health.status, await health.text()], [200, '']);
    });
  });
});
