#!/usr/bin/env bash
# The gallery (docs/gallery.md): a plain | wrinkled contact sheet of every bundled
# animation, 4 frames spread over it, each frame 960 x 720, rendered by crease-render
# with the default wrinkle parameters (software OpenGL where there is no GPU); close-ups
# of the three sets that fold; then the buckling model on the open tubes, the Fox's
# other two clips from its glTF (nobody tuned on them) and the wrinkle maps on the
# Fox; last, the garments nobody tuned on, written by crease-synth (a sleeve bending
# at the elbow, a gathered edge, a pushed sheet, a cinched cuff, a belted sleeve, a
# twisted tube).
# Usage: make-gallery.sh <crease-render> <crease-synth> <data dir> <gallery dir> [work dir]
set -euo pipefail
render=$1 synth=$2 data=$3 gallery=$4 work=${5:-$(mktemp -d)}
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
# Close-ups of the sets that fold, framed on where each compresses most
# (--close_up: the heaviest cluster of its most shortened edges, followed
# frame by frame at one zoom), as the README demo frames the knee.
for entry in fox_walk:60 cloth_pants_knee:180 cesiumman_walk:0; do
  name=${entry%%:*} azimuth=${entry##*:}
  echo "gallery: $name close up (azimuth $azimuth)"
  "$render" --obj "$data/$name.obj" --pc2 "$data/$name.pc2" --out "$work/${name}_close_up" \
    --close_up --width 960 --height 720 --start_frame 8 --every 4 --sheet_rows 4 \
    --azimuth "$azimuth" --format jpeg --quality 85 > "$work/${name}_close_up.log"
  tail -n 1 "$work/${name}_close_up.log"
  cp "$work/${name}_close_up/contact_sheet.png" "$gallery/${name}_close_up.png"
done
# The other two models, plain | that model: the buckling model on the two open tubes
# (the knee from the side, where its folds gather), the wrinkle maps on the Fox's glTF
# (the OBJ has no UVs).
for entry in cloth_pants_knee:buckling:60 cloth_skirt_walk:buckling:0; do
  IFS=: read -r name model azimuth <<< "$entry"
  echo "gallery: $name, $model (azimuth $azimuth)"
  "$render" --model "$model" --obj "$data/$name.obj" --pc2 "$data/$name.pc2" \
    --out "$work/${name}_$model" --width 960 --height 720 --start_frame 8 --every 4 \
    --sheet_rows 4 --azimuth "$azimuth" --format jpeg --quality 85 > "$work/${name}_$model.log"
  tail -n 1 "$work/${name}_$model.log"
  cp "$work/${name}_$model/contact_sheet.png" "$gallery/${name}_$model.png"
done
# The Fox's other two clips from its glTF, which nobody tuned on: Survey (it stands
# and turns its head) over one clip, Run looped to 90 frames, as fox_walk loops Walk.
for entry in Survey:104 Run:90; do
  clip=${entry%%:*} frames=${entry##*:}
  name=fox_$(echo "$clip" | tr '[:upper:]' '[:lower:]')
  echo "gallery: Fox.glb $clip (azimuth 60)"
  "$render" --gltf "$data/Fox.glb" --animation "$clip" --loop --frames "$frames" \
    --out "$work/$name" --width 960 --height 720 --start_frame 8 --every 4 --sheet_rows 4 \
    --azimuth 60 --format jpeg --quality 85 > "$work/$name.log"
  tail -n 1 "$work/$name.log"
  cp "$work/$name/contact_sheet.png" "$gallery/$name.png"
done
echo "gallery: Fox.glb Walk, amplitude_maps (azimuth 60)"
"$render" --model amplitude_maps --gltf "$data/Fox.glb" --animation Walk --loop \
  --frames 60 --out "$work/fox_amplitude_maps" --width 960 --height 720 --start_frame 8 \
  --every 4 --sheet_rows 4 --azimuth 60 --format jpeg --quality 85 \
  > "$work/fox_amplitude_maps.log"
tail -n 1 "$work/fox_amplitude_maps.log"
cp "$work/fox_amplitude_maps/contact_sheet.png" "$gallery/fox_walk_amplitude_maps.png"
# The synthetic garments (docs/algorithm.md, "Synthetic animations"): the sleeve
# whole, from the side (rows: bending, held, straightening, straight), the same
# sleeve jittered every frame (docs/algorithm.md, "Noisy input"), and the
# gathered edge close up on its band, from the front, the pushed sheet whole, the
# cinched cuff close up on its band, and the belted sleeve and the twisted tube whole.
for entry in sleeve:sleeve:0:: sleeve_noisy:sleeve:0::--noise=0.02 \
    gathered_edge:gathered_edge:0:--close_up: pushed_sheet:pushed_sheet:0:: \
    cinched_cuff:cinched_cuff:0:--close_up: belted_sleeve:belted_sleeve:0:: \
    twisted_tube:twisted_tube:0::; do
  IFS=: read -r name shape azimuth framing synth_flags <<< "$entry"
  echo "gallery: synthetic $name (azimuth $azimuth)"
  "$synth" --shape "$shape" $synth_flags --out "$work/synthetic_$name" > /dev/null
  "$render" --obj "$work/synthetic_$name.obj" --pc2 "$work/synthetic_$name.pc2" \
    --out "$work/synthetic_$name" $framing --width 960 --height 720 --start_frame 8 \
    --every 4 --sheet_rows 4 --azimuth "$azimuth" --format jpeg --quality 85 \
    > "$work/synthetic_$name.log"
  tail -n 1 "$work/synthetic_$name.log"
  cp "$work/synthetic_$name/contact_sheet.png" "$gallery/synthetic_$name.png"
done
echo "gallery: contact sheets in $gallery"
