# Cross-compiling for 64-bit Arm (most Streamline targets) with Debian's multiarch packages:
# g++-aarch64-linux-gnu and the :arm64 -dev packages (.ci/cross-aarch64 installs them). The
# libraries live in /usr/lib/aarch64-linux-gnu, the headers are the shared /usr/include; tests run
# under qemu-user (CMAKE_CROSSCOMPILING_EMULATOR, also used by gtest_discover_tests).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# pkg-config must see the arm64 .pc files only.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
find_program(APCGATE_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(APCGATE_QEMU_AARCH64)
  # libc6:arm64 puts the loader at /lib/ld-linux-aarch64.so.1, so no -L sysroot is needed.
  set(CMAKE_CROSSCOMPILING_EMULATOR "${APCGATE_QEMU_AARCH64}")
endif()
