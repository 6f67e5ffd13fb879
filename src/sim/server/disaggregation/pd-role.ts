/**
 * What an instance launched with `--disaggregation-mode` runs beside its API server: a prefill
 * instance its bootstrap server and rooms, a decode instance its KV receiver.
 */
import { UserError } from '../../../core/errors.js';
import type { LaunchConfig } from '../../../deployment/index.js';
import { kvSendSide, type KvSendSide } from '../../model/kv-transfer.js';
import type { ResolvedInstance } from '../../model/resolve-instance.js';
import { startBootstrapServer } from './bootstrap-server.js';
import { KvReceiver } from './kv-receiver.js';
import { pdSettings, type PdSettings } from './pd-settings.js';
import { PrefillRooms } from './prefill-rooms.js';

export type PdRole =
  | { mode: 'prefill'; rooms: PrefillRooms; send: KvSendSide; settings: PdSettings; bootstrapPort: number }
  | { mode: 'decode'; receiver: KvReceiver };

export interface PdInstance {
  role: PdRole | null;
  close(): Promise<void>;
}

/** Starts the instance's PD side (port 0: the bootstrap server takes a free port); null role without `--disaggregation-mode`. */
export async function startPdRole(launch: LaunchConfig, deployment: ResolvedInstance | null, truthMode: boolean): Promise<PdInstance> {
  if (launch.disaggregationMode === 'null') return { role: null, close: async () => undefined };
  // Truth mode's schedule is a whole request's: it has no prefill or decode apart.
  if (truthMode || deployment === null) {
    throw new UserError(`--disaggregation-mode ${launch.disaggregationMode} needs the performance model: drop the --truth-* flags`);
  }
  const settings = pdSettings();
  if (launch.disaggregationMode === 'decode') {
    const receiver = new KvReceiver(settings, launch.disaggregationBootstrapPort, deployment);
    return { role: { mode: 'decode', receiver }, close: async () => receiver.close() };
  }
  const rooms = new PrefillRooms();
  const layout = {
    attnTpSize: deployment.attentionTp,
    dpSize: launch.dpSize,
    pageSize: deployment.pageSize,
    kvCacheDtype: launch.kvCacheDtype ?? 'auto',
  };
  const server = await startBootstrapServer(rooms, layout, launch.host, launch.disaggregationBootstrapPort);
  return {
    role: { mode: 'prefill', rooms, send: kvSendSide(deployment), settings, bootstrapPort: server.port },
    close: () => server.close(),
  };
}
