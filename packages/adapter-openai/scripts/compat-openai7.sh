#!/usr/bin/env bash
# Run the adapter's tests against openai@7 on Node 22 (the npm package `node@22` provides the
# binary), without touching the workspace: both are installed into a temporary folder, with zod,
# the peer that the SDK's zod helper (used by strict tools) imports.
#   packages/adapter-openai/scripts/compat-openai7.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
dir="$(mktemp -d "${TMPDIR:-/tmp}/openai7-compat.XXXXXX")"
trap 'rm -rf "$dir"' EXIT

npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error node@22 openai@7 zod@4 >/dev/null
node22="$dir/node_modules/.bin/node"
echo "compat: node $("$node22" --version), openai $("$node22" -p "require('$dir/node_modules/openai/package.json').version")"

cd "$root"
# The child processes the tests spawn load openai from here too.
VITE_CONFIG_NATIVE_IGNORE_WARNING=true OPENAI_COMPAT_DIR="$dir" OPENAI_EXPECT_MAJOR=7 OPENAI_MODULE="$dir/node_modules/openai/index.mjs" \
  "$node22" node_modules/vitest/vitest.mjs run --config packages/adapter-openai/scripts/vitest.compat.config.ts
