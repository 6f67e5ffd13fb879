/**
 * The Hugging Face settings a test's servebench runs under unless the test gives its own: the hub
 * never asked (HF_HUB_OFFLINE), and were it asked anyway, a loopback port nothing listens on instead
 * of huggingface.co; a home and cache that do not exist, so the developer's ~/.cache/huggingface
 * (and a token stored there) is never read. Tests of the hub set a mock hub's address and a
 * temporary cache over these.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ABSENT_HOME = join(tmpdir(), 'servebench-tests-no-hf-home');

export const ISOLATED_HUB_ENV: Readonly<Record<string, string>> = {
  HF_HUB_OFFLINE: '1',
  HF_ENDPOINT: 'http://127.0.0.1:9',
  HF_HOME: ABSENT_HOME,
  HF_HUB_CACHE: join(ABSENT_HOME, 'hub'),
  HF_TOKEN: '',
  HUGGING_FACE_HUB_TOKEN: '',
};
