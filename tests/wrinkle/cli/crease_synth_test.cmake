# crease-synth writes the sleeve and the gathered edge as OBJ + PC2 that
# crease-analyze reads (the sleeve's folds are born on the inside of the bend
# and die once it is straight), and names bad flags.
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
foreach(shape sleeve gathered_edge)
  execute_process(COMMAND "${SYNTH}" --shape ${shape} --out "${OUT}/${shape}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "crease-synth --shape ${shape} exited ${rc}: ${err}")
  endif()
  execute_process(
    COMMAND "${ANALYZE}" --quiet --obj "${OUT}/${shape}.obj" --pc2 "${OUT}/${shape}.pc2"
            --json "${OUT}/${shape}.json"
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "crease-analyze on the ${shape} exited ${rc}: ${err}")
  endif()
  file(READ "${OUT}/${shape}.json" json)
  string(JSON frames GET "${json}" summary frames)
  string(JSON triangles GET "${json}" triangles)
  string(JSON births GET "${json}" summary births)
  string(JSON deaths GET "${json}" summary ended)
  message(STATUS "${shape}: ${frames} frames, ${triangles} triangles, ${births} born, ${deaths} died")
  if(births LESS 3)
    message(FATAL_ERROR "${shape}: only ${births} folds born")
  endif()
endforeach()
string(JSON frames GET "${json}" summary frames)
if(NOT frames EQUAL 120)
  message(FATAL_ERROR "gathered_edge: ${frames} frames, expected 120")
endif()
file(READ "${OUT}/sleeve.json" json)
string(JSON frames GET "${json}" summary frames)
string(JSON births GET "${json}" summary births)
string(JSON deaths GET "${json}" summary ended)
if(NOT frames EQUAL 150 OR NOT deaths EQUAL births)
  message(FATAL_ERROR "sleeve: ${frames} frames (expected 150), ${births} born, ${deaths} died (all should, once straight)")
endif()
foreach(bad "--shape=cape;'cape' is neither sleeve nor gathered_edge"
            "--angle=170;--angle must be in \\[0, 150\\]"
            "--noise=-1;--noise must be in \\[0, 0.5\\]"
            "--around=2;--around must be in \\[3, 256\\]")
  list(GET bad 0 flag)
  list(GET bad 1 expected)
  execute_process(COMMAND "${SYNTH}" ${flag} --out "${OUT}/bad"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT err MATCHES "${expected}")
    message(FATAL_ERROR "crease-synth ${flag}: exit ${rc}, stderr: ${err}")
  endif()
endforeach()
execute_process(COMMAND "${SYNTH}" --shape gathered_edge --angle 45 --out "${OUT}/bad"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "shape the sleeve only")
  message(FATAL_ERROR "crease-synth --shape gathered_edge --angle 45: exit ${rc}, stderr: ${err}")
endif()
execute_process(COMMAND "${SYNTH}" --shape sleeve RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "--out is required")
  message(FATAL_ERROR "crease-synth without --out: exit ${rc}, stderr: ${err}")
endif()
