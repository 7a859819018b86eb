# Runs DEMO (through RUN, if given) with ARGS ('|'-separated) and requires exit status EXPECT_EXIT and, if given, a match of
# EXPECT_REGEX in its standard output. Used by the driver's ctests.
string(REPLACE "|" ";" args "${ARGS}")
string(REPLACE "|" ";" run "${RUN}")  # the emulator of a cross build ('|'-separated), or nothing
execute_process(COMMAND ${run} ${DEMO} ${args} RESULT_VARIABLE exit OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT "${exit}" STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "expected exit status ${EXPECT_EXIT}, got ${exit}")
endif()
if(EXPECT_REGEX AND NOT "${out}${err}" MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match: ${EXPECT_REGEX}")
endif()
