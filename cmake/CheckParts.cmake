# Each part stays in its room (docs/architecture.md): fails the configure step when a
# library reaches, through any chain of links, a library its part must not link.

# Every target `target` links, directly or through others, into `out`.
function(crease_linked_closure target out)
  set(seen "")
  set(queue ${target})
  while(queue)
    list(POP_FRONT queue current)
    if(NOT TARGET ${current} OR current IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${current})
    get_target_property(type ${current} TYPE)
    set(links "")
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(direct ${current} LINK_LIBRARIES)
      if(direct)
        list(APPEND links ${direct})
      endif()
    endif()
    get_target_property(interface ${current} INTERFACE_LINK_LIBRARIES)
    if(interface)
      list(APPEND links ${interface})
    endif()
    foreach(link IN LISTS links)
      # $<LINK_ONLY:x> and similar wrappers name x.
      string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" link "${link}")
      list(APPEND queue ${link})
    endforeach()
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

# crease_check_part(TARGET t FORBIDDEN a b ...): t must reach none of a, b, ...
function(crease_check_part)
  cmake_parse_arguments(PART "" "TARGET" "FORBIDDEN" ${ARGN})
  if(NOT TARGET ${PART_TARGET})
    return()
  endif()
  crease_linked_closure(${PART_TARGET} reached)
  foreach(forbidden IN LISTS PART_FORBIDDEN)
    if(forbidden IN_LIST reached)
      message(FATAL_ERROR "${PART_TARGET} links ${forbidden}, which its part must not "
                          "(docs/architecture.md, \"The parts\")")
    endif()
  endforeach()
endfunction()

# crease_check_includes(FOLDER f ALLOWED a b ...): the sources in folder f (not its
# subfolders) include from the project's wrinkle/ tree only headers of f and of the
# folders a, b, ... (each "wrinkle/x"); the folders' order in docs/architecture.md.
function(crease_check_includes)
  cmake_parse_arguments(RULE "" "FOLDER" "ALLOWED" ${ARGN})
  file(GLOB sources ${PROJECT_SOURCE_DIR}/${RULE_FOLDER}/*.h
       ${PROJECT_SOURCE_DIR}/${RULE_FOLDER}/*.cc)
  foreach(source IN LISTS sources)
    file(STRINGS ${source} includes REGEX "^#include \"wrinkle/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^#include \"(wrinkle/.*)/[^/]*\".*$" "\\1" folder "${line}")
      if(NOT folder STREQUAL RULE_FOLDER AND NOT folder IN_LIST RULE_ALLOWED)
        message(FATAL_ERROR "${source}: ${line} reaches ${folder}, which "
                            "${RULE_FOLDER} must not include (docs/architecture.md, "
                            "\"The wrinkle/ folders\")")
      endif()
    endforeach()
  endforeach()
endfunction()
