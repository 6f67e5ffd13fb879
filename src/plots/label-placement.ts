/**
 * Where to put each point's label on a scatter chart so labels do not cover each other or other
 * points. ECharts' own overlap handling runs only in a browser, not in server-side rendering, so
 * the chart builder decides the side of each label up front, in the chart's axis space.
 */

export type LabelSide = 'right' | 'left' | 'top' | 'bottom';

export interface LabelledPoint {
  x: number;
  y: number;
  label: string;
}

/** Rough plot-area size in pixels (the chart minus title, axes and legend) used to size labels. */
export interface PlotArea {
  width: number;
  height: number;
}

interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

const CHAR_PX = 6.5;
const LABEL_PX = 14;
const GAP_PX = 9;
const SYMBOL_PX = 6;
const SIDES: readonly LabelSide[] = ['right', 'left', 'top', 'bottom'];

function overlaps(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/**
 * One side per point, in order: the first of right, left, top, bottom whose label box is clear
 * of the labels placed so far and of every point; `right` when none is. Axes are taken to run
 * from 0 to the largest coordinate, as the throughput-vs-TPOT chart's do.
 */
export function placeLabels(points: readonly LabelledPoint[], area: PlotArea): LabelSide[] {
  const maxX = Math.max(1e-9, ...points.map((p) => p.x));
  const maxY = Math.max(1e-9, ...points.map((p) => p.y));
  // Pixel positions (y grows upwards here; only overlaps matter).
  const px = points.map((p) => ({ x: (p.x / maxX) * area.width, y: (p.y / maxY) * area.height }));
  const symbols: Box[] = px.map((p) => ({ x0: p.x - SYMBOL_PX, x1: p.x + SYMBOL_PX, y0: p.y - SYMBOL_PX, y1: p.y + SYMBOL_PX }));
  const placed: Box[] = [];
  return points.map((point, i) => {
    const { x, y } = px[i]!;
    const w = point.label.length * CHAR_PX;
    const h = LABEL_PX;
    const boxes: Record<LabelSide, Box> = {
      right: { x0: x + GAP_PX, x1: x + GAP_PX + w, y0: y - h / 2, y1: y + h / 2 },
      left: { x0: x - GAP_PX - w, x1: x - GAP_PX, y0: y - h / 2, y1: y + h / 2 },
      top: { x0: x - w / 2, x1: x + w / 2, y0: y + GAP_PX, y1: y + GAP_PX + h },
      bottom: { x0: x - w / 2, x1: x + w / 2, y0: y - GAP_PX - h, y1: y - GAP_PX },
    };
    const clear = (side: LabelSide): boolean =>
      !placed.some((b) => overlaps(b, boxes[side])) && !symbols.some((s, j) => j !== i && overlaps(s, boxes[side]));
    const side = SIDES.find(clear) ?? 'right';
    placed.push(boxes[side]);
    return side;
  });
}
