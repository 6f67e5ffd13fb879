/**
 * Seed-exact reproductions of the two random streams bench_serving draws from (spec §4.8):
 * numpy's legacy `RandomState` and CPython's `random.Random`, both on MT19937.
 * Same seed ⇒ same lengths, schedules and shuffles as the Python tool.
 */
import { UsageError } from './errors.js';

const STATE_LEN = 624;
const MIDDLE = 397;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;
const MATRIX_A = 0x9908b0df;
const TWO_POW_32 = 4294967296;
const TWO_POW_53 = 9007199254740992;

/** The MT19937 core shared by both streams; only the seeding differs. */
class Mt19937 {
  private readonly state = new Uint32Array(STATE_LEN);
  private position = STATE_LEN;

  /** An independent generator at this one's position. */
  copy(): Mt19937 {
    const twin = new Mt19937();
    twin.state.set(this.state);
    twin.position = this.position;
    return twin;
  }

  /** Knuth's `init_genrand`, as numpy's `mt19937_seed`. */
  seedInt(seed: number): void {
    const mt = this.state;
    mt[0] = seed >>> 0;
    for (let i = 1; i < STATE_LEN; i++) {
      const prev = mt[i - 1]!;
      mt[i] = (Math.imul(1812433253, prev ^ (prev >>> 30)) + i) >>> 0;
    }
    this.position = STATE_LEN;
  }

