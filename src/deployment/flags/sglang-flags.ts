/**
 * SGLang's server flags (`python -m sglang.launch_server --help`, docs/advanced_features/server_arguments.md
 * and server_args.py), with how many values each takes. The sim accepts every one of them so a
 * published recipe pastes unchanged; those without an effect on the simulation are listed as ignored.
 */

/** How many command-line values a flag consumes: none (store_true), exactly one, or a list (nargs `+`/`*`). */
export type FlagArity = 'none' | 'one' | 'list';

const NO_VALUE = `
skip-tokenizer-init trust-remote-code is-embedding enable-multimodal grpc-mode skip-server-warmup
checkpoint-engine-wait-weights-before-ready enable-fp32-lm-head quantize-and-serve enable-quant-communications
enable-dynamic-chunking enable-priority-scheduling abort-on-priority-when-disabled
schedule-low-priority-values-first disable-hybrid-swa-memory enable-prefill-delayer
incremental-streaming-output constrained-json-disable-any-whitespace sleep-on-idle log-requests show-time-cost
enable-metrics enable-mfu-metrics enable-metrics-for-all-schedulers collect-tokens-histogram
enable-request-time-stats-logging enable-trace export-metrics-to-file enable-cache-report enable-lora
enable-lora-overlap-loading disable-flashinfer-autotune enable-multi-layer-eagle
enable-flashinfer-allreduce-fusion enable-aiter-allreduce-fusion enable-fused-grouped-gemm-combine enable-eplb
enable-expert-distribution-metrics enable-elastic-expert-backup enable-deepep-waterfill elastic-ep-rejoin
enable-hierarchical-cache enable-lmcache disable-radix-cache disable-cuda-graph disable-cuda-graph-padding
enable-profile-cuda-graph enable-cudagraph-gc enable-layerwise-nvtx-marker enable-nccl-nvls enable-symm-mem
disable-flashinfer-cutlass-moe-fp4-allgather enable-tokenizer-batch-encode disable-tokenizer-batch-decode
disable-outlines-disk-cache disable-custom-all-reduce enable-mscclpp enable-torch-symm-mem
disable-overlap-schedule enable-mixed-chunk enable-dp-attention enable-dp-lm-head enable-two-batch-overlap
enable-single-batch-overlap enable-torch-compile enable-torch-compile-debug-mode disable-piecewise-cuda-graph
enforce-piecewise-cuda-graph enable-piecewise-cuda-graph enable-nan-detection enable-p2p-check
triton-attention-reduce-in-fp32 delete-ckpt-after-loading enable-memory-saver enable-weights-cpu-backup
enable-draft-weights-cpu-backup allow-auto-truncate enable-custom-logit-processor flashinfer-mla-disable-ragged
disable-shared-experts-fusion disable-chunked-prefix-cache disable-fast-image-processor
keep-mm-feature-on-device enable-return-hidden-states enable-return-routed-experts
enable-deterministic-inference enable-attn-tp-input-scattered enable-dsa-prefill-context-parallel
enable-nsa-prefill-context-parallel enable-fused-qk-norm-rope enable-precise-embedding-interpolation
enable-dynamic-batch-tokenizer disaggregation-decode-enable-offload-kvcache encoder-only language-only
weight-loader-disable-mmap weight-loader-prefetch-checkpoints
remote-instance-weight-loader-start-seed-via-transfer-engine enable-pdmux enable-broadcast-mm-inputs-process
mm-enable-dp-encoder enable-mm-global-cache enable-prefix-mm-cache enable-ep-moe enable-deepep-moe
prefill-round-robin-balance enable-flashinfer-cutlass-moe enable-flashinfer-cutedsl-moe
enable-flashinfer-trtllm-moe enable-triton-kernel-moe enable-flashinfer-mxfp4-moe

# Flags of earlier SGLang releases that recipes still carry.
enable-double-sparsity stream-output enable-llama4-multimodal disable-jump-forward enable-flashinfer-mla
enable-flashmla
`;

