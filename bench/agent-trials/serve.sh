#!/usr/bin/env bash
# Starts the built server on the sandbox over Streamable HTTP (loopback, a free port, a home of its own so
# nothing of the user's store is used) and prints the exports a trial agent's shell needs.
#   eval "$(bench/agent-trials/serve.sh)"      ...      kill "$TRIAL_PID"
set -euo pipefail
cd "$(dirname "$0")/../.."
port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
home="$(mktemp -d)"
MARTECH_STEPS_HOME="$home" nohup node dist/cli/main.js serve --http --sandbox --port "$port" >"$home/server.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 0.2
done
echo "export TRIAL_URL=http://127.0.0.1:$port/mcp TRIAL_PID=$pid TRIAL_HOME=$home"
