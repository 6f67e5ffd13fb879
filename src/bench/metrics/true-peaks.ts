/**
 * Peaks as they happened (pure), beside bench_serving's per-second ones (peaks.ts). bench_serving
 * counts a request in every 1-second bucket it touches, so a bucket in which one request ends and
 * the next starts counts both, and a run limited to C concurrent requests can report more than C;
 * its token peak depends on where the buckets happen to fall. Here: the most requests in flight at
 * one instant, and the most token events in any 1-second window.
 */
import { forEachTokenEvent, isComplete, type TimedRequest } from './per-second.js';

/**
 * The most successful requests in flight at one instant, each from its start to its end
 * (`start + latency`); one that ends as another starts is not counted with it. 0 for none.
 */
export function peakInFlight(requests: readonly TimedRequest[]): number {
  const starts: number[] = [];
  const ends: number[] = [];
  for (const request of requests) {
    if (!isComplete(request)) continue;
    starts.push(request.startTime);
    ends.push(request.startTime + request.latency);
  }
  starts.sort((a, b) => a - b);
  ends.sort((a, b) => a - b);
  let peak = 0;
  let open = 0;
  let ended = 0;
  for (const start of starts) {
    while (ends[ended]! <= start) {
      ended++;
      open--;
    }
    peak = Math.max(peak, ++open);
  }
  return peak;
}

/** The most token events of the successful requests in any window `[t, t + windowSeconds)`. 0 for none. */
export function peakTokensInWindow(requests: readonly TimedRequest[], windowSeconds = 1): number {
  const times: number[] = [];
  for (const request of requests) if (isComplete(request)) forEachTokenEvent(request, (time) => times.push(time));
  times.sort((a, b) => a - b);
  // The busiest window can always be slid to start at an event.
  let peak = 0;
  let end = 0;
  for (let first = 0; first < times.length; first++) {
    while (end < times.length && times[end]! < times[first]! + windowSeconds) end++;
    peak = Math.max(peak, end - first);
  }
  return peak;
}
