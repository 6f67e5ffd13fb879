/**
 * Qwen-VL's `smart_resize`, the image resize its processors and SGLang's Qwen-VL processor apply
 * before a vision tower sees an image: each side rounded to a multiple of a factor while the area
 * fits a pixel range, else both sides scaled by one factor and floored (too large) or ceiled (too
 * small). Shared by the bench's image dataset and the sim's image-token count.
 */

/** The multiple and the area range an image is resized to. */
export interface ResizeRule {
  factor: number;
  minPixels: number;
  maxPixels: number;
}

/** Python's `round()`: halves go to the even neighbour. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** The (height, width) an image is resized to under `rule`. */
export function smartResize(height: number, width: number, rule: ResizeRule): { height: number; width: number } {
  const f = rule.factor;
  let h = Math.max(f, roundHalfEven(height / f) * f);
  let w = Math.max(f, roundHalfEven(width / f) * f);
  if (h * w > rule.maxPixels) {
    const beta = Math.sqrt((height * width) / rule.maxPixels);
    h = Math.max(f, Math.floor(height / beta / f) * f);
    w = Math.max(f, Math.floor(width / beta / f) * f);
  } else if (h * w < rule.minPixels) {
    const beta = Math.sqrt(rule.minPixels / (height * width));
    h = Math.ceil((height * beta) / f) * f;
    w = Math.ceil((width * beta) / f) * f;
  }
  return { height: h, width: w };
}
