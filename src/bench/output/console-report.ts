/**
 * `servebench bench`'s report on its run: once the metrics are in, bench_serving's result block,
 * servebench's extras and the self-check verdicts on stdout; once the server info is, the JSONL
 * record (with the resolved Namespace as arguments) and the rest of what is kept.
 */
import { resolvedNamespace } from '../args/resolved-namespace.js';
import { ALL_REQUESTS_FAILED_WARNING } from '../metrics/calculate.js';
import type { BenchReport } from '../run-bench.js';
import { formatResultBlock } from './block.js';
import { formatExtendedBlock } from './extras-block.js';
import { formatServerBlock, serverSideNotes } from './server-block.js';
import { keepResults, type ResultKeepers } from './keep-results.js';
import { buildResultRecord } from './record.js';

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
        outputs: result.outputs,
        extras: result.extras,
        server: result.server,
        selfCheck: result.selfCheck,
        simTimeScale: result.simTimeScale,
        ...(simSelfCheck === undefined ? {} : { simSelfCheck }),
      });
      const { config, outputs, startedAt } = result;
      await keepResults({ record, args, config, outputFile: options.outputFile, outputs, startedAt }, options.keepers, notice);
    },
  };
}
