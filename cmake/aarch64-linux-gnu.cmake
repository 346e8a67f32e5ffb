# SPDX-License-Identifier: Apache-2.0
# aarch64-linux-gnu.cmake - cross-compile fastcrypto for arm64 Linux on a
# Debian/Ubuntu x86-64 host, and run the tests under qemu.
#
#   root=$(scripts/arm64_sysroot.sh | tail -n 1)
#   cmake -S . -B build-arm64 -DFC_AARCH64_SYSROOT="$root" \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#   cmake --build build-arm64 && ctest --test-dir build-arm64
#
# scripts/test_arm64.sh does all of this.
#
# The compiler is the Debian cross compiler aarch64-linux-gnu-gcc
# (gcc-aarch64-linux-gnu) with its own C library under /usr/aarch64-linux-gnu
# (libc6-dev-arm64-cross), which the build links against. The arm64
# OpenSSL and CMocka, and the C library the programs run on, come from one
# arm64 root laid out as Debian multiarch (arm64 libraries in
# <root>/usr/lib/aarch64-linux-gnu and <root>/lib/aarch64-linux-gnu, the
# headers in <root>/usr/include and <root>/usr/include/aarch64-linux-gnu):
#   - FC_AARCH64_SYSROOT set: a private sysroot of arm64 .debs unpacked with
#     dpkg -x (scripts/arm64_sysroot.sh), nothing installed on the host;
#   - unset: "/", the multiarch packages libssl-dev:arm64 and
#     libcmocka-dev:arm64 installed on the host (they must then be at the
#     host's own libssl-dev version, Multi-Arch: same).
#
# Cache variables a caller may override:
#   FC_AARCH64_SYSROOT    the arm64 root (default: empty, i.e. "/")
#   FC_AARCH64_TRIPLE     compiler prefix (default aarch64-linux-gnu)
#   FC_AARCH64_QEMU_LD_PREFIX  qemu's -L prefix, where the arm64
#                         ld-linux-aarch64.so.1 and libc.so.6 are taken from
#                         (default: the sysroot; without one "/" when the
#                         multiarch libc6:arm64 is installed, else
#                         /usr/aarch64-linux-gnu; see below)
#   FC_AARCH64_QEMU       the emulator (default qemu-aarch64 from PATH)
#   FC_AARCH64_QEMU_CPU   qemu -cpu model (default max: AES, PMULL, SHA3,
#                         BTI and PAC all on)

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(FC_AARCH64_TRIPLE "aarch64-linux-gnu" CACHE STRING
    "Cross compiler prefix")
set(FC_AARCH64_QEMU_CPU "max" CACHE STRING "qemu-aarch64 -cpu model")
set(FC_AARCH64_SYSROOT "" CACHE PATH
    "arm64 root with OpenSSL, CMocka and libc (empty: the host's multiarch)")
# try_compile projects see the same root.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES FC_AARCH64_SYSROOT
     FC_AARCH64_TRIPLE)

set(CMAKE_C_COMPILER "${FC_AARCH64_TRIPLE}-gcc")
set(CMAKE_ASM_COMPILER "${FC_AARCH64_TRIPLE}-gcc")
# Multiarch library directory: find_library/find_package look in
# <root>/usr/lib/aarch64-linux-gnu, never in the host's x86_64 one.
set(CMAKE_LIBRARY_ARCHITECTURE "${FC_AARCH64_TRIPLE}")

if(FC_AARCH64_SYSROOT)
  set(_fc_root "${FC_AARCH64_SYSROOT}")
  set(_fc_prefix "${FC_AARCH64_SYSROOT}")
else()
  set(_fc_root "/")
  set(_fc_prefix "")
endif()

# Programs (pkg-config, perl, the host's openssl) run on the host; libraries
# and headers come from the arm64 root. CMAKE_LIBRARY_ARCHITECTURE picks the
# arm64 directories in it.
set(CMAKE_FIND_ROOT_PATH "${_fc_root}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The cross compiler also searches the host's /usr/include, where the host's
# own OpenSSL and CMocka headers are: the arm64 root's come first.
# (Without a sysroot the multiarch headers are the host's own, where the
# compiler finds them.)
if(FC_AARCH64_SYSROOT)
  set(CMAKE_C_STANDARD_INCLUDE_DIRECTORIES
      "${_fc_prefix}/usr/include/${FC_AARCH64_TRIPLE}"
      "${_fc_prefix}/usr/include")
endif()

# pkg-config (cmocka) must read the arm64 .pc files, not the host's; their
# paths are relative to the root.
set(ENV{PKG_CONFIG_LIBDIR}
    "${_fc_prefix}/usr/lib/${FC_AARCH64_TRIPLE}/pkgconfig:${_fc_prefix}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
if(FC_AARCH64_SYSROOT)
  set(ENV{PKG_CONFIG_SYSROOT_DIR} "${_fc_prefix}")
endif()

# FindOpenSSL: the arm64 libcrypto and headers, explicitly.
if(EXISTS "${_fc_prefix}/usr/lib/${FC_AARCH64_TRIPLE}/libcrypto.so")
  set(OPENSSL_CRYPTO_LIBRARY
      "${_fc_prefix}/usr/lib/${FC_AARCH64_TRIPLE}/libcrypto.so"
      CACHE FILEPATH "arm64 libcrypto")
  set(OPENSSL_SSL_LIBRARY "${_fc_prefix}/usr/lib/${FC_AARCH64_TRIPLE}/libssl.so"
      CACHE FILEPATH "arm64 libssl")
  set(OPENSSL_INCLUDE_DIR "${_fc_prefix}/usr/include" CACHE PATH
      "OpenSSL headers")
endif()

# ctest and add_custom_command run the arm64 binaries through qemu-aarch64
# explicitly, so no binfmt_misc registration is needed.
#
# The dynamic loader and libc.so.6 must come from the same glibc build. The
# arm64 libraries we load (libcrypto.so.3, libcmocka.so.0) pull in the
# libc6 of the root (<root>/lib/aarch64-linux-gnu) through the loader's
# search path whatever the -L prefix, while -L /usr/aarch64-linux-gnu
# would take the loader from libc6-arm64-cross, a different build: that
# mix runs most programs but hangs the child of every fork(2). So the
# prefix is the root, whose loader, libc and libcrypto are one set of
# packages, as on an arm64 Debian; only a host without libc6:arm64 and
# without a sysroot falls back to the cross libc.
if(NOT FC_AARCH64_QEMU_LD_PREFIX)
  if(FC_AARCH64_SYSROOT)
    set(FC_AARCH64_QEMU_LD_PREFIX "${FC_AARCH64_SYSROOT}")
  elseif(EXISTS "/usr/lib/${FC_AARCH64_TRIPLE}/libc.so.6"
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
