# crease-client --gltf end to end: the Fox's "Walk" clip from data/Fox.glb, looped for
# 24 frames, streamed to a crease-server on a free loopback port, with paths and small
# JPEG frames, and a contact sheet comparing the wrinkle models. Checks the frames,
# the summary and that the sheet has three columns (plain | SCA 2015 | wrinkle maps).
file(REMOVE_RECURSE "${OUT}")
execute_process(
  COMMAND "${SCRIPT}" "${SERVER}" "${CLIENT}" "${DATA}/Fox.glb" - "${OUT}"
          --animation Walk --loop --frames 24 --image jpeg --width 160 --height 120
          --contact_sheet --compare_models --sheet_rows 2
  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "run-service-demo.sh exited ${rc}: ${err}")
endif()
foreach(f frame_0000.jpg frame_0023.jpg wrinkles.jsonl summary.json contact_sheet.png)
  if(NOT EXISTS "${OUT}/${f}")
    message(FATAL_ERROR "missing ${OUT}/${f}")
  endif()
endforeach()
file(READ "${OUT}/summary.json" summary)
string(JSON frames GET "${summary}" frames)
string(JSON errors GET "${summary}" frame_errors)
if(NOT frames EQUAL 24 OR NOT errors EQUAL 0)
  message(FATAL_ERROR "summary: ${summary}")
endif()
# The PNG's IHDR: width then height, big-endian, from byte 16.
file(READ "${OUT}/contact_sheet.png" size HEX OFFSET 16 LIMIT 8)
if(NOT size STREQUAL "000001e0000000f0")
  message(FATAL_ERROR "contact sheet is not 3 x 160 by 2 x 120 pixels: ${size}")
endif()
# The Fox has no open tube: the buckling model's column is left out, saying why.
if(NOT err MATCHES "no WRINKLE_MODEL_BUCKLING column: .*no part of the mesh is an open tube")
  message(FATAL_ERROR "no word on the buckling column: ${err}")
endif()

