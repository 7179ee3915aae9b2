# crease-client --compare_models on the trouser knee, given planar UVs, its own model
# the buckling one: the sheet has all four columns, plain | SCA 2015 | wrinkle maps |
# buckling, and the buckling column (the session's own, last) changes the bent knee
# visibly.
file(REMOVE_RECURSE "${OUT}")
execute_process(
  COMMAND "${SCRIPT}" "${SERVER}" "${CLIENT}" "${DATA}/cloth_pants_knee.obj"
          "${DATA}/cloth_pants_knee.pc2" "${OUT}" --frames 40 --image png --width 80
          --height 60 --contact_sheet --compare_models --sheet_rows 2 --planar_uvs
          --model buckling
  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "run-service-demo.sh (knee) exited ${rc}: ${err}")
endif()
file(READ "${OUT}/contact_sheet.png" size HEX OFFSET 16 LIMIT 8)
if(NOT size STREQUAL "0000014000000078")
  message(FATAL_ERROR "knee contact sheet is not 4 x 80 by 2 x 60 pixels: ${size}")
endif()
# The buckling column (the 4th) changes the bent knee most.
if(NOT err MATCHES "column 4 against plain: a median ([0-9.]+) %")
  message(FATAL_ERROR "no visible change for column 4: ${err}")
endif()
if(CMAKE_MATCH_1 LESS 5)
  message(FATAL_ERROR "the buckling column changed only ${CMAKE_MATCH_1} % of the knee")
endif()
