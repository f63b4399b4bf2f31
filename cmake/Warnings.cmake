add_library(apcgate_warnings INTERFACE)
target_compile_options(apcgate_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow
                       -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
                       -Wimplicit-fallthrough)

# apcgate_library(NAME DIR DEPS...): one static library per layer, sources globbed from DIR.
function(apcgate_library name dir)
  file(GLOB srcs CONFIGURE_DEPENDS ${dir}/*.cpp)
  add_library(${name} STATIC ${srcs})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${ARGN} PRIVATE apcgate_warnings)
endfunction()

# apcgate_hot_path(NAME): a library a conversion spends its time in (XRay's decoding and
# mapping, the APC encoder) is built with -O3 in the optimised builds: RelWithDebInfo's -O2 leaves
# a few per cent in their loops (docs/performance.md). The rest keeps -O2.
function(apcgate_hot_path name)
  target_compile_options(${name} PRIVATE $<$<CONFIG:RelWithDebInfo>:-O3>)
endfunction()
