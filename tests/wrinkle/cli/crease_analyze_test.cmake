# Runs crease-analyze on 5 frames of the trouser-knee animation and checks its outputs.
file(REMOVE_RECURSE "${OUT}")
execute_process(
  COMMAND "${ANALYZE}" --quiet --frames 5 --obj "${DATA}/cloth_pants_knee.obj"
          --pc2 "${DATA}/cloth_pants_knee.pc2" --out "${OUT}" --json "${OUT}/summary.json"
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "crease-analyze exited ${rc}: ${err}")
endif()
foreach(f frame_0000_labels.ply frame_0004_labels.ply frame_0004_compression.ply
          summary.txt summary.json)
  if(NOT EXISTS "${OUT}/${f}")
    message(FATAL_ERROR "missing output ${OUT}/${f}")
  endif()
endforeach()
file(READ "${OUT}/summary.json" json)
string(JSON frames GET "${json}" summary frames)
string(JSON triangles GET "${json}" triangles)
string(JSON last GET "${json}" frames 4 frame)
if(NOT frames EQUAL 5 OR NOT triangles EQUAL 792 OR NOT last EQUAL 4)
  message(FATAL_ERROR "unexpected summary: frames=${frames} triangles=${triangles}")
endif()
file(READ "${OUT}/frame_0004_labels.ply" ply LIMIT 400)
if(NOT ply MATCHES "element face 792")
  message(FATAL_ERROR "labels PLY header lacks 'element face 792'")
endif()
