# `PROGRAM --help` lists the program's own flags with their defaults (absl's
# default listed none of ours: "No flags matched"). -DPROGRAM=path
# -DFLAGS=a;b;c: flags that must be listed.
execute_process(COMMAND ${PROGRAM} --help
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
set(text "${out}${err}")
if(text MATCHES "No flags matched")
  message(FATAL_ERROR "${PROGRAM} --help lists no flags:\n${text}")
endif()
set(missing "")
foreach(flag IN LISTS FLAGS)
  string(FIND "${text}" "--${flag} (" at)
  if(at EQUAL -1)
    list(APPEND missing ${flag})
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "${PROGRAM} --help does not list: ${missing}\n${text}")
endif()
string(REGEX MATCHALL "default: " defaults "${text}")
list(LENGTH defaults default_count)
list(LENGTH FLAGS flag_count)
if(default_count LESS flag_count)
  message(FATAL_ERROR "${PROGRAM} --help: ${default_count} defaults for at least ${flag_count} flags\n${text}")
endif()
# absl's own flags belong to --helpfull, not --help.
if(text MATCHES "--flagfile")
  message(FATAL_ERROR "${PROGRAM} --help lists absl's flags too")
endif()
