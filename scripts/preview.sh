#!/usr/bin/env bash
# Builds the site into its own folder and serves it on its own port, beside other previews:
#   scripts/preview.sh NAME PORT    → build-NAME/, http://127.0.0.1:PORT (stops with Ctrl-C)
set -euo pipefail
name=${1:?usage: scripts/preview.sh NAME PORT}
port=${2:?usage: scripts/preview.sh NAME PORT}
export BUILD_DIR="build-$name"
# The Node.js that npm install brings (node_modules/.bin), as npm scripts use, whatever the system has.
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
npx react-router build >/dev/null
node scripts/compress-build.mjs >/dev/null
echo "serving $BUILD_DIR on http://127.0.0.1:$port"
exec env SITE_DIR="$BUILD_DIR/client" DATA_DIR="/tmp/revwise-preview-$name" PORT="$port" LOG_LEVEL=warn NODE_ENV=development \
  node server/server.ts
