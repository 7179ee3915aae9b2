# crease-client --video on 24 frames of the trouser knee with a contact sheet: an
# H.264 MP4 of plain | wrinkled pairs, checked with ffprobe (codec, frame count, size).
file(REMOVE_RECURSE "${OUT}")
execute_process(
  COMMAND "${SCRIPT}" "${SERVER}" "${CLIENT}" "${DATA}/cloth_pants_knee.obj"
          "${DATA}/cloth_pants_knee.pc2" "${OUT}" --frames 24 --image jpeg --width 160
          --height 120 --contact_sheet --sheet_rows 2 --video "${OUT}/knee.mp4"
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "run-service-demo.sh --video exited ${rc}: ${err}")
endif()
execute_process(
  COMMAND "${FFPROBE}" -v error -select_streams v:0 -count_frames
          -show_entries stream=codec_name,width,height,nb_read_frames -of csv=p=0
          "${OUT}/knee.mp4"
  RESULT_VARIABLE rc OUTPUT_VARIABLE probe ERROR_VARIABLE err)
string(STRIP "${probe}" probe)
if(NOT rc EQUAL 0 OR NOT probe STREQUAL "h264,320,120,24")
  message(FATAL_ERROR "ffprobe: '${probe}' (want h264,320,120,24) ${err}")
endif()
