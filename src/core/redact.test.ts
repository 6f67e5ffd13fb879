import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REDACTED, isSecretName, redactArgv, redactHeader, redactSetting, redactText, redactValue } from './redact.js';

/** Every secret below contains this, so one check proves none came through. */
const SECRET = 'sk-LEAK';

test('the marker is the one bench prints in its Namespace line and the catalog stores', () => {
  assert.equal(REDACTED, '<redacted>');
});

test('header values and API keys are hidden, other args kept', () => {
  const out = redactValue({
    header: ['Authorization=Bearer sk-1', 'X-Trace=abc'],
    api_key: 'sk-2',
    tokenizer: 'Qwen/Qwen3',
    extensions: { OPENAI_API_KEY: 'sk-3', labels: { cards: '8' } },
  });
  assert.deepEqual(out, {
    header: [`Authorization=${REDACTED}`, `X-Trace=${REDACTED}`],
    api_key: REDACTED,
    tokenizer: 'Qwen/Qwen3',
    extensions: { OPENAI_API_KEY: REDACTED, labels: { cards: '8' } },
  });
  assert.equal(JSON.stringify(out).includes('sk-'), false);
});

test('a header entry keeps its name in either form; without a separator or a header name it is hidden whole', () => {
  assert.deepEqual(redactValue({ header: ['Authorization: Bearer sk-1', 'X-Trace=abc'] }), { header: [`Authorization: ${REDACTED}`, `X-Trace=${REDACTED}`] });
  assert.equal(redactHeader('X-Api-Key=abc'), `X-Api-Key=${REDACTED}`);
  assert.equal(redactHeader('X-Sig: part=rest'), `X-Sig: ${REDACTED}`);
  assert.equal(redactHeader('sk-secret token: x'), REDACTED);
  assert.equal(redactHeader('sk-secret'), REDACTED);
});

test('tokenizer-like names are not secrets', () => {
  assert.equal(isSecretName('tokenize_prompt'), false);
  assert.equal(isSecretName('max_total_tokens'), false);
  assert.equal(isSecretName('tokenizer'), false);
  assert.equal(isSecretName('--admin-api-key'), true);
  assert.equal(isSecretName('token'), true);
  assert.equal(isSecretName('--key'), true);
});

test('a secret under a secret name is hidden; whether it was set is kept', () => {
  assert.equal(redactSetting('HF_TOKEN', 'hf_abc'), REDACTED);
  assert.equal(redactSetting('--api-key', 12345), REDACTED);
  assert.equal(redactSetting('--api-key', true), true);
  assert.equal(redactSetting('api_key', null), null);
  assert.equal(redactSetting('--tp', '8'), '8');
});

test('URL credentials are hidden, the rest of the URL and of the text kept byte for byte', () => {
  assert.equal(redactText('http://127.0.0.1:30000'), 'http://127.0.0.1:30000');
  assert.equal(redactText('https://user:pw@host:8443/v1?x=1'), `https://user:${REDACTED}@host:8443/v1?x=1`);
  assert.equal(redactText('https://ghp_token@host/path'), `https://${REDACTED}@host/path`);
  assert.equal(
    redactText('GET https://host/v1/models?api_key=k1&model=m&access_token=k2#top failed'),
    `GET https://host/v1/models?api_key=${REDACTED}&model=m&access_token=${REDACTED}#top failed`,
  );
  assert.equal(redactText('no url here: user:pw@host'), 'no url here: user:pw@host');
});

test('a command line held as one string hides secret flag values, the rest kept byte for byte', () => {
  assert.equal(redactText('--model-path  Qwen/Qwen3-8B --tp 8'), '--model-path  Qwen/Qwen3-8B --tp 8');
  assert.equal(
    redactText(`--model-path x --api-key ${SECRET} --admin-api-key="${SECRET} 2" --tp 8`),
    `--model-path x --api-key ${REDACTED} --admin-api-key=${REDACTED} --tp 8`,
  );
  assert.equal(redactText('--api-key --tp 8'), '--api-key --tp 8', 'a flag is never taken for the value');
});

test('a launch command line hides secret flag values in both spellings and URL passwords', () => {
  const argv = ['--model-path', 'x', '--api-key', SECRET, `--admin-api-key=${SECRET}`, '--base-url', `http://u:${SECRET}@h`, '--tp', '8'];
  assert.deepEqual(redactArgv(argv), [
    '--model-path', 'x', '--api-key', REDACTED, `--admin-api-key=${REDACTED}`, '--base-url', `http://u:${REDACTED}@h`, '--tp', '8',
  ]);
  const expand = (written: string): string => (written === 'api-k' ? 'api-key' : written);
  assert.deepEqual(redactArgv(['--api-k', SECRET], expand), ['--api-k', REDACTED]);
});

test('every form of secret goes through the one redactor and none comes out', () => {
  const given = {
    api_key: SECRET,
    header: [`Authorization=Bearer ${SECRET}`, `X-Api-Key=${SECRET}`, `Bearer ${SECRET}`],
    headers: { Authorization: `Bearer ${SECRET}` },
    base_url: `https://admin:${SECRET}@gpu-box:30000`,
    dataset_path: `https://hub.example/data.json?token=${SECRET}`,
    note: `Bearer ${SECRET}`,
    env: { OPENAI_API_KEY: SECRET, HF_TOKEN: SECRET, DB_PASSWORD: SECRET },
    argv: redactArgv(['--api-key', SECRET, `--admin-api-key=${SECRET}`]),
    extensions: { sim: `--model-path x --api-key ${SECRET}` },
    nested: [{ auth_token: SECRET, credentials: { user: 'me', secret: SECRET } }],
  };
  const shown = JSON.stringify(redactValue(given));
  assert.equal(shown.includes(SECRET), false, shown);
  assert.ok(shown.includes('gpu-box:30000') && shown.includes('hub.example/data.json'), 'non-secret parts of URLs are kept');
});
