# crease_check_includes (cmake/CheckParts.cmake) on folders made here: it accepts a
# folder that includes only what it may and fails on one that reaches a folder it
# must not. -DCHECK_PARTS=path/to/CheckParts.cmake -DWORK=scratch directory.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/wrinkle/low" "${WORK}/wrinkle/high")
file(WRITE "${WORK}/wrinkle/low/a.h" "#include \"wrinkle/low/b.h\"\n")
file(WRITE "${WORK}/wrinkle/high/c.cc" "#include \"wrinkle/low/a.h\"\n")
function(run_rule folder allowed out)
  file(WRITE "${WORK}/rule.cmake"
       "cmake_minimum_required(VERSION 3.25)\n"
       "set(PROJECT_SOURCE_DIR \"${WORK}\")\ninclude(\"${CHECK_PARTS}\")\n"
       "crease_check_includes(FOLDER ${folder} ALLOWED ${allowed})\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -P "${WORK}/rule.cmake"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  set(${out} "${rc};${err}" PARENT_SCOPE)
endfunction()
run_rule(wrinkle/high wrinkle/low allowed)
list(GET allowed 0 rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "an allowed include was refused: ${allowed}")
endif()
run_rule(wrinkle/low "\"\"" own)
list(GET own 0 rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a folder's include of itself was refused: ${own}")
endif()
file(WRITE "${WORK}/wrinkle/low/d.h" "#include \"wrinkle/high/c.h\"\n")
run_rule(wrinkle/low "\"\"" upward)
list(GET upward 0 rc)
if(rc EQUAL 0 OR NOT upward MATCHES "reaches wrinkle/high")
  message(FATAL_ERROR "an include of a higher folder passed: ${upward}")
endif()
