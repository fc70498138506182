# DEVPORT_SANITIZE=ON: AddressSanitizer + UndefinedBehaviorSanitizer for every target, with
# UBSan findings fatal so that ctest fails on them.
if(DEVPORT_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined)
endif()