const ONE_VALUE = `
model-path tokenizer-path tokenizer-mode tokenizer-worker-num load-format model-loader-extra-config
context-length revision model-impl host port fastapi-root-path warmups nccl-port dtype quantization
quantization-param-path kv-cache-dtype modelopt-quant modelopt-checkpoint-restore-path
modelopt-checkpoint-save-path modelopt-export-path rl-quant-profile mem-fraction-static max-running-requests
max-queued-requests max-total-tokens chunked-prefill-size prefill-max-requests max-prefill-tokens
schedule-policy priority-scheduling-preemption-threshold schedule-conservativeness page-size
swa-full-tokens-ratio radix-eviction-policy prefill-delayer-max-delay-passes
prefill-delayer-token-usage-low-watermark prefill-delayer-queue-min-ratio prefill-delayer-max-delay-ms device
tp-size pp-size attn-cp-size moe-dp-size pp-max-micro-batch-size pp-async-batch-depth stream-interval random-seed
constrained-json-whitespace-pattern watchdog-timeout soft-watchdog-timeout dist-timeout download-dir
model-checksum base-gpu-id gpu-id-step custom-sigquit-handler log-level log-level-http log-requests-level
log-requests-format crash-dump-folder tokenizer-metrics-custom-labels-header gc-warning-threshold-secs
decode-log-interval kv-events-config otlp-traces-endpoint export-metrics-to-file-dir api-key admin-api-key
served-model-name weight-version chat-template hf-chat-template-name completion-template file-storage-path
reasoning-parser tool-call-parser tool-server sampling-defaults dp-size
load-balance-method dist-init-addr nccl-init-addr nnodes node-rank json-model-override-args
preferred-sampling-params max-lora-rank max-loras-per-batch max-loaded-loras lora-eviction-policy
lora-backend max-lora-chunk-size lora-drain-wait-threshold attention-backend prefill-attention-backend
decode-attention-backend sampling-backend grammar-backend mm-attention-backend dsa-prefill-backend
dsa-decode-backend nsa-prefill-backend nsa-decode-backend nsa-prefill nsa-decode fp8-gemm-backend
fp4-gemm-backend speculative-algorithm speculative-draft-model-path
speculative-draft-model-revision speculative-draft-load-format speculative-num-steps speculative-eagle-topk
speculative-num-draft-tokens speculative-accept-threshold-single speculative-accept-threshold-acc
speculative-token-map speculative-attention-mode speculative-draft-attention-backend
speculative-moe-runner-backend speculative-moe-a2a-backend speculative-draft-model-quantization
speculative-ngram-min-bfs-breadth speculative-ngram-max-bfs-breadth speculative-ngram-match-type
speculative-ngram-max-trie-depth speculative-ngram-capacity ep-size
moe-a2a-backend moe-runner-backend flashinfer-mxfp4-moe-precision deepep-mode deepep-dispatcher-output-dtype
ep-num-redundant-experts ep-dispatch-algorithm init-expert-location eplb-algorithm
eplb-rebalance-num-iterations eplb-rebalance-layers-per-chunk eplb-min-rebalancing-utilization-threshold
expert-distribution-recorder-mode expert-distribution-recorder-buffer-size deepep-config moe-dense-tp-size
elastic-ep-backend mooncake-ib-device max-mamba-cache-size mamba-ssm-dtype mamba-full-memory-ratio
mamba-scheduler-strategy mamba-track-interval hicache-ratio hicache-size hicache-write-policy
hicache-io-backend hicache-mem-layout hicache-storage-backend hicache-storage-prefetch-policy
hicache-storage-backend-extra-config hierarchical-sparse-attention-extra-config kt-weight-path kt-method
kt-cpuinfer kt-threadpool-count kt-num-gpu-experts kt-max-deferred-experts-per-token dllm-algorithm
dllm-algorithm-config cpu-offload-gb offload-group-size offload-num-in-group offload-prefetch-step
offload-mode multi-item-scoring-delimiter cuda-graph-max-bs tbo-token-distribution-threshold
piecewise-cuda-graph-tokens piecewise-cuda-graph-compiler torch-compile-max-bs piecewise-cuda-graph-max-tokens
torchao-config triton-attention-num-kv-splits triton-attention-split-tile-size num-continuous-decode-steps
scheduler-recv-interval rl-on-policy-target dsa-prefill-cp-mode nsa-prefill-cp-mode
dynamic-batch-tokenizer-batch-size dynamic-batch-tokenizer-batch-timeout debug-tensor-dump-output-folder
debug-tensor-dump-layers debug-tensor-dump-input-file debug-tensor-dump-inject disaggregation-mode
disaggregation-transfer-backend disaggregation-bootstrap-port disaggregation-ib-device
num-reserved-decode-tokens disaggregation-decode-polling-interval encoder-transfer-backend encoder-urls
weight-loader-prefetch-num-threads remote-instance-weight-loader-seed-instance-ip
remote-instance-weight-loader-seed-instance-service-port remote-instance-weight-loader-send-weights-group-ports
remote-instance-weight-loader-backend pdmux-config-path sm-group-num config mm-max-concurrent-calls
mm-per-request-timeout mm-process-config limit-mm-data-per-request decrypted-config-file
decrypted-draft-config-file forward-hooks msprobe-dump-config crash-on-nan hybrid-kvcache-ratio
load-watch-interval

# Flags of earlier SGLang releases that recipes still carry.
ds-channel-config-path ds-heavy-channel-num ds-heavy-token-num ds-heavy-channel-type ds-sparse-decode-threshold
`;

