/**
 * Typed reads of a Hugging Face config.json: each complaint is one UserError line naming the file,
 * the field (with its nesting) and the fix. Shared by the language-model reader (hf-config.ts) and
 * the vision-tower reader (hf-vision.ts).
 */
import { UserError } from '../../core/errors.js';

export type ConfigObject = Record<string, unknown>;

export const FIX = 'pass a Hugging Face config.json of a decoder-only model, or --sim-model NAME';
export const UNSUPPORTED_FIX = 'pass --sim-model NAME to simulate a catalogued model instead';

export function isObject(value: unknown): value is ConfigObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Typed reads of one config object; every complaint names the file and the field (with its nesting). */
export class ConfigReader {
  constructor(
    private readonly config: ConfigObject,
    private readonly file: string,
    private readonly prefix = '',
  ) {}

  fail(problem: string, fix = FIX): never {
    throw new UserError(`${this.file}: ${problem}; ${fix}`);
  }

  field(name: string): string {
    return `'${this.prefix}${name}'`;
  }

  has(name: string): boolean {
    return this.config[name] !== undefined && this.config[name] !== null;
  }

  /** A whole number ≥ `min`; `fallback` when absent or null, else missing ⇒ UserError. */
  int(name: string, fallback?: number, min = 1): number {
    if (!this.has(name)) {
      if (fallback !== undefined) return fallback;
      this.fail(`${this.field(name)} is missing`);
    }
    const value = this.config[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      this.fail(`${this.field(name)} must be a whole number ≥ ${min}, not ${JSON.stringify(value)}`);
    }
    return value;
  }

  /** A number > 0 (a ratio); `fallback` when absent or null, else missing ⇒ UserError. */
  positive(name: string, fallback?: number): number {
    if (!this.has(name)) {
      if (fallback !== undefined) return fallback;
      this.fail(`${this.field(name)} is missing`);
    }
    const value = this.config[name];
    if (typeof value !== 'number' || !(value > 0)) this.fail(`${this.field(name)} must be a number > 0, not ${JSON.stringify(value)}`);
    return value;
  }

  bool(name: string, fallback: boolean): boolean {
    if (!this.has(name)) return fallback;
    const value = this.config[name];
    if (typeof value !== 'boolean') this.fail(`${this.field(name)} must be true or false, not ${JSON.stringify(value)}`);
    return value;
  }

  text(name: string): string | undefined {
    if (!this.has(name)) return undefined;
    const value = this.config[name];
    if (typeof value !== 'string') this.fail(`${this.field(name)} must be a string, not ${JSON.stringify(value)}`);
    return value;
  }

  list(name: string): unknown[] | undefined {
    if (!this.has(name)) return undefined;
    const value = this.config[name];
    if (!Array.isArray(value)) this.fail(`${this.field(name)} must be a list, not ${JSON.stringify(value)}`);
    return value;
  }

  /** A nested object as its own reader, or undefined when absent. */
  nested(name: string): ConfigReader | undefined {
    if (!this.has(name)) return undefined;
    const value = this.config[name];
    if (!isObject(value)) this.fail(`${this.field(name)} must be an object, not ${JSON.stringify(value)}`);
    return new ConfigReader(value, this.file, `${this.prefix}${name}.`);
  }

  keys(): string[] {
    return Object.keys(this.config);
  }

  /** How many entries of the list `name` equal `entry`, or undefined when the list is absent. */
  countIn(name: string, entry: unknown): number | undefined {
    return this.list(name)?.filter((item) => item === entry).length;
  }
}
