# crease-synth writes the sleeve, the gathered edge, the pushed sheet, the cinched cuff,
# the belted sleeve and the twisted tube as OBJ + PC2 that
# crease-analyze reads (the sleeve's folds are born on the inside of the bend
# and die once it is straight), and names bad flags.
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
foreach(shape sleeve gathered_edge pushed_sheet cinched_cuff belted_sleeve twisted_tube)
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
file(READ "${OUT}/gathered_edge.json" json)
string(JSON frames GET "${json}" summary frames)
if(NOT frames EQUAL 120)
  message(FATAL_ERROR "gathered_edge: ${frames} frames, expected 120")
endif()
foreach(shape sleeve pushed_sheet cinched_cuff belted_sleeve twisted_tube)
  file(READ "${OUT}/${shape}.json" json)
  string(JSON frames GET "${json}" summary frames)
  string(JSON alive GET "${json}" frames 149 wrinkles)
  string(JSON births GET "${json}" summary births)
  if(NOT frames EQUAL 150 OR NOT alive EQUAL 0)
    message(FATAL_ERROR "${shape}: ${frames} frames (expected 150), ${births} born, ${alive} alive on the last (none should be, once straight)")
  endif()
endforeach()
file(READ "${OUT}/twisted_tube.json" json)
string(JSON triangles GET "${json}" triangles)
if(NOT triangles EQUAL 512)
  message(FATAL_ERROR "twisted_tube: ${triangles} triangles, expected 512 (16 x 16 quads)")
endif()
foreach(bad "--shape=cape;'cape' is none of sleeve, gathered_edge, pushed_sheet, cinched_cuff, belted_sleeve and twisted_tube"
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
execute_process(COMMAND "${SYNTH}" --shape cinched_cuff --twist 90 --out "${OUT}/bad"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "shapes the twisted tube only")
  message(FATAL_ERROR "crease-synth --shape cinched_cuff --twist 90: exit ${rc}, stderr: ${err}")
endif()
foreach(bad "--twist=400;--twist must be in \\[-360, 360\\]"
            "--angle=90;shape the sleeve only")
  list(GET bad 0 flag)
  list(GET bad 1 expected)
  execute_process(COMMAND "${SYNTH}" --shape twisted_tube ${flag} --out "${OUT}/bad"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT err MATCHES "${expected}")
    message(FATAL_ERROR "crease-synth --shape twisted_tube ${flag}: exit ${rc}, stderr: ${err}")
  endif()
endforeach()
execute_process(COMMAND "${SYNTH}" --shape sleeve RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "--out is required")
  message(FATAL_ERROR "crease-synth without --out: exit ${rc}, stderr: ${err}")
endif()
