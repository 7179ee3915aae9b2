#!/usr/bin/env bash
# Installs node (Debian's) and the Khronos glTF validator (npm gltf-validator, a
# pinned version) into build/tools/gltf-validator, for the test that validates every
# file crease-client --export writes (tests/client/gltf_validator_test.sh). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm
fi
dir=build/tools/gltf-validator
if [ ! -d "$dir/node_modules/gltf-validator" ]; then
  mkdir -p "$dir"
  npm install --silent --no-audit --no-fund --prefix "$dir" gltf-validator@2.0.0-dev.3.10
fi
echo "gltf-validator in $dir"
