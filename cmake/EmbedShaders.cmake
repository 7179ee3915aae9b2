# cmake -DOUTPUT=file.cc -DINPUTS="a.vert|b.frag" -P EmbedShaders.cmake
# Writes one `extern const char kShader_<name>[]` per input, as raw string literals.
string(REPLACE "|" ";" INPUTS "${INPUTS}")
file(WRITE "${OUTPUT}" "// Generated from shaders/ by cmake/EmbedShaders.cmake. Do not edit.\n"
                       "namespace crease::shaders {\n")
foreach(input IN LISTS INPUTS)
  get_filename_component(name "${input}" NAME)
  string(MAKE_C_IDENTIFIER "${name}" id)
  file(READ "${input}" text)
  file(APPEND "${OUTPUT}" "extern const char kShader_${id}[] = R\"glsl(${text})glsl\";\n")
endforeach()
file(APPEND "${OUTPUT}" "}  // namespace crease::shaders\n")
