/**
 * The tile grids two processors cut an image into, worked out from the image's size alone (pure
 * arithmetic in doubles, as the processors' own float comparisons; no pixels are touched).
 */

/** A grid of tiles: `across` tiles side by side, `down` rows of them. */
export interface TileGrid {
  across: number;
  down: number;
}

/** Every grid of `min` to `max` tiles, fewest tiles first. */
function grids(min: number, max: number): TileGrid[] {
  const all: TileGrid[] = [];
  for (let across = 1; across <= max; across++) {
    for (let down = 1; across * down <= max; down++) if (across * down >= min) all.push({ across, down });
  }
  return all.sort((a, b) => a.across * a.down - b.across * b.down || a.across - b.across);
}

/**
 * Llama 4's canvas (transformers' Llama4ImageProcessorFast, get_best_fit over
 * find_supported_resolutions): among grids of up to `maxTiles` tiles of `tile` pixels, the scale that
 * fits the image in each without distortion is the smaller of its two sides' scales; the smallest
 * scale ≥ 1 wins (the least upscaling), else the largest below 1 (the least downscaling); ties go to
 * the grid of fewest tiles (least padding).
 */
export function llama4Canvas(width: number, height: number, tile: number, maxTiles: number): TileGrid {
  const scaled = grids(1, maxTiles).map((grid) => ({ grid, scale: Math.min((grid.down * tile) / height, (grid.across * tile) / width) }));
  const up = scaled.filter((s) => s.scale >= 1).map((s) => s.scale);
  const chosen = up.length > 0 ? Math.min(...up) : Math.max(...scaled.map((s) => s.scale));
  // grids() lists fewest tiles first, so the first grid at the chosen scale has the least area.
  return scaled.find((s) => s.scale === chosen)!.grid;
}

/**
 * DeepSeek-OCR's crop grid (its dynamic_preprocess, InternVL's rule): the grid of `min` to `max`
 * crops whose aspect (across / down) is closest to the image's; on a tie the later (larger) grid wins
 * when the image has more than half its pixels.
 */
export function closestCropGrid(width: number, height: number, cropSize: number, min: number, max: number): TileGrid {
  const aspect = width / height;
  let best: TileGrid = { across: 1, down: 1 };
  let bestDiff = Infinity;
  for (const grid of grids(min, max)) {
    const diff = Math.abs(aspect - grid.across / grid.down);
    if (diff < bestDiff) {
      bestDiff = diff;
      best = grid;
    } else if (diff === bestDiff && width * height > 0.5 * cropSize * cropSize * grid.across * grid.down) {
      best = grid;
    }
  }
  return best;
}
