// The one translation unit that compiles tinygltf (Debian's libtinygltf-dev
// ships the header; its shared library is not linked, so that the fuzz build
// instruments the parser too). The CMake target defines, for every file of
// crease_gltf alike: TINYGLTF_NO_STB_IMAGE and TINYGLTF_NO_STB_IMAGE_WRITE (no
// image codecs at all; gltf_model.cc installs a loader that leaves images
// undecoded), TINYGLTF_NO_EXTERNAL_IMAGE (image files are never opened) and
// TINYGLTF_NO_FS (files are read only through gltf_model.cc's callbacks).
#include <fstream>  // tinygltf 2.7's writer uses it even with TINYGLTF_NO_FS

#define TINYGLTF_IMPLEMENTATION
#include "tiny_gltf.h"
