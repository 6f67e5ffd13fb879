/**
 * A device that is not in the hardware catalog, described by the user (`--hardware-spec FILE.json`)
 * with the fields of a hardware.json entry. Pure: the file's text in, a profile out, and a one-line
 * `UsageError` naming the file, the field and the fix for anything else.
 */
import { UsageError } from '../../core/errors.js';
import { getHardware, type HardwareFamily, type HardwareProfile } from './catalog.js';

const FAMILIES: readonly HardwareFamily[] = ['nvidia', 'amd', 'ascend'];

/**
 * The catalogued device whose kernel generation and latency factors a described device of the
 * family takes when the file leaves them out: the best-calibrated entry of each family.
 */
const FAMILY_REFERENCE: Record<HardwareFamily, string> = { nvidia: 'h100', amd: 'mi300x', ascend: 'ascend-910b' };

type NumberField = { [K in keyof HardwareProfile]: HardwareProfile[K] extends number ? K : never }[keyof HardwareProfile];

interface NumberRule {
  /** What the value must be, as the error states it: `a positive number of TB/s`. */
  expected: string;
  valid: (value: number) => boolean;
}

const positive = (unit: string): NumberRule => ({ expected: `a positive number of ${unit}`, valid: (v) => v > 0 });
const nonNegative = (unit: string, zero: string): NumberRule => ({ expected: `a number of ${unit} ≥ 0 (${zero})`, valid: (v) => v >= 0 });
const wholeCount: NumberRule = { expected: 'a positive whole number', valid: (v) => Number.isInteger(v) && v > 0 };
const latency: NumberRule = { expected: 'a number of microseconds ≥ 0', valid: (v) => v >= 0 };

const NUMBER_RULES: Record<NumberField, NumberRule> = {
  devicesPerNode: wholeCount,
  devicesPerCard: wholeCount,
  bf16Tflops: positive('TFLOPS (dense)'),
  fp8Tflops: nonNegative('TFLOPS (dense)', '0: no FP8 units'),
  int8Tops: positive('TOPS (dense)'),
  fp4Tflops: nonNegative('TFLOPS (dense)', '0: no FP4 units'),
  hbmGB: positive('GB'),
  hbmTBs: positive('TB/s'),
  scaleUpGBs: positive('GB/s (per device, one direction)'),
  interNodeGBs: positive('GB/s (per device)'),
  allReduceUs: latency,
  allToAllUs: latency,
  kernelFloorUs: latency,
};

const REQUIRED = ['name', 'family', 'bf16Tflops', 'hbmGB', 'hbmTBs', 'scaleUpGBs'] as const;
/** What the help says beside a required field, where its name alone does not tell. */
const REQUIRED_NOTES: Partial<Record<(typeof REQUIRED)[number], string>> = {
  family: FAMILIES.join(', '),
  scaleUpGBs: 'GB/s per device, one direction',
};
const TEXT_FIELDS = ['name', 'family', 'arch', 'unit', 'source'] as const;
const KNOWN_FIELDS = new Set<string>([...TEXT_FIELDS, 'aliases', ...Object.keys(NUMBER_RULES)]);

/** The value a number field the file leaves out takes: fixed, or from the file's bf16Tflops; `text` is how the help states it. */
interface NumberDefault {
  text: string;
  of: (bf16Tflops: number) => number;
}

const fixed = (value: number): NumberDefault => ({ text: String(value), of: () => value });

/** Number fields a file may leave out and what each then takes, in the order the help lists them. */
const NUMBER_DEFAULTS = {
  fp8Tflops: fixed(0),
  int8Tops: { text: '2 x bf16Tflops', of: (bf16Tflops) => 2 * bf16Tflops },
  fp4Tflops: fixed(0),
  devicesPerNode: fixed(8),
  devicesPerCard: fixed(1),
  interNodeGBs: fixed(50),
} as const satisfies Partial<Record<NumberField, NumberDefault>>;

/** Fields a file may leave out that take the value of the family's reference device (FAMILY_REFERENCE). */
const REFERENCE_FIELDS = ['arch', 'unit', 'allReduceUs', 'allToAllUs', 'kernelFloorUs'] as const;

const COUNT_WORDS = ['none', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];

/**
 * The fields of a spec file as `--hardware-spec`'s help lists them, with what an omitted field
 * takes, written from the tables `parseHardwareSpec` reads: `Required: name, family (nvidia, ...),
 * ... Optional: fp8Tflops (0), int8Tops (2 x bf16Tflops), ..., aliases, source.`
 */
