# llvm_deps: LLVM 14 Support (YAML parser, JSON, ThreadPool, Path) from Debian's llvm-14-dev,
# linked as the shared libLLVM. clang_deps adds the shared libclang-cpp for the C++ engine.
# See ../shared/TOOLCHAIN.md section 3 for why these exact lines.
#
# An executable with the property DEVPORT_STATIC_LLVM set (the devport program, unless
# -DDEVPORT_STATIC_LLVM=OFF) links the static archives of the same packages instead: the
# shared libraries cost every run 15 ms before main() (relocating and initialising 110 MB of
# libLLVM and libclang-cpp; docs/architecture.md, "Linking"), the archives only the objects
# devport uses. Test, fuzz and bench executables keep the shared libraries (quick links).
find_package(LLVM REQUIRED CONFIG HINTS /usr/lib/llvm-14/lib/cmake/llvm)
if(NOT LLVM_VERSION_MAJOR EQUAL 14)
  message(FATAL_ERROR "devport needs LLVM 14, found ${LLVM_PACKAGE_VERSION}")
endif()
find_package(Clang REQUIRED CONFIG HINTS /usr/lib/llvm-14/lib/cmake/clang) # no version file

separate_arguments(_llvm_defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
add_library(llvm_deps INTERFACE)
target_compile_definitions(llvm_deps INTERFACE ${_llvm_defs})
target_include_directories(llvm_deps SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
set(_static "$<BOOL:$<TARGET_PROPERTY:DEVPORT_STATIC_LLVM>>")
# Never static LLVMSupport next to the dylib: one or the other, chosen by the executable.
# The imported static LLVM targets carry their system libraries (zlib, terminfo).
llvm_map_components_to_libnames(_llvm_archives support option frontendopenmp core mc mcparser
                                profiledata binaryformat object textapi demangle)
list(JOIN _llvm_archives "$<SEMICOLON>" _llvm_archives)
target_link_libraries(llvm_deps INTERFACE "$<IF:${_static},${_llvm_archives},LLVM>")

set(CLANG_RESOURCE_DIR "${LLVM_LIBRARY_DIR}/clang/${LLVM_PACKAGE_VERSION}")
add_library(clang_deps INTERFACE)
target_compile_definitions(clang_deps INTERFACE CLANG_RESOURCE_DIR="${CLANG_RESOURCE_DIR}")
target_include_directories(clang_deps SYSTEM INTERFACE ${CLANG_INCLUDE_DIRS})
# Debian's imported static clang targets name the LLVM dylib, so the archives are named by
# path, in a group (they refer to each other).
set(_clang_archives)
foreach(_lib Tooling ToolingCore ToolingInclusions Frontend Driver Serialization Parse Sema
        Analysis Edit AST ASTMatchers DynamicASTMatchers Format Rewrite Lex Basic)
  list(APPEND _clang_archives "${LLVM_LIBRARY_DIR}/libclang${_lib}.a")
endforeach()
list(JOIN _clang_archives "$<SEMICOLON>" _clang_archives)
target_link_libraries(clang_deps INTERFACE
  "$<IF:${_static},-Wl$<COMMA>--start-group$<SEMICOLON>${_clang_archives}$<SEMICOLON>-Wl$<COMMA>--end-group,clang-cpp>"
  llvm_deps)