  /** `init_by_array`, as CPython's `random.seed(int)`. */
  seedByArray(key: readonly number[]): void {
    const mt = this.state;
    this.seedInt(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(STATE_LEN, key.length); k > 0; k--) {
      const prev = mt[i - 1]!;
      mt[i] = ((mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= STATE_LEN) {
        mt[0] = mt[STATE_LEN - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = STATE_LEN - 1; k > 0; k--) {
      const prev = mt[i - 1]!;
      mt[i] = ((mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1566083941)) - i) >>> 0;
      i++;
      if (i >= STATE_LEN) {
        mt[0] = mt[STATE_LEN - 1]!;
        i = 1;
      }
    }
    mt[0] = UPPER_MASK;
    this.position = STATE_LEN;
  }

  private twist(): void {
    const mt = this.state;
    let kk = 0;
    for (; kk < STATE_LEN - MIDDLE; kk++) {
      const y = (mt[kk]! & UPPER_MASK) | (mt[kk + 1]! & LOWER_MASK);
      mt[kk] = mt[kk + MIDDLE]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    for (; kk < STATE_LEN - 1; kk++) {
      const y = (mt[kk]! & UPPER_MASK) | (mt[kk + 1]! & LOWER_MASK);
      mt[kk] = mt[kk + MIDDLE - STATE_LEN]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    const y = (mt[STATE_LEN - 1]! & UPPER_MASK) | (mt[0]! & LOWER_MASK);
    mt[STATE_LEN - 1] = mt[MIDDLE - 1]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    this.position = 0;
  }

  /** Next tempered 32-bit output. */
  nextU32(): number {
    if (this.position >= STATE_LEN) this.twist();
    let y = this.state[this.position++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** The 53-bit double in [0, 1) both libraries build from two outputs. */
  nextDouble(): number {
    const a = this.nextU32() >>> 5;
    const b = this.nextU32() >>> 6;
    return (a * 67108864 + b) / TWO_POW_53;
  }
}

/** Smallest all-ones mask ≥ `value` (value < 2^53). */
function maskFor(value: number): number {
  let mask = 1;
  while (mask < value) mask = mask * 2 + 1;
  return mask;
}

/**
 * numpy's legacy `RandomState` (what `numpy.random.seed(s)` and the module-level functions use).
 */
export class NumpyRandomState {
  private mt = new Mt19937();

  /** Seeds like `numpy.random.seed(seed)` with a 32-bit non-negative integer. */
  constructor(seed: number) {
    this.seed(seed);
  }

  /** An independent stream that draws what this one would draw next (to replay a run from here). */
  clone(): NumpyRandomState {
    const twin = new NumpyRandomState(0);
    twin.mt = this.mt.copy();
    return twin;
  }

  /** Re-seeds with `init_genrand(seed)`; numpy rejects seeds outside [0, 2^32). */
  seed(seed: number): void {
    if (!Number.isInteger(seed) || seed < 0 || seed >= TWO_POW_32) {
      throw new RangeError(`numpy seed must be an integer in [0, 2**32 - 1], got ${seed}`);
    }
    this.mt.seedInt(seed);
  }

  /** One integer uniform on [low, high) by numpy's masked rejection (int64 dtype, as `randint`). */
  randintOne(low: number, high: number): number {
    if (!(low < high)) throw new RangeError('low >= high');
    const range = high - 1 - low;
    if (range === 0) return low;
    if (range > Number.MAX_SAFE_INTEGER) throw new RangeError('randint range beyond 2**53 is not supported');
    if (range <= 0xffffffff) {
      if (range === 0xffffffff) return low + this.mt.nextU32();
      const mask = maskFor(range);
      let value: number;
      do value = (this.mt.nextU32() & mask) >>> 0;
      while (value > range);
      return low + value;
    }
    // 64-bit path: words are (u32 << 32) | u32, masked by a mask wider than 32 bits.
    const highMask = Math.floor(maskFor(range) / TWO_POW_32);
    let value: number;
    do {
      const hi = (this.mt.nextU32() & highMask) >>> 0;
      const lo = this.mt.nextU32();
      value = hi * TWO_POW_32 + lo;
    } while (value > range);
    return low + value;
  }

  /** `randint(low, high, size)`: `size` integers uniform on [low, high). */
  randint(low: number, high: number, size: number): number[] {
    if (!(low < high)) throw new RangeError('low >= high');
    const out = new Array<number>(size);
    for (let i = 0; i < size; i++) out[i] = this.randintOne(low, high);
    return out;
  }

  /** `random_sample()`: one double in [0, 1). */
  randomSample(): number {
    return this.mt.nextDouble();
  }

  /** `rand(n)`: `n` doubles in [0, 1), in draw order. */
  rand(n: number): Float64Array {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = this.mt.nextDouble();
    return out;
  }

  /** Legacy `exponential(scale)` = −scale·ln(1 − U). */
  exponential(scale: number): number {
    return scale * -Math.log(1 - this.mt.nextDouble());
  }

  /**
   * `choice(n, p=p)`: an index in [0, n) drawn with probabilities `p` — one double against the
   * cumulative sum normalised by its last element, first index whose cdf exceeds it.
   */
  choice(n: number, p: readonly number[]): number {
    if (p.length !== n) throw new RangeError('a and p must have same size');
    const cdf = new Array<number>(n);
    let sum = 0;
    for (let i = 0; i < n; i++) cdf[i] = sum += p[i]!;
    const total = cdf[n - 1]!;
    const u = this.mt.nextDouble();
    for (let i = 0; i < n; i++) if (cdf[i]! / total > u) return i;
    return n - 1;
  }
}

/** Number of bits needed to write `n` (Python's `int.bit_length`) for 0 ≤ n < 2^53. */
function bitLength(n: number): number {
  return n < TWO_POW_32 ? 32 - Math.clz32(n) : 32 + (32 - Math.clz32(Math.floor(n / TWO_POW_32)));
}

/** CPython's `random.Random` (Mersenne Twister), the stream behind module-level `random.*`. */
export class PythonRandom {
  private readonly mt = new Mt19937();

  /** Seeds like `random.seed(seed)` for an integer seed. */
  constructor(seed: number) {
    this.seed(seed);
  }

  /** `init_by_array` over the little-endian 32-bit words of |seed| ([0] for 0). */
  seed(seed: number): void {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`Python seed must be a safe integer, got ${seed}`);
    let rest = Math.abs(seed);
    const key: number[] = [];
    while (rest > 0) {
      key.push(rest % TWO_POW_32);
      rest = Math.floor(rest / TWO_POW_32);
    }
    this.mt.seedByArray(key.length > 0 ? key : [0]);
  }

  /** `random()`: a double in [0, 1). */
  random(): number {
    return this.mt.nextDouble();
  }

  /** `getrandbits(k)` for 0 ≤ k ≤ 53 (low word drawn first, as CPython fills little-endian). */
  getrandbits(k: number): number {
    if (k <= 0) return 0;
    if (k <= 32) return this.mt.nextU32() >>> (32 - k);
    if (k > 53) throw new RangeError('getrandbits above 53 bits is not supported');
    const low = this.mt.nextU32();
    const high = this.mt.nextU32() >>> (64 - k);
    return high * TWO_POW_32 + low;
  }

  /** `_randbelow(n)`: uniform on [0, n) by rejection on `bit_length(n)` bits. */
  randbelow(n: number): number {
    if (!(n >= 1)) throw new RangeError('randbelow needs n >= 1');
    const k = bitLength(n);
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /** `shuffle(x)` in place: for i from n−1 down to 1, swap x[i] with x[randbelow(i+1)]. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      const held = items[i]!;
      items[i] = items[j]!;
      items[j] = held;
    }
    return items;
  }

  /** `choice(seq)`. */
  choice<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Cannot choose from an empty sequence');
    return items[this.randbelow(items.length)]!;
  }

  /** Unweighted `choices(population, k=k)`: `population[floor(random()·n)]`, k times. */
  choices<T>(population: readonly T[], k: number): T[] {
    const n = population.length;
    const out = new Array<T>(k);
    for (let i = 0; i < k; i++) out[i] = population[Math.floor(this.mt.nextDouble() * n)]!;
    return out;
  }

  /** `sample(population, k)` with CPython's pool / selected-set switch. */
  sample<T>(population: readonly T[], k: number): T[] {
    const n = population.length;
    if (k < 0 || k > n) throw new RangeError('Sample larger than population or is negative');
    let setSize = 21;
    if (k > 5) setSize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
    const result = new Array<T>(k);
    if (n <= setSize) {
      const pool = population.slice();
      for (let i = 0; i < k; i++) {
        const j = this.randbelow(n - i);
        result[i] = pool[j]!;
        pool[j] = pool[n - i - 1]!;
      }
    } else {
      const selected = new Set<number>();
      for (let i = 0; i < k; i++) {
        let j = this.randbelow(n);
        while (selected.has(j)) j = this.randbelow(n);
        selected.add(j);
        result[i] = population[j]!;
      }
    }
    return result;
  }
}

/** The pair of streams one bench run draws from, seeded in bench_serving's order. */
export interface BenchRngs {
  numpy: NumpyRandomState;
  python: PythonRandom;
}

/**
 * `random.seed(seed)` then `numpy.random.seed(seed)` (spec §1.3 step 4). The runner keeps drawing
 * Poisson intervals and LoRA picks from these after the dataset is built.
 */
export function createBenchRngs(seed: number): BenchRngs {
  if (!Number.isInteger(seed) || seed < 0 || seed >= TWO_POW_32) {
    throw new UsageError(`--seed must be an integer between 0 and 4294967295 (numpy's limit), got ${seed}`);
  }
  const python = new PythonRandom(seed);
  const numpy = new NumpyRandomState(seed);
  return { numpy, python };
}
