import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../../core/errors.js';
import { getHardware } from './catalog.js';
import { hardwareSpecFieldsHelp, parseHardwareSpec } from './hardware-spec.js';

const MINIMAL = { name: 'Acme X1', family: 'nvidia', bf16Tflops: 500, hbmGB: 96, hbmTBs: 4, scaleUpGBs: 400 };

const parse = (spec: unknown): ReturnType<typeof parseHardwareSpec> => parseHardwareSpec(JSON.stringify(spec), 'hw.json');

/** Asserts that the spec is refused with exactly `message` (one line, file and field named). */
function refuses(spec: unknown, message: string | RegExp, text = JSON.stringify(spec)): void {
  assert.throws(
    () => parseHardwareSpec(text, 'hw.json'),
    (error: unknown) => {
      assert.ok(error instanceof UsageError, String(error));
      assert.ok(!error.message.includes('\n'), `one line: ${error.message}`);
      if (typeof message === 'string') assert.equal(error.message, message);
      else assert.match(error.message, message);
      return true;
    },
  );
}

describe('parseHardwareSpec', () => {
  test('the required fields make a profile; the rest take their defaults', () => {
    const h100 = getHardware('h100');
    assert.deepEqual(parse(MINIMAL), {
      key: 'acme-x1', name: 'Acme X1', aliases: [], family: 'nvidia', arch: h100.arch,
      devicesPerNode: 8, devicesPerCard: 1, unit: 'GPU',
      bf16Tflops: 500, fp8Tflops: 0, int8Tops: 1000, fp4Tflops: 0,
      hbmGB: 96, hbmTBs: 4, scaleUpGBs: 400, interNodeGBs: 50,
      allReduceUs: h100.allReduceUs, allToAllUs: h100.allToAllUs, kernelFloorUs: h100.kernelFloorUs,
      source: 'described by hw.json',
    });
  });

  test("arch and latencies default to the family's reference device", () => {
    const amd = parse({ ...MINIMAL, family: 'amd' });
    const mi300x = getHardware('mi300x');
    assert.deepEqual([amd.arch, amd.allReduceUs, amd.kernelFloorUs], [mi300x.arch, mi300x.allReduceUs, mi300x.kernelFloorUs]);
    assert.equal(parse({ ...MINIMAL, family: 'ascend' }).arch, getHardware('ascend-910b').arch);
    assert.deepEqual([amd.unit, parse({ ...MINIMAL, family: 'ascend' }).unit, parse({ ...MINIMAL, unit: 'chip' }).unit], ['GPU', 'NPU', 'chip']);
  });

  test('the help states the defaults the parser applies (one table for both)', () => {
    const help = hardwareSpecFieldsHelp();
    assert.match(help, /^Required: name, family \(nvidia, amd, ascend\), bf16Tflops, hbmGB, hbmTBs, scaleUpGBs \(GB\/s per device, one direction\)\. Optional: /);
    const minimal = parse(MINIMAL) as unknown as Record<string, unknown>;
    const stated = [...help.matchAll(/(\w+) \((\d+)\)/g)];
    assert.deepEqual(stated.map(([, field]) => field), ['fp8Tflops', 'fp4Tflops', 'devicesPerNode', 'devicesPerCard', 'interNodeGBs']);
    for (const [, field, value] of stated) assert.equal(minimal[field!], Number(value), field);
    assert.match(help, /int8Tops \(2 x bf16Tflops\)/);
    assert.equal(minimal.int8Tops, 2 * MINIMAL.bf16Tflops);
    assert.match(help, /arch, unit, allReduceUs, allToAllUs, kernelFloorUs \(those five: the family's reference device, one of h100, mi300x, ascend-910b\), aliases, source\.$/);
  });

  test('a catalog entry copied into a file reads back as the same device', () => {
    const { key: _catalogKey, ...entry } = getHardware('ascend-910c');
    assert.deepEqual(parseHardwareSpec(JSON.stringify({ $comment: 'copied', ...entry }), 'a3.json'), { ...entry, key: 'huawei-ascend-910c-one-of-two-dies-atlas-800i-a3' });
  });

  test('every given field is kept', () => {
    const full = parse({
      ...MINIMAL, arch: 'hopper', devicesPerNode: 16, devicesPerCard: 2, fp8Tflops: 1000, int8Tops: 900, fp4Tflops: 0,
      interNodeGBs: 100, allReduceUs: 9, allToAllUs: 18, kernelFloorUs: 0, aliases: ['x1'], source: 'vendor sheet',
    });
    assert.deepEqual(
      [full.arch, full.devicesPerNode, full.devicesPerCard, full.fp8Tflops, full.int8Tops, full.interNodeGBs, full.allReduceUs, full.allToAllUs, full.kernelFloorUs, full.aliases, full.source],
      ['hopper', 16, 2, 1000, 900, 100, 9, 18, 0, ['x1'], 'vendor sheet'],
    );
  });

  test('a field of the wrong kind names the file, the field, what it must be and what it got', () => {
    refuses({ ...MINIMAL, hbmTBs: 'fast' }, `hw.json: 'hbmTBs' must be a positive number of TB/s, got "fast"`);
    refuses({ ...MINIMAL, hbmGB: -80 }, `hw.json: 'hbmGB' must be a positive number of GB, got -80`);
    refuses({ ...MINIMAL, bf16Tflops: 0 }, `hw.json: 'bf16Tflops' must be a positive number of TFLOPS (dense), got 0`);
    refuses({ ...MINIMAL, fp8Tflops: -1 }, `hw.json: 'fp8Tflops' must be a number of TFLOPS (dense) ≥ 0 (0: no FP8 units), got -1`);
    refuses({ ...MINIMAL, devicesPerNode: 7.5 }, `hw.json: 'devicesPerNode' must be a positive whole number, got 7.5`);
    refuses({ ...MINIMAL, scaleUpGBs: null }, `hw.json: 'scaleUpGBs' must be a positive number of GB/s (per device, one direction), got null`);
    refuses({ ...MINIMAL, allReduceUs: '12' }, `hw.json: 'allReduceUs' must be a number of microseconds ≥ 0, got "12"`);
    refuses({ ...MINIMAL, family: 'intel' }, `hw.json: 'family' must be one of nvidia, amd, ascend, got "intel"`);
    refuses({ ...MINIMAL, name: '  ' }, `hw.json: 'name' must be a non-empty string, got "  "`);
    refuses({ ...MINIMAL, arch: 7 }, `hw.json: 'arch' must be a non-empty string, got 7`);
    refuses({ ...MINIMAL, aliases: 'x1' }, `hw.json: 'aliases' must be a list of names, got "x1"`);
  });

  test('a missing required field says what it must hold', () => {
    const { hbmTBs: _, ...withoutBandwidth } = MINIMAL;
    refuses(withoutBandwidth, `hw.json: 'hbmTBs' is required (a positive number of TB/s)`);
    const { family: __, ...withoutFamily } = MINIMAL;
    refuses(withoutFamily, `hw.json: 'family' is required (one of nvidia, amd, ascend)`);
  });

  test('unknown fields are named (typos do not pass silently)', () => {
    refuses({ ...MINIMAL, hbmTB: 4, scaleupGBs: 1 }, /^hw\.json: unknown fields 'hbmTB', 'scaleupGBs': the fields are name, family, .*hbmTBs/);
    refuses({ ...MINIMAL, extends: 'h100' }, /^hw\.json: unknown field 'extends'/);
  });

  test('text that is not one JSON object is one line', () => {
    refuses(null, /^hw\.json: not valid JSON \(.+\): write one object with the fields of a hardware\.json entry$/, '{"name": "x",\n  oops\n}');
    refuses([MINIMAL], /^hw\.json: must hold one JSON object with the fields of a hardware\.json entry, got \[/);
  });
});
