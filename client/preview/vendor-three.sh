#!/usr/bin/env bash
# Vendors three.js from npm (a pinned version) into OUT_DIR/vendor at build time,
# for crease-preview's page: three.module.js and the three add-ons it imports.
# The page never fetches anything at run time. Needs npm (Debian's nodejs, npm).
set -euo pipefail
out=$1
cache=$2  # where npm installs (kept between builds)
version=0.160.0
if [ ! -f "$cache/node_modules/three/package.json" ] ||
   ! grep -q "\"version\": \"$version\"" "$cache/node_modules/three/package.json"; then
  command -v npm >/dev/null || { echo "vendor-three.sh: npm is missing (apt-get install npm)" >&2; exit 1; }
  mkdir -p "$cache"
  npm install --silent --no-audit --no-fund --prefix "$cache" "three@$version"
fi
three=$cache/node_modules/three
mkdir -p "$out/vendor/addons/controls" "$out/vendor/addons/loaders" "$out/vendor/addons/utils"
cp "$three/build/three.module.js" "$out/vendor/"
cp "$three/examples/jsm/controls/OrbitControls.js" "$out/vendor/addons/controls/"
cp "$three/examples/jsm/loaders/GLTFLoader.js" "$out/vendor/addons/loaders/"
cp "$three/examples/jsm/utils/BufferGeometryUtils.js" "$out/vendor/addons/utils/"
cp "$three/LICENSE" "$out/vendor/THREE-LICENSE"
