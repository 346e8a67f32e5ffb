# SPDX-License-Identifier: Apache-2.0
# aarch64-linux-gnu.cmake - cross-compile fastcrypto for arm64 Linux on a
# Debian/Ubuntu x86-64 host, against the multiarch arm64 packages
# (libssl-dev:arm64, libcmocka-dev:arm64), and run the tests under qemu.
#
#   cmake -S . -B build-arm64 \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#   cmake --build build-arm64 && ctest --test-dir build-arm64
#
# scripts/test_arm64.sh installs the packages and does all of this.
#
# Layout this file relies on (Debian multiarch): the cross compiler
# aarch64-linux-gnu-gcc (gcc-aarch64-linux-gnu) with its C library under
# /usr/aarch64-linux-gnu (libc6-dev-arm64-cross); arm64 libraries under
# /usr/lib/aarch64-linux-gnu; architecture-independent headers in
# /usr/include and the arm64 ones in /usr/include/aarch64-linux-gnu.
#
# Cache variables a caller may override:
#   FC_AARCH64_TRIPLE     compiler prefix (default aarch64-linux-gnu)
#   FC_AARCH64_QEMU_LD_PREFIX  qemu's -L prefix, where the arm64
#                         ld-linux-aarch64.so.1 and libc.so.6 are taken from
#                         (default: "/" when the multiarch libc6:arm64 is
#                         installed, else /usr/aarch64-linux-gnu; see below)
#   FC_AARCH64_QEMU       the emulator (default qemu-aarch64 from PATH)
#   FC_AARCH64_QEMU_CPU   qemu -cpu model (default max: AES, PMULL, SHA3,
#                         BTI and PAC all on)

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(FC_AARCH64_TRIPLE "aarch64-linux-gnu" CACHE STRING
    "Cross compiler prefix")
set(FC_AARCH64_QEMU_CPU "max" CACHE STRING "qemu-aarch64 -cpu model")

set(CMAKE_C_COMPILER "${FC_AARCH64_TRIPLE}-gcc")
set(CMAKE_ASM_COMPILER "${FC_AARCH64_TRIPLE}-gcc")
# Multiarch library directory: find_library/find_package look in
# /usr/lib/aarch64-linux-gnu, never in the host's x86_64 one.
set(CMAKE_LIBRARY_ARCHITECTURE "${FC_AARCH64_TRIPLE}")

# Programs (pkg-config, perl, the host's openssl) run on the host; libraries
# and headers come from the multiarch arm64 tree. The root "/" keeps the
# multiarch paths reachable; CMAKE_LIBRARY_ARCHITECTURE picks the arm64 ones.
set(CMAKE_FIND_ROOT_PATH "/")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config (cmocka) must read the arm64 .pc files, not the host's.
set(ENV{PKG_CONFIG_LIBDIR}
    "/usr/lib/${FC_AARCH64_TRIPLE}/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# FindOpenSSL: the arm64 libcrypto, explicitly (the header directory is
# shared; opensslconf.h and configuration.h come from the compiler's
# multiarch include path).
if(EXISTS "/usr/lib/${FC_AARCH64_TRIPLE}/libcrypto.so")
  set(OPENSSL_CRYPTO_LIBRARY "/usr/lib/${FC_AARCH64_TRIPLE}/libcrypto.so"
      CACHE FILEPATH "arm64 libcrypto")
  set(OPENSSL_SSL_LIBRARY "/usr/lib/${FC_AARCH64_TRIPLE}/libssl.so"
      CACHE FILEPATH "arm64 libssl")
  set(OPENSSL_INCLUDE_DIR "/usr/include" CACHE PATH "OpenSSL headers")
endif()

# ctest and add_custom_command run the arm64 binaries through qemu-aarch64
# explicitly, so no binfmt_misc registration is needed.
#
# The dynamic loader and libc.so.6 must come from the same glibc build. The
# arm64 libraries we load (libcrypto.so.3, libcmocka.so.0) pull in the
# multiarch libc6:arm64 from /lib/aarch64-linux-gnu through the loader's
# search path whatever the -L prefix, while -L /usr/aarch64-linux-gnu
# would take the loader from libc6-arm64-cross, a different build: that
# mix runs most programs but hangs the child of every fork(2). So with
# libc6:arm64 installed (libssl3:arm64 depends on it) the prefix is "/",
# and the whole C library is the multiarch one, as on an arm64 Debian.
if(NOT FC_AARCH64_QEMU_LD_PREFIX)
  if(EXISTS "/usr/lib/${FC_AARCH64_TRIPLE}/libc.so.6"
     AND EXISTS "/lib/ld-linux-aarch64.so.1")
    set(FC_AARCH64_QEMU_LD_PREFIX "/")
  else()
    set(FC_AARCH64_QEMU_LD_PREFIX "/usr/${FC_AARCH64_TRIPLE}")
  endif()
endif()
find_program(FC_AARCH64_QEMU NAMES qemu-aarch64 qemu-aarch64-static)
if(FC_AARCH64_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR
      "${FC_AARCH64_QEMU};-cpu;${FC_AARCH64_QEMU_CPU};-L;${FC_AARCH64_QEMU_LD_PREFIX}")
endif()

# Where `make install` puts fastcrypto.so on the arm64 target: the host's
# `openssl version -m` names the x86-64 directory, so it is not asked.
if(NOT FASTCRYPTO_MODULESDIR)
  set(FASTCRYPTO_MODULESDIR "/usr/lib/${FC_AARCH64_TRIPLE}/ossl-modules"
      CACHE PATH "Directory fastcrypto.so is installed into (OpenSSL MODULESDIR)")
endif()
