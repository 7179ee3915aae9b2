#!/usr/bin/env bash
# Installs the Debian 12 packages Crease builds and tests with. Idempotent: when
# everything is present it only runs dpkg-query and returns in well under a second.
set -euo pipefail

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
  libcivetweb-dev nodejs npm chromium python3-websocket python3-pil
  ffmpeg
)

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
