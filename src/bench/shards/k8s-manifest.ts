/**
 * The Kubernetes manifest of a sharded run (`--k8s-manifest`), built from the API's typed objects
 * and checked against its schemas before it is written: an Indexed Job of K + 1 pods (index 0 the
 * coordinator, 1..K the shards; JOB_COMPLETION_INDEX gives each its rank), `backoffLimit: 0` so a
 * failed pod is never retried into replaying its slice, pods spread over nodes; a headless Service
 * that gives the coordinator's pod its DNS name; a ConfigMap holding the run's bench flags, which
 * every pod reads. The coordinator keeps the JSONL file in its pod for `kubectl cp` while it lingers.
 */
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { stringify } from 'yaml';
import { UsageError } from '../../core/errors.js';
import { isSecretName, redactArgv } from '../../core/redact.js';

export interface ManifestOptions {
  /** The objects' name: a DNS label. */
  name: string;
  image: string;
  shards: number;
  /** The bench flags of the run, without the launcher's own (`--shards`, `--k8s-*`, a rank, `--coordinator`). */
  benchArgv: readonly string[];
  /** Whether the flags name an output file and a linger already (else the manifest adds them). */
  hasOutputFile: boolean;
  hasLinger: boolean;
  /** The servebench version that wrote it, in its labels. */
  version: string;
}

const COORDINATOR_POD = 'batch.kubernetes.io/job-name';

/** The port the coordinator listens on in the pod. */
export const COORDINATOR_PORT = 29400;
/** Where the ConfigMap is mounted and the run's file is. */
const RUN_DIR = '/etc/servebench';
const RUN_FILE = 'run.json';
const RESULTS_DIR = '/results';
/** How long the coordinator's pod stays for `kubectl cp` unless the flags say (s). */
const DEFAULT_LINGER_S = 3600;

/** A DNS label short enough that `<name>-<index>` stays one (63 characters). */
const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const MAX_NAME_LENGTH = 52;

/** The coordinator's address inside the cluster: pod `<name>-0` under the headless Service `<name>`. */
export function coordinatorAddress(name: string): string {
  return `${name}-0.${name}:${COORDINATOR_PORT}`;
}

/** The argv every pod runs (from the ConfigMap), ranks aside: the flags, the shard count, the coordinator, where results go. */
export function podBenchArgv(options: ManifestOptions): string[] {
  const { name } = options;
  return [
    ...options.benchArgv,
    '--shards',
    String(options.shards),
    '--coordinator',
    coordinatorAddress(name),
    ...(options.hasOutputFile ? [] : ['--output-file', `${RESULTS_DIR}/${name}.jsonl`]),
    ...(options.hasLinger ? [] : ['--linger', String(DEFAULT_LINGER_S)]),
    // The pod's catalog would vanish with it: the JSONL file is fetched and ingested instead.
    '--no-catalog',
  ];
}

function checkOptions(options: ManifestOptions): void {
  if (!NAME.test(options.name) || options.name.length > MAX_NAME_LENGTH) {
    throw new UsageError(`--k8s-name '${options.name}' is not a DNS label of at most ${MAX_NAME_LENGTH} characters (lower-case letters, digits and '-'): choose e.g. servebench-run1`);
  }
  if (options.image.trim() === '' || /\s/.test(options.image)) throw new UsageError(`--image '${options.image}' is not an image reference: give e.g. registry.example.com/servebench:0.1.0`);
  const argv = options.benchArgv;
  const secretHeader = argv.some((arg, i) => argv[i - 1] === '--header' && isSecretName(arg.split(/[:=]/)[0]!.trim()));
  if (secretHeader || redactArgv(argv).some((arg, i) => arg !== argv[i])) {
    throw new UsageError('the manifest would store a secret from the bench flags in its ConfigMap: leave keys out of the flags and give them to the pods from a Secret (e.g. OPENAI_API_KEY in the container env)');
  }
}

/** The three objects, validated against the Kubernetes API schemas (a schema error is a bug here, thrown as is). */
export function shardedRunObjects(options: ManifestOptions): [ConfigMap, Service, Job] {
  checkOptions(options);
  const { name, shards } = options;
  const labels = { 'app.kubernetes.io/name': 'servebench', 'app.kubernetes.io/instance': name, 'app.kubernetes.io/version': options.version };
  // The Job controller labels its pods with their Job's name; the Service and the spread select on it.
  const podSelector = { 'batch.kubernetes.io/job-name': name };
  const configMap = new ConfigMap({
    metadata: { name: `${name}-run`, labels },
    data: { [RUN_FILE]: `${JSON.stringify({ argv: podBenchArgv(options) }, null, 2)}\n` },
  });
  const service = new Service({
    metadata: { name, labels },
    spec: {
      clusterIP: 'None',
      // The shards reach the coordinator while it is starting, before any readiness.
      publishNotReadyAddresses: true,
      selector: podSelector,
      ports: [{ name: 'coordinator', port: COORDINATOR_PORT, targetPort: COORDINATOR_PORT, protocol: 'TCP' }],
    },
  });
  const job = new Job({
    metadata: { name, labels },
    spec: {
      completionMode: 'Indexed',
      completions: shards + 1,
      parallelism: shards + 1,
      backoffLimit: 0,
      template: {
        metadata: { labels },
        spec: {
          subdomain: name,
          restartPolicy: 'Never',
          topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: podSelector } }],
          containers: [
            {
              name: 'servebench',
              image: options.image,
              command: ['servebench'],
              args: ['bench', '--run-file', `${RUN_DIR}/${RUN_FILE}`],
              ports: [{ name: 'coordinator', containerPort: COORDINATOR_PORT }],
              volumeMounts: [
                { name: 'run', mountPath: RUN_DIR, readOnly: true },
                { name: 'results', mountPath: RESULTS_DIR },
              ],
            },
          ],
          volumes: [
            { name: 'run', configMap: { name: `${name}-run` } },
            { name: 'results', emptyDir: {} },
          ],
        },
      },
    },
  });
  for (const object of [configMap, service, job]) object.validate();
  return [configMap, service, job];
}

/** The manifest as one YAML stream, with the two commands that run it and read its result. */
export function shardedRunManifest(options: ManifestOptions): string {
  const objects = shardedRunObjects(options);
  const header = [
    `# servebench: one bench run sent from ${options.shards} shards and merged by a coordinator (index 0).`,
    `#   kubectl apply -f <this file>`,
    `#   kubectl logs -f -l ${COORDINATOR_POD}=${options.name},batch.kubernetes.io/job-completion-index=0   # the coordinator: the result block`,
    `#   kubectl cp $(kubectl get pod -l ${COORDINATOR_POD}=${options.name},batch.kubernetes.io/job-completion-index=0 -o name | cut -d/ -f2):${RESULTS_DIR} ./results`,
  ];
  return `${header.join('\n')}\n${objects.map((object) => `---\n${stringify(object.toJSON())}`).join('')}`;
}
