# Install rules: CANN's toolkit layout under the prefix, plus a CMake package (find_package(aclnn_cpu)).
#   include/{acl,aclnn,aclnnop,aclnn_cpu}/...   headers (CANN programs use -I$P/include -I$P/include/aclnn)
#   lib64/libascendcl.so                         the implementation
#   lib64/lib{nnopbase,opapi,opapi_nn,opapi_math}.so   aliases that pull in libascendcl.so
#   share/cmake/aclnn_cpu/                       package config exporting aclnn_cpu::<library name> targets
#   lib64/pkgconfig/aclnn_cpu.pc                 pkg-config module with CANN's compile and link lines
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
# The op headers include "aclnn_util.h"; it resolves next to them (aclnnop/) and, as in CANN, through the
# -I$P/include/aclnn directory too.
install(FILES ${PROJECT_SOURCE_DIR}/include/aclnnop/aclnn_util.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/aclnn)

install(TARGETS ${ACLNN_CPU_SHARED_LIBRARIES} EXPORT aclnn_cpu_targets
        LIBRARY DESTINATION ${ACLNN_CPU_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# share/ rather than lib64/: Debian's CMake does not search lib64/cmake, every CMake searches share/cmake.
set(ACLNN_CPU_CMAKE_DIR ${CMAKE_INSTALL_DATADIR}/cmake/aclnn_cpu)
install(EXPORT aclnn_cpu_targets NAMESPACE aclnn_cpu:: FILE aclnn_cpuTargets.cmake DESTINATION ${ACLNN_CPU_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/aclnn_cpuConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/aclnn_cpuConfig.cmake INSTALL_DESTINATION ${ACLNN_CPU_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/aclnn_cpuConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/aclnn_cpuConfig.cmake ${PROJECT_BINARY_DIR}/aclnn_cpuConfigVersion.cmake
        DESTINATION ${ACLNN_CPU_CMAKE_DIR})

# pkg-config looks for a library's module in that library's directory (lib64/pkgconfig, like Fedora's
# /usr/lib64/pkgconfig); PKG_CONFIG_PATH names it, as CANN toolkits live outside the default search path anyway.
# The prefix is written relative to the file (pkg-config's ${pcfiledir}), so a moved prefix keeps working.
set(ACLNN_CPU_PKGCONFIG_DIR ${ACLNN_CPU_LIBDIR}/pkgconfig)
file(RELATIVE_PATH ACLNN_CPU_PC_TO_PREFIX /prefix/${ACLNN_CPU_PKGCONFIG_DIR} /prefix)
string(REGEX REPLACE "/$" "" ACLNN_CPU_PC_TO_PREFIX "${ACLNN_CPU_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/aclnn_cpu.pc.in ${PROJECT_BINARY_DIR}/aclnn_cpu.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/aclnn_cpu.pc DESTINATION ${ACLNN_CPU_PKGCONFIG_DIR})
