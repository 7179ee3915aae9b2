#!/usr/bin/env bash
# Every kind of file crease-client --export writes, checked by the Khronos glTF
# validator (npm gltf-validator, run by node): no errors and no warnings. Skipped
# (exit 77) when node or the validator is not installed; deploy/install-gltf-validator.sh
# installs both (CI runs it).
# Usage: gltf_validator_test.sh <run-service-demo.sh> <crease-server> <crease-client>
#        <data dir> <out dir> <validator dir>
set -euo pipefail
script=$1 server=$2 client=$3 data=$4 out=$5 validator=$6
if ! command -v node >/dev/null || [ ! -d "$validator/node_modules/gltf-validator" ]; then
  echo "skipped: node or $validator/node_modules/gltf-validator is missing" \
       "(deploy/install-gltf-validator.sh installs them)"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out"
# The coarse mesh with UVs and normal maps (TANGENT), the wrinkled mesh (no
# maps), and a mesh without UVs.
"$script" "$server" "$client" "$data/Fox.glb" - "$out/normal_mapped" \
  --animation Walk --frames 3 --uv_maps_size 128 --export "$out/normal_mapped.glb" --quiet
"$script" "$server" "$client" "$data/Fox.glb" - "$out/wrinkled" \
  --animation Walk --frames 3 --wrinkled_mesh_level 2 --export "$out/wrinkled.glb" --quiet
"$script" "$server" "$client" "$data/cloth_pants_knee.obj" "$data/cloth_pants_knee.pc2" \
  "$out/no_uvs" --frames 3 --export "$out/no_uvs.glb" --quiet
"$script" "$server" "$client" "$data/cloth_pants_knee.obj" "$data/cloth_pants_knee.pc2" \
  "$out/buckled" --frames 3 --model buckling --export "$out/buckled.glb" --quiet
status=0
for f in normal_mapped wrinkled no_uvs buckled; do
  NODE_PATH="$validator/node_modules" node "$here/gltf_validate.js" "$out/$f.glb" || status=1
done
exit $status
