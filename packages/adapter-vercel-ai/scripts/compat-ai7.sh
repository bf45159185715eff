#!/usr/bin/env bash
# Run the Vercel AI SDK adapter's tests against ai@7 and @ai-sdk/openai@4 on Node 22.
#
# The default toolchain tests ai@6 on Node 20. This leg installs ai@7, @ai-sdk/openai@4 and the npm
# package node@22 (which provides a Node 22 binary) into a temporary folder outside the workspace,
# then runs the adapter's vitest suite with Node 22, its SDK imports pointed at that folder.
#
# Usage: packages/adapter-vercel-ai/scripts/compat-ai7.sh   (from anywhere; exits non-zero on failure)
# Takes about 30 s on 2 cores: 15-20 s to install, 10 s of tests.
# Env:   AI_SDK_DIR   reuse an existing install folder instead of a fresh temporary one.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"

if [[ -z "${AI_SDK_DIR:-}" ]]; then
  AI_SDK_DIR="$(mktemp -d "${TMPDIR:-/tmp}/ai7-compat.XXXXXX")"
  trap 'rm -rf "$AI_SDK_DIR"' EXIT
fi
export AI_SDK_DIR

if [[ ! -x "$AI_SDK_DIR/node_modules/node/bin/node" || ! -d "$AI_SDK_DIR/node_modules/ai" ]]; then
  echo "Installing ai@7, @ai-sdk/openai@4 and node@22 into $AI_SDK_DIR"
  (
    cd "$AI_SDK_DIR"
    [[ -f package.json ]] || echo '{ "name": "ai7-compat", "private": true }' > package.json
    # --engine-strict=false: these majors declare node >= 22, and this npm still runs on Node 20.
    npm install --no-audit --no-fund --engine-strict=false 'ai@^7' '@ai-sdk/openai@^4' 'zod@^4' 'node@^22' >/dev/null
  )
fi

node22="$AI_SDK_DIR/node_modules/node/bin/node"
if ! "$node22" --version >/dev/null 2>&1; then
  echo "The node@22 package did not provide a working binary in $AI_SDK_DIR (did npm skip its install script?)." >&2
  exit 1
fi
echo "Node $("$node22" --version), ai $("$node22" -p "require('$AI_SDK_DIR/node_modules/ai/package.json').version"), @ai-sdk/openai $("$node22" -p "require('$AI_SDK_DIR/node_modules/@ai-sdk/openai/package.json').version")"

cd "$root"
"$node22" node_modules/vitest/vitest.mjs run --config packages/adapter-vercel-ai/scripts/vitest.ai7.config.ts
