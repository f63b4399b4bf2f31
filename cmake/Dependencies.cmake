# Debian 12 packages only, found through find_package / pkg-config. No downloads.
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)

# libasio-dev: standalone, header-only Asio (no pkg-config file in Debian).
find_path(ASIO_INCLUDE_DIR asio.hpp REQUIRED)
add_library(apcgate_asio INTERFACE)
target_include_directories(apcgate_asio SYSTEM INTERFACE ${ASIO_INCLUDE_DIR})
target_compile_definitions(apcgate_asio INTERFACE ASIO_STANDALONE ASIO_NO_DEPRECATED)
target_link_libraries(apcgate_asio INTERFACE Threads::Threads)

find_package(pugixml REQUIRED)  # libpugixml-dev
find_package(fmt REQUIRED)      # libfmt-dev
find_package(spdlog REQUIRED)   # libspdlog-dev (uses the external fmt)
find_package(CLI11 CONFIG REQUIRED)  # libcli11-dev: subcommands, --help, validation
find_package(nlohmann_json REQUIRED)  # nlohmann-json3-dev: --json output of inspect/convert

# libpfm4-dev: names hardware events and encodes them into perf_event_attr (perf collector).
# Loaded with dlopen while it is used, not linked (collectors/pmu/libpfm.hpp says why): the
# build takes its headers and the soname of the library the -dev package installs.
find_path(PFM_INCLUDE_DIR perfmon/pfmlib_perf_event.h REQUIRED)
find_library(PFM_LIBRARY pfm REQUIRED)
get_filename_component(PFM_LIBRARY_REAL ${PFM_LIBRARY} REALPATH)
get_filename_component(PFM_LIBRARY_REAL_NAME ${PFM_LIBRARY_REAL} NAME)
string(REGEX MATCH "^libpfm\\.so\\.[0-9]+" PFM_SONAME "${PFM_LIBRARY_REAL_NAME}")
if(NOT PFM_SONAME)
  message(FATAL_ERROR "libpfm4: no soname in ${PFM_LIBRARY_REAL_NAME} (from ${PFM_LIBRARY})")
endif()
add_library(apcgate_pfm INTERFACE)
target_include_directories(apcgate_pfm SYSTEM INTERFACE ${PFM_INCLUDE_DIR})
target_compile_definitions(apcgate_pfm INTERFACE APCGATE_LIBPFM_SONAME="${PFM_SONAME}")
target_link_libraries(apcgate_pfm INTERFACE ${CMAKE_DL_LIBS})

pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET libelf)            # libelf-dev: XRay symbols
# libdivide-dev: divides by a divisor known only at run time with a multiply and a shift (FXT's
# ticks to ns). Header only; its CMake package sits in the build machine's multiarch directory,
# which a cross build does not search, so the header is found directly.
find_path(LIBDIVIDE_INCLUDE_DIR libdivide.h REQUIRED)
add_library(apcgate_libdivide INTERFACE)
target_include_directories(apcgate_libdivide SYSTEM INTERFACE ${LIBDIVIDE_INCLUDE_DIR})
find_package(ZLIB REQUIRED)  # zlib1g-dev: the CRC-32 that checks a .gnu_debuglink debug file
pkg_check_modules(BABELTRACE2 REQUIRED IMPORTED_TARGET babeltrace2)  # libbabeltrace2-dev: CTF

if(APCGATE_TESTS)
  find_package(GTest REQUIRED)  # libgtest-dev, libgmock-dev
endif()
if(APCGATE_BENCH)
  find_package(benchmark REQUIRED)  # libbenchmark-dev
endif()
pkg_check_modules(LIBSYSTEMD REQUIRED IMPORTED_TARGET libsystemd)    # libsystemd-dev: sd_notify
