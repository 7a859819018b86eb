# Cross-compiling for 64-bit Arm Linux (the Kunpeng hosts of Ascend servers) on x86-64 with Debian's
# g++-aarch64-linux-gnu. Programs the build runs (test discovery, ctest) go through qemu-aarch64 (Debian's qemu-user)
# with the cross sysroot's loader and libraries; set ACLNN_CPU_QEMU to use another emulator.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

set(ACLNN_CPU_SYSROOT /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH ${ACLNN_CPU_SYSROOT})
# Host programs, target libraries, headers and packages (unless the caller says otherwise, as the compat test of
# find_package does for the installed tree outside the sysroot).
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
if(NOT DEFINED CMAKE_FIND_ROOT_PATH_MODE_PACKAGE)
  set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
endif()

if(NOT DEFINED ACLNN_CPU_QEMU)
  set(ACLNN_CPU_QEMU qemu-aarch64)
endif()
set(CMAKE_CROSSCOMPILING_EMULATOR ${ACLNN_CPU_QEMU};-L;${ACLNN_CPU_SYSROOT})
