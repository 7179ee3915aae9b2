# The README's service demo on 30 frames: crease-server on a free port, crease-client
# with paths, JPEG frames and a contact sheet, then SIGTERM. Checks the files and the
# summary.
file(REMOVE_RECURSE "${OUT}")
execute_process(
  COMMAND "${SCRIPT}" "${SERVER}" "${CLIENT}" "${DATA}/cloth_pants_knee.obj"
          "${DATA}/cloth_pants_knee.pc2" "${OUT}" --frames 30 --image jpeg
          --width 160 --height 120 --contact_sheet --sheet_rows 3 --min_width 0.012
  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "run-service-demo.sh exited ${rc}: ${err}")
endif()
# The script checks health first, as a container's HEALTHCHECK does.
if(NOT out MATCHES "127.0.0.1:[0-9]+: SERVING")
  message(FATAL_ERROR "no SERVING line from crease-client --health: ${out}")
endif()
foreach(f frame_0000.jpg frame_0029.jpg contact_sheet.png wrinkles.jsonl summary.json)
  if(NOT EXISTS "${OUT}/${f}")
    message(FATAL_ERROR "missing ${OUT}/${f}")
  endif()
endforeach()
file(STRINGS "${OUT}/wrinkles.jsonl" lines)
list(LENGTH lines count)
if(NOT count EQUAL 30)
  message(FATAL_ERROR "wrinkles.jsonl has ${count} lines, want 30")
endif()
file(READ "${OUT}/summary.json" summary)
string(JSON frames GET "${summary}" frames)
string(JSON errors GET "${summary}" frame_errors)
string(JSON p50 GET "${summary}" latency_ms p50)
if(NOT frames EQUAL 30 OR NOT errors EQUAL 0 OR p50 LESS_EQUAL 0)
  message(FATAL_ERROR "summary: ${summary}")
endif()
# The contact sheet: 3 rows of 160 x 120 pairs: 320 x 360.
file(READ "${OUT}/contact_sheet.png" header LIMIT 24 HEX)
string(SUBSTRING "${header}" 32 16 size)
if(NOT size STREQUAL "0000014000000168")
  message(FATAL_ERROR "contact sheet is not 320 x 360: ${size}")
endif()
if(NOT err MATCHES "crease-server: stopped")
  message(FATAL_ERROR "the server did not stop gracefully: ${err}")
endif()
