# llvm_deps: LLVM 14 Support (YAML parser, JSON, ThreadPool, Path) from Debian's llvm-14-dev,
# linked as the shared libLLVM. clang_deps adds the shared libclang-cpp for the C++ engine.
# See ../shared/TOOLCHAIN.md section 3 for why these exact lines.
find_package(LLVM REQUIRED CONFIG HINTS /usr/lib/llvm-14/lib/cmake/llvm)
if(NOT LLVM_VERSION_MAJOR EQUAL 14)
  message(FATAL_ERROR "devport needs LLVM 14, found ${LLVM_PACKAGE_VERSION}")
endif()
find_package(Clang REQUIRED CONFIG HINTS /usr/lib/llvm-14/lib/cmake/clang) # no version file

separate_arguments(_llvm_defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
add_library(llvm_deps INTERFACE)
target_compile_definitions(llvm_deps INTERFACE ${_llvm_defs})
target_include_directories(llvm_deps SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_link_libraries(llvm_deps INTERFACE LLVM) # the dylib; never static LLVMSupport next to it

set(CLANG_RESOURCE_DIR "${LLVM_LIBRARY_DIR}/clang/${LLVM_PACKAGE_VERSION}")
add_library(clang_deps INTERFACE)
target_compile_definitions(clang_deps INTERFACE CLANG_RESOURCE_DIR="${CLANG_RESOURCE_DIR}")
target_include_directories(clang_deps SYSTEM INTERFACE ${CLANG_INCLUDE_DIRS})
target_link_libraries(clang_deps INTERFACE clang-cpp llvm_deps)
