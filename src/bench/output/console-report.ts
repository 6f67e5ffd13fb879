/**
 * `servebench bench`'s report on its runs: once a run's metrics are in, bench_serving's result
 * block, servebench's extras and the self-check verdicts on stdout; once the server info is, the
 * JSONL record (with the resolved Namespace as arguments) and the rest of what is kept. After
 * repeated runs, the section over them and its record.
 */
import { resolvedNamespace } from '../args/resolved-namespace.js';
import { ALL_REQUESTS_FAILED_WARNING } from '../metrics/calculate.js';
import type { BenchReport } from '../run-bench.js';
import { formatResultBlock } from './block.js';
import { formatShardSection } from '../shards/summary.js';
import { formatExtendedBlock } from './extras-block.js';
import { formatServerBlock, serverSideNotes } from './server-block.js';
import { keepResults, type ResultKeepers } from './keep-results.js';
import { buildRepeatedRunsRecord, buildResultRecord } from './record.js';
import { appendJsonl } from './jsonl-file.js';
import { repeatedFigureValues, summarizeRepeatedRuns } from '../metrics/repeated-runs.js';
import { formatRepeatedBlock, repeatedRunsNotes } from './repeated-block.js';

export interface ConsoleReportOptions {
  outputFile: string;
  /** stdout. */
  write(text: string): void;
  /** stderr, one line per call. */
  notice(line: string): void;
  keepers: ResultKeepers;
}

export function consoleReport(options: ConsoleReportOptions): BenchReport {
  const { write, notice } = options;
  const print = (line: string): void => write(`${line}\n`);
  // The sim's verdict, printed with the block and kept in the record (a run whose sim fell behind is suspect).
  let simSelfCheck: string | undefined;
  return {
    async summarized(run, simVerdict) {
      if (run.metrics.completed === 0) notice(`UserWarning: ${ALL_REQUESTS_FAILED_WARNING}`);
      write(formatResultBlock(run.metrics, run.config));
      write(formatExtendedBlock(run.extras));
      if (run.server !== null) {
        write(formatServerBlock(run.server));
        for (const note of serverSideNotes(run.server)) print(note);
      }
      // The loops that stamped the events, and each request's own bound, judge the run.
      print(run.selfCheck.line);
      if (run.shards !== null) write(formatShardSection(run.shards));
      if (simVerdict !== null) {
        simSelfCheck = await simVerdict();
        print(simSelfCheck);
      }
    },
    async finished(result) {
      const args = resolvedNamespace(result.config, result.target);
      const record = buildResultRecord({
        args,
        metrics: result.metrics,
        serverInfo: result.serverInfo,
        routerWorkers: result.routerWorkers,
        outputs: result.outputs,
        extras: result.extras,
        server: result.server,
        selfCheck: result.selfCheck,
        simTimeScale: result.simTimeScale,
        ...(simSelfCheck === undefined ? {} : { simSelfCheck }),
        repeat: result.repeat,
        shards: result.shards,
      });
      const { config, outputs, startedAt } = result;
      await keepResults({ record, args, config, outputFile: options.outputFile, outputs, startedAt }, options.keepers, notice);
    },
    async repeated(results) {
      const { config, target, repeat } = results[0]!;
      const summary = summarizeRepeatedRuns(results.map((result) => repeatedFigureValues(result.metrics)), config.repeat.confidenceLevel);
      write(formatRepeatedBlock(summary));
      for (const note of repeatedRunsNotes(summary)) print(note);
      // Each run's record and catalog run are kept already; this record only adds what they imply together.
      appendJsonl(options.outputFile, buildRepeatedRunsRecord(resolvedNamespace(config, target), repeat!.group, summary));
    },
  };
}
