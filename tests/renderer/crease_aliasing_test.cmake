# The anti-aliasing target: on every bundled set at 480x360 and 960x720, the
# wrinkled frame's mean difference from its 4x supersampled reference is at
# most 1.25 times the plain frame's (docs/algorithm.md, "Anti-aliasing
# target"). Wrinkles that alias (stipple along them, crawling dots) raised it
# to 2.5-4 times before the filtered shading.
execute_process(
  COMMAND "${ALIASING}" --data "${DATA}"
          --sets fox_walk,cloth_pants_knee,cesiumman_walk --sizes 480x360,960x720
  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "crease-aliasing exited ${rc}: ${err}")
endif()
string(REGEX MATCHALL "[a-z_]+ +frame +[0-9]+ +[0-9]+x[0-9]+ +plain +[0-9.]+ wrinkled +[0-9.]+"
       lines "${out}${err}")
list(LENGTH lines count)
if(NOT count EQUAL 6)
  message(FATAL_ERROR "expected 6 set x size lines, got ${count}:\n${out}${err}")
endif()
set(failed "")
foreach(line IN LISTS lines)
  string(REGEX REPLACE ".*plain +([0-9.]+) wrinkled +([0-9.]+)" "\\1;\\2" pair "${line}")
  list(GET pair 0 plain)
  list(GET pair 1 wrinkled)
  # CMake has no floating point: compare in thousandths (the tool prints 3
  # decimals), wrinkled * 100 <= plain * 125.
  set(milli "")
  foreach(value IN ITEMS "${plain}" "${wrinkled}")
    string(REGEX MATCH "^([0-9]+)\\.([0-9][0-9][0-9])$" ok "${value}")
    if(NOT ok)
      message(FATAL_ERROR "not d.ddd: ${value}")
    endif()
    # 1ddd - 1000: no leading zero for math(EXPR) to misread.
    math(EXPR thousandths "${CMAKE_MATCH_1} * 1000 + 1${CMAKE_MATCH_2} - 1000")
    list(APPEND milli ${thousandths})
  endforeach()
  list(GET milli 0 plain_milli)
  list(GET milli 1 wrinkled_milli)
  math(EXPR lhs "${wrinkled_milli} * 100")
  math(EXPR rhs "${plain_milli} * 125")
  message(STATUS "${line}")
  if(lhs GREATER rhs)
    string(APPEND failed "\n  ${line}: wrinkled over 1.25 x plain")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "aliasing target missed:${failed}")
endif()
