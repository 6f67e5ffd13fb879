/** Worker-thread entry of `startSimThread`: serves until the parent posts 'close'. */
import { parentPort, workerData } from 'node:worker_threads';
import { UsageError, UserError, describeError } from '../../core/errors.js';
import { startSimServer } from './sim-server.js';
import type { SimThreadData, SimThreadMessage } from './sim-thread.js';

const { argv, options } = workerData as SimThreadData;
const port = parentPort!;
const post = (message: SimThreadMessage): void => port.postMessage(message);

try {
  const server = await startSimServer(argv, options);
  port.on('message', (message) => {
    if (message === 'lateness') post({ kind: 'lateness', summary: server.writeLateness() });
    if (typeof message === 'object' && message !== null && message.kind === 'time-scale') {
      server.setTimeScale(message.timeScale);
      post({ kind: 'time-scale-set' });
    }
    if (message !== 'close') return;
    void server.close().then(() => {
      post({ kind: 'closed' });
      port.close();
    });
  });
  post({ kind: 'listening', url: server.url, port: server.port, bootstrapPort: server.bootstrapPort, launch: server.launch, loopThreadId: server.loopThreadId });
} catch (error) {
  const exitCode = error instanceof UsageError || error instanceof UserError ? error.exitCode : 1;
  post({ kind: 'failed', message: describeError(error), exitCode });
  port.close();
}
