import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BackendName } from './types.js';
import { bracketHost, canonicalBackend, resolvePort, resolveUrls } from './urls.js';

const at = (backend: BackendName, overrides: { baseUrl?: string | null; host?: string; port?: number | null } = {}) => ({
  backend, baseUrl: null, host: '127.0.0.1', port: null, ...overrides,
});

describe('ports', () => {
  test('per-backend defaults; chat variants and the rest use 30000', () => {
    const expected: Array<[BackendName, number]> = [
      ['sglang', 30000], ['sglang-native', 30000], ['sglang-oai', 30000], ['sglang-oai-chat', 30000],
      ['lmdeploy', 23333], ['lmdeploy-chat', 30000], ['vllm', 8000], ['vllm-chat', 30000], ['trt', 8000],
      ['gserver', 9988], ['truss', 8080], ['openai', 8000], ['openai-chat', 30000],
    ];
    for (const [backend, port] of expected) assert.equal(resolvePort({ backend, port: null }), port, backend);
  });
  test('an explicit port wins', () => assert.equal(resolvePort({ backend: 'vllm', port: 1234 }), 1234));
  test('aliases', () => {
    assert.equal(canonicalBackend('openai'), 'vllm');
    assert.equal(canonicalBackend('openai-chat'), 'vllm-chat');
    assert.equal(canonicalBackend('sglang'), 'sglang');
  });
});

describe('resolveUrls', () => {
  test('generation paths per backend', () => {
    assert.equal(resolveUrls(at('sglang')).apiUrl, 'http://127.0.0.1:30000/generate');
    assert.equal(resolveUrls(at('sglang-oai')).apiUrl, 'http://127.0.0.1:30000/v1/completions');
    assert.equal(resolveUrls(at('vllm-chat')).apiUrl, 'http://127.0.0.1:30000/v1/chat/completions');
    assert.equal(resolveUrls(at('openai')).apiUrl, 'http://127.0.0.1:8000/v1/completions');
    assert.equal(resolveUrls(at('trt')).apiUrl, 'http://127.0.0.1:8000/v2/models/ensemble/generate_stream');
    assert.equal(resolveUrls(at('truss')).apiUrl, 'http://127.0.0.1:8080/v1/models/model:predict');
    assert.equal(resolveUrls(at('gserver')).apiUrl, '127.0.0.1:9988');
  });
  test('--base-url replaces scheme, host and port verbatim (no slash normalisation)', () => {
    const urls = resolveUrls(at('sglang', { baseUrl: 'http://x/' }));
    assert.deepEqual(urls, { apiUrl: 'http://x//generate', modelUrl: 'http://x//v1/models', baseUrl: 'http://x/' });
    assert.equal(resolveUrls(at('gserver', { baseUrl: 'grpc://g:1' })).apiUrl, 'grpc://g:1');
  });
  test('an empty --base-url falls back for requests but stays the auxiliary base', () => {
    const urls = resolveUrls(at('sglang', { baseUrl: '' }));
    assert.equal(urls.apiUrl, 'http://127.0.0.1:30000/generate');
    assert.equal(urls.baseUrl, '');
  });
  test('model and auxiliary URLs', () => {
    assert.deepEqual(resolveUrls(at('vllm', { port: 9000 })), {
      apiUrl: 'http://127.0.0.1:9000/v1/completions', modelUrl: 'http://127.0.0.1:9000/v1/models', baseUrl: 'http://127.0.0.1:9000',
    });
  });
  test('IPv6 hosts are bracketed', () => {
    assert.equal(bracketHost('::1'), '[::1]');
    assert.equal(bracketHost('[::1]'), '[::1]');
    assert.equal(resolveUrls(at('sglang', { host: '::1' })).apiUrl, 'http://[::1]:30000/generate');
  });
});
