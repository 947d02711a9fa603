#!/usr/bin/env bash
# Builds the site into its own folder and serves it on its own port, beside other previews:
#   scripts/preview.sh NAME PORT    → build-NAME/, http://127.0.0.1:PORT (stops with Ctrl-C)
set -euo pipefail
name=${1:?usage: scripts/preview.sh NAME PORT}
port=${2:?usage: scripts/preview.sh NAME PORT}
export BUILD_DIR="build-$name"
npx react-router build >/dev/null
node scripts/compress-build.mjs >/dev/null
echo "serving $BUILD_DIR on http://127.0.0.1:$port"
exec env SITE_DIR="$BUILD_DIR/client" DATA_DIR="/tmp/revwise-preview-$name" PORT="$port" LOG_LEVEL=warn NODE_ENV=development \
  node server/server.ts
