import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UserError } from '../../../core/errors.js';
import { pdSettings } from './pd-settings.js';

test("SGLang's defaults, its environment variables, and its 2 s floor on the heartbeat", () => {
  assert.deepEqual(pdSettings({}), {
    bootstrapTimeoutSec: 300,
    waitingTimeoutSec: 300,
    heartbeatIntervalSec: 5,
    heartbeatMaxFailures: 2,
    handshakeTries: 15,
    handshakeRetrySec: 1,
    handshakeRequestSec: 5,
  });
  const set = pdSettings({
    SGLANG_DISAGGREGATION_BOOTSTRAP_TIMEOUT: '3',
    SGLANG_DISAGGREGATION_WAITING_TIMEOUT: '4.5',
    SGLANG_DISAGGREGATION_HEARTBEAT_INTERVAL: '0.5',
    SERVEBENCH_SIM_BOOTSTRAP_RETRY_INTERVAL: '0.01',
  });
  assert.equal(set.bootstrapTimeoutSec, 3);
  assert.equal(set.waitingTimeoutSec, 4.5);
  assert.equal(set.heartbeatIntervalSec, 2);
  assert.equal(set.handshakeRetrySec, 0.01);
  assert.throws(() => pdSettings({ SGLANG_DISAGGREGATION_WAITING_TIMEOUT: 'soon' }), UserError);
});