const LIST_VALUE = `
prefill-delayer-forward-passes-buckets prefill-delayer-wait-seconds-buckets log-requests-target
uvicorn-access-log-exclude-prefixes tokenizer-metrics-allowed-custom-labels bucket-time-to-first-token
bucket-inter-token-latency bucket-e2e-request-latency prompt-tokens-buckets generation-tokens-buckets
lora-target-modules lora-paths cuda-graph-bs numa-node custom-weight-loader
`;

/** The names of a block, one or more per line; lines starting with `#` are comments. */
function toSet(block: string): Set<string> {
  const lines = block.split('\n').filter((line) => !line.trimStart().startsWith('#'));
  return new Set(lines.join(' ').split(/\s+/).filter((name) => name.length > 0));
}

const lists = toSet(LIST_VALUE);
const ones = toSet(ONE_VALUE);
const nones = toSet(NO_VALUE);

/**
 * The spellings SGLang's parser accepts for one flag (server_args.py's option strings, and the short
 * forms recipes write), servebench's name for it first. The blocks above list only that first name.
 */
const ALIAS_GROUPS: readonly (readonly [string, ...string[]])[] = [
  ['model-path', 'model'],
  ['tp-size', 'tp', 'tensor-parallel-size'],
  ['dp-size', 'dp', 'data-parallel-size'],
  ['ep-size', 'ep', 'expert-parallel-size'],
  ['pp-size', 'pp', 'pipeline-parallel-size'],
  ['attn-cp-size', 'attention-context-parallel-size'],
  ['moe-dp-size', 'moe-data-parallel-size'],
  ['speculative-draft-model-path', 'speculative-draft-model'],
];

const GROUP_OF = new Map<string, readonly [string, ...string[]]>(ALIAS_GROUPS.flatMap((group) => group.map((name): [string, readonly [string, ...string[]]] => [name, group])));

/** Every spelling of a flag, its first (servebench's) name first; a flag without aliases alone. */
export function flagSpellings(name: string): readonly [string, ...string[]] {
  return GROUP_OF.get(name) ?? [name];
}

/** servebench's name for a flag written in any of SGLang's spellings (the name itself when it has no aliases). */
export function primaryFlagName(name: string): string {
  return flagSpellings(name)[0];
}

/** Every SGLang server flag name (without the leading `--`), aliases included, mapped to its arity. */
export const SGLANG_SERVER_FLAGS: ReadonlyMap<string, FlagArity> = new Map<string, FlagArity>(
  [
    ...[...nones].map((name): [string, FlagArity] => [name, 'none']),
    ...[...ones].map((name): [string, FlagArity] => [name, 'one']),
    ...[...lists].map((name): [string, FlagArity] => [name, 'list']),
  ].flatMap(([name, arity]) => flagSpellings(name).map((spelling): [string, FlagArity] => [spelling, arity])),
);
