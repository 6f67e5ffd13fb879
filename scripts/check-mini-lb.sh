#!/usr/bin/env bash
# Runs SGLang's Python mini load balancer, unchanged, in front of a prefill and a decode
# `servebench sim`, and `servebench bench` through it (native /generate, then OpenAI chat).
#
#   scripts/check-mini-lb.sh PATH/TO/sglang_router/mini_lb.py
#
# PATH is mini_lb.py from an SGLang checkout (sgl-model-gateway/bindings/python/src/sglang_router/).
# Needs Debian's python3 with fastapi, uvicorn and aiohttp (apt-get install -y python3-fastapi
# python3-uvicorn python3-aiohttp) and a built CLI (npm run build). mini_lb.py is copied as it is
# into a temporary sglang_router package; beside it go stand-ins for what Debian lacks or what needs
# the router's Rust extension: orjson and pybase64 over the standard library, and RouterArgs with
# the fields mini_lb reads. Everything listens on loopback and is stopped on exit.
set -euo pipefail
MINI_LB=${1:?usage: scripts/check-mini-lb.sh PATH/TO/mini_lb.py}
PYTHON=${PYTHON:-/usr/bin/python3}
MODEL=${MODEL:-Qwen/Qwen2.5-0.5B-Instruct}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN="$ROOT/bin/servebench.js"
WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

"$PYTHON" -c 'import fastapi, uvicorn, aiohttp' 2>/dev/null ||
  { echo "check-mini-lb: $PYTHON lacks fastapi, uvicorn or aiohttp: apt-get install -y python3-fastapi python3-uvicorn python3-aiohttp" >&2; exit 2; }
[ -f "$BIN" ] && [ -d "$ROOT/dist" ] || { echo "check-mini-lb: no built CLI: run npm run build first" >&2; exit 2; }

mkdir -p "$WORK/sglang_router"
cp "$MINI_LB" "$WORK/sglang_router/mini_lb.py"
: > "$WORK/sglang_router/__init__.py"
cat > "$WORK/sglang_router/router_args.py" <<'PY'
import dataclasses
from typing import List


@dataclasses.dataclass
class RouterArgs:
    host: str = "127.0.0.1"
    port: int = 30000
    pd_disaggregation: bool = True
    mini_lb: bool = True
    prefill_urls: List[tuple] = dataclasses.field(default_factory=list)
    decode_urls: List[str] = dataclasses.field(default_factory=list)
    policy: str = "random"
    request_timeout_secs: int = 1800
    test_external_dp_routing: bool = False
PY
cat > "$WORK/orjson.py" <<'PY'
import json

OPT_NON_STR_KEYS = 1
OPT_SERIALIZE_NUMPY = 2


def dumps(value, option=None):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def loads(text):
    return json.loads(text)
PY
cat > "$WORK/pybase64.py" <<'PY'
import base64


def b64decode(data, validate=False):
    return base64.b64decode(data, validate=validate)


def b64encode(data):
    return base64.b64encode(data)
PY

free_port() { "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() { # URL: waits up to 60 s for a 200
  for _ in $(seq 600); do
    "$PYTHON" -c "import sys, urllib.request; urllib.request.urlopen('$1', timeout=1)" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "check-mini-lb: nothing answered $1 within 60 s" >&2
  exit 1
}

PREFILL_PORT=$(free_port); BOOTSTRAP_PORT=$(free_port); DECODE_PORT=$(free_port); LB_PORT=$(free_port)
node "$BIN" sim --model-path "$MODEL" --hardware h100 --host 127.0.0.1 --port "$PREFILL_PORT" \
  --disaggregation-mode prefill --disaggregation-bootstrap-port "$BOOTSTRAP_PORT" > "$WORK/prefill.log" 2>&1 & PIDS+=($!)
node "$BIN" sim --model-path "$MODEL" --hardware h100 --host 127.0.0.1 --port "$DECODE_PORT" \
  --disaggregation-mode decode > "$WORK/decode.log" 2>&1 & PIDS+=($!)
wait_for "http://127.0.0.1:$PREFILL_PORT/health"
wait_for "http://127.0.0.1:$DECODE_PORT/health"

(cd "$WORK" && PYTHONPATH="$WORK" "$PYTHON" -c "
from sglang_router.mini_lb import MiniLoadBalancer
from sglang_router.router_args import RouterArgs
MiniLoadBalancer(RouterArgs(port=$LB_PORT, prefill_urls=[('http://127.0.0.1:$PREFILL_PORT', $BOOTSTRAP_PORT)], decode_urls=['http://127.0.0.1:$DECODE_PORT'])).start()
" > "$WORK/mini_lb.log" 2>&1) & PIDS+=($!)
wait_for "http://127.0.0.1:$LB_PORT/health"

status=0
for backend in sglang sglang-oai-chat; do
  echo "== servebench bench --backend $backend through mini_lb on 127.0.0.1:$LB_PORT"
  if ! node "$BIN" bench --backend "$backend" --host 127.0.0.1 --port "$LB_PORT" --model "$MODEL" --dataset-name random \
    --random-input-len 256 --random-output-len 32 --random-range-ratio 1 --num-prompts 32 --max-concurrency 8 \
    --disable-tqdm --no-catalog --output-file "$WORK/$backend.jsonl" > "$WORK/$backend.out" 2>&1; then
    status=1
  fi
  grep -E 'Successful requests|Total generated tokens|Mean TTFT|Mean TPOT|Failed requests' "$WORK/$backend.out" || true
  grep -q 'Successful requests: *32' "$WORK/$backend.out" || { status=1; tail -20 "$WORK/$backend.out"; }
done
if [ "$status" -ne 0 ]; then
  echo "check-mini-lb: FAILED; mini_lb's log:" >&2
  tail -30 "$WORK/mini_lb.log" >&2
fi
exit "$status"
