import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { placeLabels } from './label-placement.js';

const area = { width: 600, height: 300 };

describe('placeLabels', () => {
  test('isolated points get their label on the right', () => {
    assert.deepEqual(placeLabels([{ x: 10, y: 10, label: 'aaaaaa' }, { x: 100, y: 100, label: 'bbbbbb' }], area), ['right', 'right']);
  });

  test('a neighbour close on the right pushes the label to another side', () => {
    const sides = placeLabels([{ x: 9.1, y: 12, label: 'ca726b' }, { x: 11, y: 5.4, label: '977744' }, { x: 106, y: 1200, label: 'x' }], area);
    assert.notEqual(sides[0], 'right');
    assert.equal(sides[1], 'right');
  });

  test('two points on the same spot get different sides', () => {
    const sides = placeLabels([{ x: 50, y: 50, label: 'a' }, { x: 50, y: 50, label: 'b' }, { x: 100, y: 100, label: 'c' }], area);
    assert.notEqual(sides[0], sides[1]);
  });
});
