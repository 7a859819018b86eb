cmake_minimum_required(VERSION 3.20)
# Builds PROGRAM with `$CXX ... $(pkg-config --cflags --libs aclnn_cpu)`, PKG_CONFIG_PATH naming the installed
# PREFIX's LIBDIR/pkgconfig, and runs it; then the same from a copy of the prefix elsewhere, whose flags must name
# the copy only (the module finds its prefix from its own place). The libraries must be CANN's
# -lascendcl -lnnopbase -lopapi and --modversion must be VERSION.
file(REMOVE_RECURSE "${WORK_DIR}")
set(moved "${WORK_DIR}/moved")
file(MAKE_DIRECTORY "${moved}/${LIBDIR}")
file(COPY "${PREFIX}/include" DESTINATION "${moved}")
file(COPY "${PREFIX}/${LIBDIR}/" DESTINATION "${moved}/${LIBDIR}")
separate_arguments(extra UNIX_COMMAND "${EXTRA_FLAGS}")

foreach(prefix IN ITEMS "${PREFIX}" "${moved}")
  set(env "PKG_CONFIG_PATH=${prefix}/${LIBDIR}/pkgconfig")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "${env}" "${PKG_CONFIG}" --modversion aclnn_cpu
                  OUTPUT_VARIABLE version OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT version STREQUAL VERSION)
    message(FATAL_ERROR "${env} pkg-config --modversion aclnn_cpu: '${version}' (exit ${rc}), expected ${VERSION}")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "${env}" "${PKG_CONFIG}" --cflags --libs aclnn_cpu
                  OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${env} pkg-config --cflags --libs aclnn_cpu failed: ${rc}")
  endif()
  message(STATUS "${env}: ${flags}")
  separate_arguments(flags UNIX_COMMAND "${flags}")

  # CANN's lines name the prefix's include, include/aclnn and library directories, and those only: neither a
  # path written at install time nor the system's directories may stand in for them.
  get_filename_component(real_prefix "${prefix}" REALPATH)
  set(dirs "")
  set(libs "")
  foreach(flag IN LISTS flags)
    if(flag MATCHES "^-([IL])(.*)")
      get_filename_component(dir "${CMAKE_MATCH_2}" REALPATH)
      list(APPEND dirs "-${CMAKE_MATCH_1}${dir}")
    elseif(flag MATCHES "^-l(.*)")
      list(APPEND libs "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set(expected "-I${real_prefix}/include;-I${real_prefix}/include/aclnn;-L${real_prefix}/${LIBDIR}")
  if(NOT dirs STREQUAL expected)
    message(FATAL_ERROR "pkg-config's directories for ${prefix} are '${dirs}', expected '${expected}'")
  endif()
  if(NOT libs STREQUAL "ascendcl;nnopbase;opapi")
    message(FATAL_ERROR "pkg-config links '${libs}', expected CANN's -lascendcl -lnnopbase -lopapi")
  endif()

  set(exe "${WORK_DIR}/cann_program_pkg_config")
  file(REMOVE "${exe}")
  execute_process(COMMAND "${CXX}" -std=c++11 -Wall -Wextra -Werror ${extra} "${PROGRAM}" -o "${exe}" ${flags}
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} does not build with pkg-config's flags for ${prefix}")
  endif()
  separate_arguments(run UNIX_COMMAND "${RUN}")  # the emulator of a cross build, or nothing
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "LD_LIBRARY_PATH=${prefix}/${LIBDIR}" ${run} "${exe}"
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${exe} built through pkg-config for ${prefix} exited with ${rc}")
  endif()
endforeach()
message(STATUS "pkg-config aclnn_cpu: builds and runs from ${PREFIX} and from a copy of it")
