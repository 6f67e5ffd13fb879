/**
 * Per-second time series of a run: output token events and in-flight requests counted in
 * 1-second buckets from the earliest start, as bench_serving buckets its peak metrics (spec §5):
 * the peaks are the maxima of these series, and the plots and the dashboard draw the series.
 */

/** The timing fields a request needs for the time series (fits bench outputs and catalog records). */
export interface TimedRequest {
  success: boolean;
  /** Seconds on any clock shared by the run's requests; null when the source does not say. */
  startTime: number | null;
  ttft: number | null;
  latency: number | null;
  /** Raw inter-token latencies in seconds (one token event each). */
  itl: readonly number[];
}

/** Bucket `i` covers seconds [i, i+1) after the first request's start. */
export interface Timeline {
  /** Output token events per bucket (tokens/s for token-level streams, chunks/s otherwise). */
  outputTokens: number[];
  /** Requests in flight at some point of each bucket. */
  inFlight: number[];
  /** Successful requests that had the start, TTFT and latency the buckets need. */
  requestsUsed: number;
}

/** A successful request with the start, TTFT and latency the time series need. */
export type CompleteRequest = TimedRequest & { startTime: number; ttft: number; latency: number };

export function isComplete(request: TimedRequest): request is CompleteRequest {
  return request.success && request.startTime !== null && request.ttft !== null && request.latency !== null;
}

/** Calls `visit` with the time of each of the request's token events: `start + ttft`, then cumulatively `+ itl[k]`. */
export function forEachTokenEvent(request: CompleteRequest, visit: (time: number) => void): void {
  let tokenTime = request.startTime + request.ttft;
  visit(tokenTime);
  for (const gap of request.itl) {
    tokenTime += gap;
    visit(tokenTime);
  }
}

/**
 * Buckets the successful requests: token events at `start + ttft`, then cumulatively `+ itl[k]`;
 * a request is in flight from bucket `int(start − t0)` through `int(start + latency − t0)`.
 * Requests without a start time or latency are left out. Empty series when none qualifies.
 */
export function perSecondTimeline(requests: readonly TimedRequest[]): Timeline {
  const used = requests.filter(isComplete);
  if (used.length === 0) return { outputTokens: [], inFlight: [], requestsUsed: 0 };
  let t0 = Infinity;
  let t1 = -Infinity;
  for (const r of used) {
    t0 = Math.min(t0, r.startTime);
    t1 = Math.max(t1, r.startTime + r.latency);
  }
  const bucketCount = Math.ceil(t1 - t0) + 1;
  const outputTokens = new Array<number>(bucketCount).fill(0);
  const inFlight = new Array<number>(bucketCount).fill(0);
  const countToken = (time: number): void => {
    const bucket = Math.trunc(time - t0);
    if (bucket >= 0 && bucket < bucketCount) outputTokens[bucket]! += 1;
  };
  for (const r of used) {
    forEachTokenEvent(r, countToken);
    const last = Math.min(Math.trunc(r.startTime + r.latency - t0), bucketCount - 1);
    for (let bucket = Math.trunc(r.startTime - t0); bucket <= last; bucket++) inFlight[bucket]! += 1;
  }
  return { outputTokens, inFlight, requestsUsed: used.length };
}
