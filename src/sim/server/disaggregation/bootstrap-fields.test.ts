import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HttpError } from '../../../core/http-error.js';
import { bootstrapAddress, bootstrapTargets, parseRooms } from './bootstrap-fields.js';
import { rawTopLevelValues } from './raw-json-fields.js';

const targets = (text: string, count = 1) => bootstrapTargets(JSON.parse(text), text, count);

test('top-level values are read as written, past strings and nested values that look alike', () => {
  const text = '{"text":"\\"bootstrap_room\\": 1 {[","nested":{"bootstrap_room":2},"list":[{"a":"]"}], "bootstrap_room" : 9223372036854775807 }';
  assert.deepEqual([...rawTopLevelValues(text, ['bootstrap_room', 'nested'])], [['nested', '{"bootstrap_room":2}'], ['bootstrap_room', '9223372036854775807']]);
});

test('rooms above 2^53 stay exact; a list keeps one room per prompt', () => {
  assert.deepEqual(targets('{"bootstrap_host":"10.0.0.1","bootstrap_port":8998,"bootstrap_room":9223372036854775807}'), [
    { host: '10.0.0.1', port: 8998, room: '9223372036854775807' },
  ]);
  assert.deepEqual(
    targets('{"bootstrap_host":["a","b"],"bootstrap_port":[8998,null],"bootstrap_room":[9007199254740993,9007199254740995]}', 2),
    [
      { host: 'a', port: 8998, room: '9007199254740993' },
      { host: 'b', port: null, room: '9007199254740995' },
    ],
  );
});

test("a scalar room of a batch stands for room + i, as SGLang's io_struct expands it", () => {
  assert.deepEqual(targets('{"bootstrap_host":"h","bootstrap_room":9007199254740993}', 3)!.map((t) => t.room), ['9007199254740993', '9007199254740994', '9007199254740995']);
});

test('no room: not a router request; bad rooms, hosts, ports and list lengths are 400s naming the field', () => {
  assert.equal(targets('{"text":"hi"}'), null);
  assert.equal(targets('{"bootstrap_room":null}'), null);
  for (const [text, field] of [
    ['{"bootstrap_host":"h","bootstrap_room":9223372036854775808}', 'bootstrap_room'],
    ['{"bootstrap_host":"h","bootstrap_room":-1}', 'bootstrap_room'],
    ['{"bootstrap_host":"h","bootstrap_room":1.5}', 'bootstrap_room'],
    ['{"bootstrap_room":1}', 'bootstrap_host'],
    ['{"bootstrap_host":"h","bootstrap_port":"8998","bootstrap_room":1}', 'bootstrap_port'],
    ['{"bootstrap_host":"h","bootstrap_room":[1,2]}', 'bootstrap_room'],
  ] as const) {
    assert.throws(() => targets(text), (error: unknown) => error instanceof HttpError && error.status === 400 && error.message.includes(field), text);
  }
});

test("a null bootstrap port is the decode's own", () => {
  assert.equal(bootstrapAddress({ host: '[::1]', port: null, room: '1' }, 9000), '[::1]:9000');
  assert.equal(bootstrapAddress({ host: 'h', port: 8998, room: '1' }, 9000), 'h:8998');
  assert.deepEqual(parseRooms('[ ]'), []);
});
