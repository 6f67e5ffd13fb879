import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { batchOutputs } from './batch-answer.js';
import { DONE_EVENT } from './wire-format.js';

/** Answers one request through `answer`, and returns the body a client read. */
async function served(answer: (res: ServerResponse) => void): Promise<string> {
  const server = createServer((_req, res) => answer(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return await response.text();
  } finally {
    server.close();
  }
}

test('a streamed batch interleaves its prompts, each event with its index, and ends with one [DONE]', async () => {
  const text = await served((res) => {
    const [a, b] = batchOutputs(res, true, 2)!;
    if (!a!.stream || !b!.stream) throw new Error('streams expected');
    a!.write('data: {"text":"a1"}\n\n');
    b!.write('data: {"text":"b\\n}1"}\n\ndata: {"text":"b2"}\n\n');
    a!.end(`data: {"text":"a2"}\n\n${DONE_EVENT}`);
    b!.end(`data: {"text":"b3"}\n\n${DONE_EVENT}`);
  });
  assert.equal(
    text,
    'data: {"text":"a1","index":0}\n\ndata: {"text":"b\\n}1","index":1}\n\ndata: {"text":"b2","index":1}\n\n' +
      'data: {"text":"a2","index":0}\n\ndata: {"text":"b3","index":1}\n\ndata: [DONE]\n\n',
  );
});

test('a batch not streamed answers one JSON list in prompt order once every prompt finished', async () => {
  const text = await served((res) => {
    const outputs = batchOutputs(res, false, 2)!;
    outputs[1]!.end('{"text":"second"}');
    outputs[0]!.end('{"text":"first"}');
  });
  assert.deepEqual(JSON.parse(text), [{ text: 'first' }, { text: 'second' }]);
});