export function hardwareSpecFieldsHelp(): string {
  const required = REQUIRED.map((field) => (REQUIRED_NOTES[field] === undefined ? field : `${field} (${REQUIRED_NOTES[field]})`));
  const defaults = Object.entries(NUMBER_DEFAULTS).map(([field, value]) => `${field} (${value.text})`);
  const references = `${REFERENCE_FIELDS.join(', ')} (those ${COUNT_WORDS[REFERENCE_FIELDS.length]}: the family's reference device, one of ${Object.values(FAMILY_REFERENCE).join(', ')})`;
  return `Required: ${required.join(', ')}. Optional: ${[...defaults, references].join(', ')}, aliases, source.`;
}

/** A value as the file wrote it, for error messages. */
function written(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** What a field must hold, for the message that says it is missing. */
function expectation(field: string): string {
  if (field === 'family') return `one of ${FAMILIES.join(', ')}`;
  if (field in NUMBER_RULES) return NUMBER_RULES[field as NumberField].expected;
  return 'a non-empty string';
}

/** `My Accelerator X1` → `my-accelerator-x1`: the key the device goes by in reports and labels. */
function keyOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/^-+|-+$/g, '') || 'custom';
}

/**
 * Validates the text of a hardware spec file and returns the profile it describes. `file` names the
 * file in messages. Omitted fields take the defaults of NUMBER_DEFAULTS, and REFERENCE_FIELDS
 * (arch, the device's unit and the latency factors) those of the family's reference device.
 */
export function parseHardwareSpec(text: string, file: string): HardwareProfile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    // Newer engines quote the offending text, newlines included: keep the message on one line.
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
    throw new UsageError(`${file}: not valid JSON (${reason}): write one object with the fields of a hardware.json entry`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new UsageError(`${file}: must hold one JSON object with the fields of a hardware.json entry, got ${written(data)}`);
  }
  const spec = data as Record<string, unknown>;
  // `$`-keys are comments, as in hardware.json.
  const unknown = Object.keys(spec).filter((field) => !field.startsWith('$') && !KNOWN_FIELDS.has(field));
  if (unknown.length > 0) {
    throw new UsageError(
      `${file}: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((f) => `'${f}'`).join(', ')}: the fields are ${[...KNOWN_FIELDS].join(', ')}`,
    );
  }
  for (const field of REQUIRED) {
    if (spec[field] === undefined) throw new UsageError(`${file}: '${field}' is required (${expectation(field)})`);
  }
  for (const field of TEXT_FIELDS) {
    const value = spec[field];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
      throw new UsageError(`${file}: '${field}' must be a non-empty string, got ${written(value)}`);
    }
  }
  const family = spec.family as string;
  if (!(FAMILIES as readonly string[]).includes(family)) {
    throw new UsageError(`${file}: 'family' must be one of ${FAMILIES.join(', ')}, got ${written(family)}`);
  }
  const aliases = spec.aliases;
  if (aliases !== undefined && !(Array.isArray(aliases) && aliases.every((alias) => typeof alias === 'string'))) {
    throw new UsageError(`${file}: 'aliases' must be a list of names, got ${written(aliases)}`);
  }
  for (const [field, rule] of Object.entries(NUMBER_RULES)) {
    const value = spec[field];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && rule.valid(value))) {
      throw new UsageError(`${file}: '${field}' must be ${rule.expected}, got ${written(value)}`);
    }
  }

  const reference = getHardware(FAMILY_REFERENCE[family as HardwareFamily]);
  const name = (spec.name as string).trim();
  const bf16Tflops = spec.bf16Tflops as number;
  const number = (field: keyof typeof NUMBER_DEFAULTS): number => (spec[field] as number | undefined) ?? NUMBER_DEFAULTS[field].of(bf16Tflops);
  const fromReference = <K extends (typeof REFERENCE_FIELDS)[number]>(field: K): HardwareProfile[K] =>
    (spec[field] as HardwareProfile[K] | undefined) ?? reference[field];
  return {
    key: keyOf(name),
    name,
    aliases: (aliases as string[] | undefined) ?? [],
    family: family as HardwareFamily,
    arch: fromReference('arch'),
    devicesPerNode: number('devicesPerNode'),
    devicesPerCard: number('devicesPerCard'),
    unit: fromReference('unit'),
    bf16Tflops,
    fp8Tflops: number('fp8Tflops'),
    int8Tops: number('int8Tops'),
    fp4Tflops: number('fp4Tflops'),
    hbmGB: spec.hbmGB as number,
    hbmTBs: spec.hbmTBs as number,
    scaleUpGBs: spec.scaleUpGBs as number,
    interNodeGBs: number('interNodeGBs'),
    allReduceUs: fromReference('allReduceUs'),
    allToAllUs: fromReference('allToAllUs'),
    kernelFloorUs: fromReference('kernelFloorUs'),
    source: (spec.source as string | undefined) ?? `described by ${file}`,
  };
}
