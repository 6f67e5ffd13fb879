/**
 * Student's t distribution, as confidence intervals and Welch's test need it: the CDF through the
 * regularized incomplete beta function (a continued fraction, evaluated by the modified Lentz
 * method), and the quantile by inverting the CDF (Newton steps kept inside a bisection bracket).
 * Fractional degrees of freedom are allowed: Welch's test has them.
 */

/** Lanczos coefficients (g = 7, n = 9): log-gamma to about 15 digits for x > 0. */
const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0. */
export function logGamma(x: number): number {
  // Reflection keeps the series where it is accurate.
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let series = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) series += LANCZOS[i]! / (z + i);
  const t = z + LANCZOS_G + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(series);
}

const CONTINUED_FRACTION_EPSILON = 1e-15;
const CONTINUED_FRACTION_MAX_TERMS = 10_000;
/** Smallest denominator the Lentz method lets stand (a zero one would divide by zero). */
const TINY = 1e-300;

/** The continued fraction of I_x(a, b), accurate for x < (a + 1) / (a + b + 2). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let fraction = d;
  for (let m = 1; m <= CONTINUED_FRACTION_MAX_TERMS; m++) {
    const m2 = 2 * m;
    // Even step.
    let numerator = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + numerator * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + numerator / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    fraction *= d * c;
    // Odd step.
    numerator = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + numerator * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + numerator / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    fraction *= step;
    if (Math.abs(step - 1) < CONTINUED_FRACTION_EPSILON) return fraction;
  }
  return fraction;
}

/** The regularized incomplete beta function I_x(a, b), for 0 ≤ x ≤ 1 and a, b > 0. */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  const front = Math.exp(logFront);
  // The fraction converges fast on one side of the mean; the other side follows by symmetry.
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

/**
 * Beyond this many degrees of freedom the distribution is taken at this many: the log-gamma
 * difference in the beta function's front factor would lose digits, and the quantile there
 * differs from the normal's by less than 1e-6 anyway.
 */
const MAX_DEGREES_OF_FREEDOM = 1e7;

function effectiveDegrees(df: number): number {
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be > 0, got ${df}`);
  return Math.min(df, MAX_DEGREES_OF_FREEDOM);
}

/** P(T > t) for t ≥ 0: the upper tail, computed directly so that small tails keep their digits. */
function upperTail(t: number, df: number): number {
  return 0.5 * regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** The cumulative distribution function P(T ≤ t) with `df` degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  const nu = effectiveDegrees(df);
  if (Number.isNaN(t)) return NaN;
  const tail = upperTail(Math.abs(t), nu);
  return t >= 0 ? 1 - tail : tail;
}

/** The density at t with `nu` degrees of freedom. */
function density(t: number, nu: number): number {
  const logNorm = logGamma((nu + 1) / 2) - logGamma(nu / 2) - 0.5 * Math.log(nu * Math.PI);
  return Math.exp(logNorm - ((nu + 1) / 2) * Math.log1p((t * t) / nu));
}

const QUANTILE_TOLERANCE = 1e-13;
const QUANTILE_MAX_STEPS = 200;

/** The t ≥ 0 whose upper tail is `tail` (0 < tail ≤ 0.5). */
function upperQuantile(tail: number, nu: number): number {
  if (tail === 0.5) return 0;
  let low = 0;
  let high = 1;
  while (upperTail(high, nu) > tail) {
    low = high;
    high *= 2;
  }
  let t = (low + high) / 2;
  for (let step = 0; step < QUANTILE_MAX_STEPS; step++) {
    const excess = upperTail(t, nu) - tail;
    if (excess > 0) low = t;
    else high = t;
    // The tail falls as t grows: a Newton step is t + excess / density.
    const newton = t + excess / density(t, nu);
    const next = newton > low && newton < high ? newton : (low + high) / 2;
    if (Math.abs(next - t) <= QUANTILE_TOLERANCE * Math.max(1, t)) return next;
    t = next;
  }
  return t;
}

/** The quantile of probability p (0 < p < 1) with `df` degrees of freedom: the t with P(T ≤ t) = p. */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`probability must lie strictly between 0 and 1, got ${p}`);
  const nu = effectiveDegrees(df);
  return p >= 0.5 ? upperQuantile(1 - p, nu) : -upperQuantile(p, nu);
}
