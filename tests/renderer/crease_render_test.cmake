# crease-render on 40 frames of the trouser knee: frames and a contact sheet of the
# expected size.
file(REMOVE_RECURSE "${OUT}")
execute_process(
  COMMAND "${RENDER}" --frames 40 --every 10 --width 160 --height 120 --sheet_rows 4
          --obj "${DATA}/cloth_pants_knee.obj" --pc2 "${DATA}/cloth_pants_knee.pc2"
          --out "${OUT}"
  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "crease-render exited ${rc}: ${err}")
endif()
# Per row, the share of the subject the wrinkles change (a row for each of the 4
# frames, 0, 10, 20, 30; frame 0 has no wrinkles yet).
if(NOT out MATCHES "by row: 0\\.0, [0-9]+\\.[0-9], [0-9]+\\.[0-9], [0-9]+\\.[0-9] %")
  message(FATAL_ERROR "no visible change by row in: ${out}")
endif()
foreach(f render_0000.jpg render_0030.jpg contact_sheet.png)
  if(NOT EXISTS "${OUT}/${f}")
    message(FATAL_ERROR "missing ${OUT}/${f}")
  endif()
endforeach()
# PNG header: width and height are big-endian 32-bit at bytes 16 and 20.
file(READ "${OUT}/contact_sheet.png" header LIMIT 24 HEX)
string(SUBSTRING "${header}" 32 16 size)
if(NOT size STREQUAL "00000140000001e0")
  message(FATAL_ERROR "contact sheet is not 320 x 480: ${size}")
endif()
# --model buckling draws the buckling model's mesh in the right column; a model it
# does not know is refused (exit 2: an invalid argument).
file(REMOVE_RECURSE "${OUT}")
execute_process(
  COMMAND "${RENDER}" --model buckling --frames 40 --every 36 --width 160 --height 120
          --obj "${DATA}/cloth_pants_knee.obj" --pc2 "${DATA}/cloth_pants_knee.pc2"
          --out "${OUT}" --format png
  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT EXISTS "${OUT}/render_0036.png")
  message(FATAL_ERROR "crease-render --model buckling exited ${rc}: ${err}")
endif()
execute_process(
  COMMAND "${RENDER}" --model nonsense --frames 1 --out "${OUT}"
          --obj "${DATA}/cloth_pants_knee.obj" --pc2 "${DATA}/cloth_pants_knee.pc2"
  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 2 OR NOT err MATCHES "need sca2015, amplitude_maps or buckling")
  message(FATAL_ERROR "crease-render --model nonsense: exit ${rc}: ${err}")
endif()
# --model amplitude_maps needs UVs: the knee has none.
execute_process(
  COMMAND "${RENDER}" --model amplitude_maps --frames 1 --out "${OUT}"
          --obj "${DATA}/cloth_pants_knee.obj" --pc2 "${DATA}/cloth_pants_knee.pc2"
  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 2 OR NOT err MATCHES "needs UVs")
  message(FATAL_ERROR "crease-render --model amplitude_maps on the knee: exit ${rc}: ${err}")
endif()
# On the Fox (glTF, with UVs) it draws the wrinkle maps.
file(REMOVE_RECURSE "${OUT}")
execute_process(
  COMMAND "${RENDER}" --model amplitude_maps --gltf "${DATA}/Fox.glb" --animation Walk
          --frames 12 --every 10 --width 160 --height 120 --out "${OUT}" --format png
  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT EXISTS "${OUT}/render_0010.png")
  message(FATAL_ERROR "crease-render --model amplitude_maps exited ${rc}: ${err}")
endif()
# --close_up frames where the knee compresses (image/close_up.h, tested in
# image_test): frame 36 comes out another picture than the whole leg's.
foreach(view whole close)
  set(flags "")
  if(view STREQUAL "close")
    set(flags --close_up)
  endif()
  file(REMOVE_RECURSE "${OUT}_${view}")
  execute_process(
    COMMAND "${RENDER}" ${flags} --frames 37 --every 36 --width 160 --height 120
            --obj "${DATA}/cloth_pants_knee.obj" --pc2 "${DATA}/cloth_pants_knee.pc2"
            --out "${OUT}_${view}" --format png
    RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0 OR NOT EXISTS "${OUT}_${view}/render_0036.png")
    message(FATAL_ERROR "crease-render ${flags} exited ${rc}: ${err}")
  endif()
  file(SHA256 "${OUT}_${view}/render_0036.png" hash_${view})
endforeach()
if(hash_whole STREQUAL hash_close)
  message(FATAL_ERROR "crease-render --close_up drew the same frame as without it")
endif()
