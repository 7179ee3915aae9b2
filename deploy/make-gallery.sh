#!/usr/bin/env bash
# The gallery (docs/gallery.md): a plain | wrinkled contact sheet of every bundled
# animation, 4 frames spread over it, each frame 960 x 720, rendered by crease-render
# with the default wrinkle parameters (software OpenGL where there is no GPU).
# Usage: make-gallery.sh <crease-render> <data dir> <gallery dir> [work dir]
set -euo pipefail
render=$1 data=$2 gallery=$3 work=${4:-$(mktemp -d)}
mkdir -p "$gallery" "$work"
# name azimuth: the side where the cloth gathers (the trouser knee bends away from
# the camera, so it is seen from behind).
sets="fox_walk:60 cloth_pants_knee:180 cesiumman_walk:0 cloth_skirt_walk:0 cloth_drape_sphere:30"
for entry in $sets; do
  name=${entry%%:*} azimuth=${entry##*:}
  echo "gallery: $name (azimuth $azimuth)"
  # Every 4th frame from frame 8 is rendered (frame 0 has no wrinkles yet); the
  # sheet picks 4 of them spread over the run.
  "$render" --obj "$data/$name.obj" --pc2 "$data/$name.pc2" --out "$work/$name" \
    --width 960 --height 720 --start_frame 8 --every 4 --sheet_rows 4 --azimuth "$azimuth" \
    --format jpeg --quality 85 > "$work/$name.log"
  tail -n 1 "$work/$name.log"
  cp "$work/$name/contact_sheet.png" "$gallery/$name.png"
done
echo "gallery: contact sheets in $gallery"
