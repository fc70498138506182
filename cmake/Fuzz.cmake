# DEVPORT_FUZZ=ON: the libFuzzer targets of fuzz/ (docs/testing.md). Every target is compiled
# with the fuzzer's coverage instrumentation plus AddressSanitizer and UndefinedBehaviorSanitizer
# (UBSan findings fatal); the fuzz executables link libFuzzer (-fsanitize=fuzzer, fuzz/CMakeLists.txt).
# Needs clang: Debian's libFuzzer for clang-14 is in libclang-rt-14-dev.
if(DEVPORT_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "DEVPORT_FUZZ needs clang (-DCMAKE_CXX_COMPILER=clang++-14)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined
                      -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined)
endif()
