# devport_warnings: the warning set every devport target compiles with (-Wall -Wextra clean).
add_library(devport_warnings INTERFACE)
target_compile_options(devport_warnings INTERFACE -Wall -Wextra -Wno-unused-parameter)
if(DEVPORT_WERROR)
  target_compile_options(devport_warnings INTERFACE -Werror)
endif()
