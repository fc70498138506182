# DEVPORT_SANITIZE=ON: AddressSanitizer + UndefinedBehaviorSanitizer for every target, with
# UBSan findings fatal so that ctest fails on them.
if((DEVPORT_SANITIZE OR DEVPORT_FUZZ) AND NOT CMAKE_C_COMPILER_ID STREQUAL CMAKE_CXX_COMPILER_ID)
  message(FATAL_ERROR "DEVPORT_SANITIZE and DEVPORT_FUZZ need C and C++ compilers of one family "
                      "(their sanitizer runtimes differ): C is ${CMAKE_C_COMPILER_ID}, C++ is "
                      "${CMAKE_CXX_COMPILER_ID}. Use -DCMAKE_C_COMPILER=clang-14 with clang++-14.")
endif()
if(DEVPORT_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined)
endif()
