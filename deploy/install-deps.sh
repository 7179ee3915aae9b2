#!/usr/bin/env bash
# Installs the Debian 12 packages Crease builds and tests with. Idempotent: when
# everything is present it only runs dpkg-query and returns in well under a second.
# --build-only leaves out what only the tests and crease-preview need (a browser,
# node and npm, ffmpeg, Python's WebSocket and imaging modules): the Dockerfile's
# build stage uses it.
set -euo pipefail

build_only=false
if [ "${1:-}" = "--build-only" ]; then
  build_only=true
fi

packages=(
  build-essential cmake ninja-build pkg-config
  libabsl-dev libeigen3-dev libmaxflow-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libepoxy-dev libegl-dev libegl-mesa0 libgl1-mesa-dri libpng-dev libturbojpeg0-dev
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler prometheus-cpp-dev
  openssl libssl-dev
  libtinygltf-dev nlohmann-json3-dev
  gltfpack
  python3
  python3-grpcio python3-protobuf python3-numpy python3-pytest
  libcivetweb-dev
)
if ! $build_only; then
  packages+=(chromium python3-websocket python3-pil ffmpeg)
  # crease-preview vendors three.js with npm at build time. Debian's nodejs and
  # npm, unless a node with its own npm is there already (a NodeSource nodejs
  # bundles npm and conflicts with Debian's npm package).
  if ! command -v npm >/dev/null; then
    packages+=(nodejs npm)
  fi
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
echo "install-deps: installing ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
