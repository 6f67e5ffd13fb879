#!/usr/bin/env python3
"""The Python client that servebench's CPU per token event is compared with.

It reads streams the way SGLang's bench_serving does, as ../shared/spec/bench-serving-behaviour.md
(section 2) describes it: a new aiohttp session (so a new connection) per request, a 10 MiB read
buffer, the body read line by line, each line stripped, empty lines skipped, the `data: ` prefix
removed, `[DONE]` skipped, the rest JSON-parsed and stamped with time.perf_counter. Per backend
it keeps what bench_serving keeps: for /generate the cumulative text, completion_tokens and one
ITL entry per new token; for /v1/completions the concatenated text and one ITL entry per chunk.

bench/client-accuracy.ts starts it against the truth-mode sim with the same streams it gives
servebench: STREAMS closed-loop streams, first requests spread over one request's duration, each
request for TOKENS tokens. It reads its own CPU (getrusage) at T0 and T1, both given on
CLOCK_MONOTONIC in ms (process.hrtime in Node, time.perf_counter here), counts the token events it
stamped between the two readings, and prints one JSON line with them and the timings (send time,
TTFT, ITL, events) of each request sent between the readings.

    python3 bench/python-client-baseline.py URL generate|completions STREAMS TOKENS T0_MS T1_MS SPREAD_S
"""
import asyncio
import json
import resource
import sys
import time

import aiohttp

READ_BUFSIZE = 10 * 1024 * 1024
TIMEOUT = aiohttp.ClientTimeout(total=6 * 60 * 60)
MODEL = "Qwen/Qwen3-8B"


def payload(api, tokens, rid):
    prompt = f"Tell me story {rid}."
    if api == "generate":
        # `rid` (SGLang's request id) names the sim's truth record of this request.
        return {
            "rid": rid,
            "text": prompt,
            "sampling_params": {"temperature": 0.0, "max_new_tokens": tokens, "ignore_eos": True},
            "stream": True,
            "lora_path": None,
            "return_logprob": False,
            "return_routed_experts": False,
            "logprob_start_len": -1,
        }
    return {
        "model": MODEL,
        "prompt": prompt,
        "best_of": 1,
        "max_tokens": tokens,
        "stream": True,
        "temperature": 0.0,
        "ignore_eos": True,
    }


class Window:
    """CPU and token-event counts between the readings at T0 and T1, and the requests sent in it."""

    def __init__(self):
        self.opened_at = None
        self.closed_at = None
        self.cpu = {}
        self.events = []
        self.requests = []

    def read(self, name):
        """CPU (total, kernel) now, kept under `name`; returns when it was read."""
        usage = resource.getrusage(resource.RUSAGE_SELF)
        self.cpu[name] = (usage.ru_utime + usage.ru_stime, usage.ru_stime)
        return time.perf_counter()

    def counted(self):
        return sum(1 for t in self.events if self.opened_at <= t < self.closed_at)


async def one_request(url, api, tokens, rid, window):
    """One request as bench_serving sends and reads it; returns its timings, or None on failure."""
    async with aiohttp.ClientSession(timeout=TIMEOUT, read_bufsize=READ_BUFSIZE) as session:
        st = time.perf_counter()
        ttft = 0.0
        itl = []
        # Kept, though nothing here reads them, because bench_serving keeps them: their cost is its cost.
        text_chunks = []
        events = 0
        output_len = tokens
        generated_text = ""
        last_tokens = 0
        most_recent = st
        async with session.post(url, json=payload(api, tokens, rid)) as response:
            if response.status != 200:
                await response.text()
                return None
            async for chunk_bytes in response.content:
                chunk_bytes = chunk_bytes.strip()
                if not chunk_bytes:
                    continue
                chunk = chunk_bytes.decode("utf-8")
                if chunk.startswith("data: "):
                    chunk = chunk[len("data: "):]
                if chunk == "[DONE]":
                    continue
                data = json.loads(chunk)
                if api == "generate":
                    if not data.get("text"):
                        continue
                    timestamp = time.perf_counter()
                    generated_text = data["text"]
                    completion_tokens = data["meta_info"]["completion_tokens"]
                    if ttft == 0.0:
                        ttft = timestamp - st
                    else:
                        new_tokens = completion_tokens - last_tokens
                        if new_tokens == 0:
                            continue
                        itl.extend([(timestamp - most_recent) / new_tokens] * new_tokens)
                    last_tokens = completion_tokens
                    output_len = completion_tokens
                else:
                    text = data["choices"][0]["text"]
                    if not text:
                        continue
                    timestamp = time.perf_counter()
                    if ttft == 0.0:
                        ttft = timestamp - st
                    else:
                        itl.append(timestamp - most_recent)
                        text_chunks.append(text)
                    generated_text += text
                    usage = data.get("usage")
                    if isinstance(usage, dict):
                        output_len = usage.get("completion_tokens", output_len)
                most_recent = timestamp
                events += 1
                window.events.append(timestamp)
        if not generated_text or output_len <= 0:
            return None
        return {"rid": rid, "start": st, "ttft": ttft, "itl": itl, "events": events}


async def stream(index, args, window, stats, serials):
    await asyncio.sleep(index / args["streams"] * args["spread_s"])
    while time.perf_counter() < args["t1"]:
        rid = f"py-{next(serials)}"
        try:
            timings = await one_request(args["url"], args["api"], args["tokens"], rid, window)
        except (aiohttp.ClientError, asyncio.TimeoutError, ValueError, KeyError, IndexError):
            timings = None
        stats["requests"] += 1
        if timings is None:
            stats["errors"] += 1
        elif timings["start"] >= args["t0"]:
            window.requests.append(timings)


async def read_at(at, window, name):
    await asyncio.sleep(max(0.0, at - time.perf_counter()))
    return window.read(name)


async def main(argv):
    url, api, streams, tokens, t0_ms, t1_ms, spread_s = argv
    args = {
        "url": url,
        "api": api,
        "streams": int(streams),
        "tokens": int(tokens),
        "t0": float(t0_ms) / 1000,
        "t1": float(t1_ms) / 1000,
        "spread_s": float(spread_s),
    }
    window = Window()
    stats = {"requests": 0, "errors": 0}
    serials = iter(range(1 << 62))
    readings = asyncio.gather(read_at(args["t0"], window, "t0"), read_at(args["t1"], window, "t1"))
    streams_done = asyncio.gather(*(stream(i, args, window, stats, serials) for i in range(args["streams"])))
    window.opened_at, window.closed_at = await readings
    await streams_done
    (cpu0, system0), (cpu1, system1) = window.cpu["t0"], window.cpu["t1"]
    print(
        json.dumps(
            {
                "events": window.counted(),
                "window_s": window.closed_at - window.opened_at,
                "cpu_s": cpu1 - cpu0,
                "system_cpu_s": system1 - system0,
                "requests": stats["requests"],
                "errors": stats["errors"],
                "python": sys.version.split()[0],
                "aiohttp": aiohttp.__version__,
                "measured": window.requests,
            }
        )
    )


if __name__ == "__main__":
    if len(sys.argv) != 8:
        sys.exit("usage: python-client-baseline.py URL generate|completions STREAMS TOKENS T0_MS T1_MS SPREAD_S")
    asyncio.run(main(sys.argv[1:]))
