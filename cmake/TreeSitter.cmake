# tree_sitter_core + tree_sitter_python: the C sources pinned by package.json/package-lock.json
# (npm ci --ignore-scripts puts them in node_modules/), compiled here as static libraries.
set(TS_CORE "${CMAKE_SOURCE_DIR}/node_modules/tree-sitter/vendor/tree-sitter/lib")
set(TS_PY   "${CMAKE_SOURCE_DIR}/node_modules/tree-sitter-python/src")
if(NOT EXISTS "${TS_CORE}/src/lib.c" OR NOT EXISTS "${TS_PY}/parser.c")
  message(FATAL_ERROR "tree-sitter sources missing: run `npm ci --ignore-scripts` (scripts/bootstrap.sh does)")
endif()
set(_ts_core_srcs) # per-file instead of the unity lib.c: parallelises on -j2
foreach(f alloc get_changed_ranges language lexer node parser query stack subtree tree_cursor tree wasm_store)
  list(APPEND _ts_core_srcs ${TS_CORE}/src/${f}.c)
endforeach()
add_library(tree_sitter_core STATIC ${_ts_core_srcs})
target_include_directories(tree_sitter_core SYSTEM PUBLIC ${TS_CORE}/include PRIVATE ${TS_CORE}/src)
target_compile_definitions(tree_sitter_core PRIVATE _POSIX_C_SOURCE=200112L _DEFAULT_SOURCE)
set_target_properties(tree_sitter_core PROPERTIES C_STANDARD 11 C_EXTENSIONS OFF POSITION_INDEPENDENT_CODE ON)
target_compile_options(tree_sitter_core PRIVATE -w -O2)

add_library(tree_sitter_python STATIC ${TS_PY}/parser.c ${TS_PY}/scanner.c)
target_include_directories(tree_sitter_python PRIVATE ${TS_PY})
set_target_properties(tree_sitter_python PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
target_compile_options(tree_sitter_python PRIVATE -w -O2)
target_link_libraries(tree_sitter_python PUBLIC tree_sitter_core)
