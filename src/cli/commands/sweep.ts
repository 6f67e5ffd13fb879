/**
 * `servebench sweep [options] -- [bench flags]`: a load sweep, an SLO search, or a configuration
 * search, against a real server, the in-process sim in real time, or predictions in virtual time.
 */
import { hardwareNames } from '../../sim/model/catalog.js';
import { splitAtDoubleDash } from '../../sweep/cli-options.js';
import { runConfigSearch } from '../../sweep/run-config-search.js';
import { runLoadSweep } from '../../sweep/run-sweep.js';
import { parseSweepCommand } from '../../sweep/sweep-options.js';
import type { Command } from '../main.js';

const HELP = `usage: servebench sweep LOADS [TARGET] [--slo SPEC] [output options] -- [bench flags]
       servebench sweep --slo SPEC [--search concurrency|rate] [TARGET] ... -- [bench flags]
       servebench sweep --search-configs --model-path M (--hardware H | --hardware-spec FILE.json) --devices N [--slo SPEC] -- [bench flags]

Runs one 'servebench bench' per load and prints a table of throughput and latency per load, the
peak, and with an SLO the highest load that meets it and its goodput. Every point is a normal run
in the catalog, labelled sweep=<id>.

LOADS (one of):
  --concurrency SERIES      1,2,4 | 1:64:x2 (geometric) | 1:64:+8 (arithmetic) | auto[:LIMIT]
  --request-rate SERIES     the same in req/s; a list may end in inf
                            auto doubles until output throughput grows less than 5%

TARGET (default: the server named by the bench flags' --host/--port/--base-url):
  --predict "<SGLang flags>"  predictions in virtual time (add --hardware NAME or --hardware-spec FILE.json
                              inside the flags)
  --prefill "<flags>" --decode "<flags>"  PD-separated prediction (repeat --prefill per instance)
  --sim "<SGLang flags>"      an in-process simulated server, benchmarked in real time
  --cards N                   cards of the server under test, for per-card figures (real servers)

SLO:
  --slo SPEC                e.g. tpot=20ms,ttft=2s,p99-ttft=3s (metrics ttft, tpot, itl, e2e; mean by default,
                            median or pNN prefixes; units ms or s); a run with failed requests misses it
  --search concurrency|rate  without LOADS, search the highest load meeting the SLO: doubling, then bisection
  --search-start X, --max-load X   bounds of the search (default 1 and 1024 concurrency / 1000 req/s)
  --tolerance F             stop bisecting when the bracket is within F of the load (default 0.05)

configuration search (prediction mode):
  --search-configs --model-path M --hardware H --devices N   enumerate TP/DP/EP, DP attention, chunked
                            prefill, speculative decoding and PD splits; rank by output tok/s per card,
                            marking those within the model's expected throughput error (±) of the best
  --top K                   launch commands of the best K (default 3);  --no-pd   PD-mixed only
  --hardware H              one of ${hardwareNames().join(', ')}
  --hardware-spec FILE.json a device that is not listed, as a JSON object with the fields of a hardware.json
                            entry (see 'servebench sim --help'); wins over --hardware

other:
  --prompts-per-load K      --num-prompts = K x concurrency at each point (default: --num-prompts as given;
                            2 for --search-configs)
  --plot FILE.svg|FILE.png  output tok/s per card against mean TPOT and mean TTFT
  --json FILE               machine-readable summary
  --db PATH, --no-catalog, --label KEY=VALUE   catalog options
`;

async function run(argv: string[]): Promise<number> {
  const { before } = splitAtDoubleDash(argv);
  if (argv.length === 0 || before.includes('--help') || before.includes('-h')) {
    process.stdout.write(HELP);
    return argv.length === 0 ? 2 : 0;
  }
  const print = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  const plan = parseSweepCommand(argv);
  return plan.kind === 'configs' ? runConfigSearch(plan, print) : runLoadSweep(plan, print);
}

export const command: Command = {
  summary: 'sweep concurrency or request rate, search the SLO knee, or search launch configurations',
  run,
};
