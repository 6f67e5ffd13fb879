import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { closeIfStillSending } from './http-io.js';

/** A request stand-in: its events, whether its body was read to the end, and whether its socket was closed. */
function request(complete: boolean): { req: IncomingMessage; closed: () => boolean } {
  let closed = false;
  const req = Object.assign(new EventEmitter(), { complete, socket: { destroy: () => void (closed = true) } });
  return { req: req as unknown as IncomingMessage, closed: () => closed };
}

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test('a refused body still arriving after the drain limit loses its connection', async () => {
  const { req, closed } = request(false);
  closeIfStillSending(req, 20);
  await settle(60);
  assert.equal(closed(), true);
});

test('a refused body that ends in time, or had ended, keeps its connection', async () => {
  const ending = request(false);
  closeIfStillSending(ending.req, 20);
  ending.req.emit('end');
  const ended = request(true);
  closeIfStillSending(ended.req, 20);
  await settle(60);
  assert.equal(ending.closed(), false);
  assert.equal(ended.closed(), false);
});
