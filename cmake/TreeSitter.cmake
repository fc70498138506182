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
set(_ts_py_srcs ${TS_PY}/parser.c ${TS_PY}/scanner.c)

# Profile-guided: tree-sitter's parse is half of a check's time. The sources are compiled
# once instrumented, cmake/tree-sitter-train.c parses the repository's own Python files
# with them (whole, in ranges, edited), and the libraries are compiled with that profile
# (docs/benchmarks.md: 12-18% less time a parse). GCC only; not under the sanitizers,
# whose builds should check tree-sitter as it is usually compiled.
set(_ts_pgo_default OFF)
if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND CMAKE_BUILD_TYPE MATCHES "^(Release|RelWithDebInfo)$"
   AND NOT DEVPORT_SANITIZE AND NOT DEVPORT_FUZZ)
  set(_ts_pgo_default ON)
endif()
option(DEVPORT_TREE_SITTER_PGO "Compile tree-sitter with a profile of its training run (GCC)"
       ${_ts_pgo_default})
if(DEVPORT_TREE_SITTER_PGO AND NOT CMAKE_C_COMPILER_ID STREQUAL "GNU")
  message(FATAL_ERROR "DEVPORT_TREE_SITTER_PGO needs GCC (the C compiler is ${CMAKE_C_COMPILER_ID})")
endif()

# The settings of each library: the instrumented and the final objects must be compiled alike
# (a difference changes the code that the counters count, and GCC drops the profile).
function(_ts_configure core python)
  target_include_directories(${core} SYSTEM PUBLIC ${TS_CORE}/include PRIVATE ${TS_CORE}/src)
  target_compile_definitions(${core} PRIVATE _POSIX_C_SOURCE=200112L _DEFAULT_SOURCE)
  set_target_properties(${core} PROPERTIES C_STANDARD 11 C_EXTENSIONS OFF
                                           POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${python} PRIVATE ${TS_PY})
  set_target_properties(${python} PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
  foreach(t ${core} ${python})
    if(DEVPORT_TREE_SITTER_PGO)
      target_compile_options(${t} PRIVATE -w -O3)
    else()
      target_compile_options(${t} PRIVATE -w -O2)
    endif()
  endforeach()
endfunction()

add_library(tree_sitter_core STATIC ${_ts_core_srcs})
add_library(tree_sitter_python STATIC ${_ts_py_srcs})
_ts_configure(tree_sitter_core tree_sitter_python)
target_link_libraries(tree_sitter_python PUBLIC tree_sitter_core)

if(DEVPORT_TREE_SITTER_PGO)
  # Each source's counters go to tree-sitter-profile/<library>-<file>.gcda, written by the
  # instrumented objects and read by the final ones: GCC names a file's counters, and tells
  # its static functions apart, by the auxiliary name that -dumpdir and -dumpbase set, which
  # would otherwise be the object's path (different for the two).
  set(_ts_profile_dir ${CMAKE_CURRENT_BINARY_DIR}/tree-sitter-profile)
  foreach(src ${_ts_core_srcs} ${_ts_py_srcs})
    get_filename_component(_name ${src} NAME)
    if(src IN_LIST _ts_py_srcs)
      set(_name python-${_name})
    else()
      set(_name core-${_name})
    endif()
    set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "-dumpbase;${_name}")
  endforeach()
  add_library(tree_sitter_core_instrumented OBJECT ${_ts_core_srcs})
  add_library(tree_sitter_python_instrumented OBJECT ${_ts_py_srcs})
  _ts_configure(tree_sitter_core_instrumented tree_sitter_python_instrumented)
  foreach(t tree_sitter_core_instrumented tree_sitter_python_instrumented)
    target_compile_options(${t} PRIVATE -dumpdir ${_ts_profile_dir}/ -fprofile-generate
                                        -fprofile-update=single)
  endforeach()
  add_executable(tree_sitter_train ${CMAKE_SOURCE_DIR}/cmake/tree-sitter-train.c
                 $<TARGET_OBJECTS:tree_sitter_core_instrumented>
                 $<TARGET_OBJECTS:tree_sitter_python_instrumented>)
  target_include_directories(tree_sitter_train PRIVATE ${TS_CORE}/include)
  set_target_properties(tree_sitter_train PROPERTIES C_STANDARD 11)
  target_link_options(tree_sitter_train PRIVATE -fprofile-generate)

  # The training inputs: the repository's Python files (rule fixtures, tests, scripts).
  file(GLOB_RECURSE _ts_train_inputs CONFIGURE_DEPENDS
       ${CMAKE_SOURCE_DIR}/tests/*.py ${CMAKE_SOURCE_DIR}/bench/*.py ${CMAKE_SOURCE_DIR}/tools/*.py)
  list(SORT _ts_train_inputs)
  set(_ts_train_list ${CMAKE_CURRENT_BINARY_DIR}/tree-sitter-train.list)
  string(REPLACE ";" "\n" _ts_train_lines "${_ts_train_inputs}")
  file(CONFIGURE OUTPUT ${_ts_train_list} CONTENT "${_ts_train_lines}\n")

  # Counters add up across runs: the old ones go first, so the profile is of one run.
  set(_ts_profile_stamp ${_ts_profile_dir}/trained.stamp)
  add_custom_command(
    OUTPUT ${_ts_profile_stamp}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${_ts_profile_dir}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_ts_profile_dir}
    COMMAND tree_sitter_train ${_ts_train_list}
    COMMAND ${CMAKE_COMMAND} -E touch ${_ts_profile_stamp}
    DEPENDS tree_sitter_train ${_ts_train_inputs} ${_ts_train_list}
    COMMENT "Training tree-sitter's profile on the repository's Python files"
    VERBATIM)
  add_custom_target(tree_sitter_profile DEPENDS ${_ts_profile_stamp})
  # The final objects are compiled after the training: an order, not a dependency (the
  # instrumented objects share their sources). When the sources change, both are compiled
  # again and the training runs in between; new training inputs alone retrain but do not
  # recompile.
  foreach(t tree_sitter_core tree_sitter_python)
    add_dependencies(${t} tree_sitter_profile)
    target_compile_options(${t} PRIVATE -dumpdir ${_ts_profile_dir}/ -fprofile-use
                                        -fprofile-partial-training)
  endforeach()
endif()
