/**
 * Writing charts to files: the format follows the file extension (`.svg` or `.png`). Also the
 * `servebench bench --plot-throughput` hook, which saves the two time-series plots of a run next
 * to its result file.
 */
import { writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { EChartsOption } from 'echarts';
import { UsageError, UserError } from '../core/errors.js';
import { concurrencyOption, outputThroughputOption } from './options.js';
import { DEFAULT_SIZE, renderSvg, svgToPng, type ChartSize } from './render.js';
import { perSecondTimeline, type TimedRequest } from '../bench/index.js';

export type ImageFormat = 'svg' | 'png';

/** The image format a file name asks for; a usage error for any other extension. */
export function imageFormatOf(file: string): ImageFormat {
  const ext = extname(file).toLowerCase();
  if (ext === '.svg' || ext === '.png') return ext.slice(1) as ImageFormat;
  throw new UsageError(`image file '${file}' must end in .svg or .png`);
}

/** The chart encoded as the file's format. */
export function encodeChart(option: EChartsOption, format: ImageFormat, size: ChartSize = DEFAULT_SIZE): Buffer {
  const svg = renderSvg(option, size);
  return format === 'svg' ? Buffer.from(svg, 'utf8') : svgToPng(svg);
}

/** Renders and writes a chart; the format follows the extension. */
export function writeChart(option: EChartsOption, file: string, size: ChartSize = DEFAULT_SIZE): void {
  const bytes = encodeChart(option, imageFormatOf(file), size);
  try {
    writeFileSync(file, bytes);
  } catch (error) {
    throw new UserError(`cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); check that its directory exists and is writable`);
  }
}

/** `results.jsonl` → `results.throughput.png` and `results.concurrency.png`. */
export function throughputPlotPaths(outputFile: string): { throughput: string; concurrency: string } {
  const stem = outputFile.slice(0, outputFile.length - extname(outputFile).length) || outputFile;
  return { throughput: `${stem}.throughput.png`, concurrency: `${stem}.concurrency.png` };
}

/**
 * `--plot-throughput`: writes "Output tokens per second" and "Concurrent requests per second"
 * (1-second buckets, as bench_serving's peak metrics) as PNGs next to `outputFile`, prints one
 * line per file through `print`, and returns the paths.
 */
export function writeThroughputPlots(
  outputFile: string,
  outputs: readonly TimedRequest[],
  print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): string[] {
  const timeline = perSecondTimeline(outputs);
  const paths = throughputPlotPaths(outputFile);
  writeChart(outputThroughputOption(timeline), paths.throughput);
  print(`Output tokens per second plot: ${paths.throughput}`);
  writeChart(concurrencyOption(timeline), paths.concurrency);
  print(`Concurrent requests per second plot: ${paths.concurrency}`);
  return [paths.throughput, paths.concurrency];
}
