# Runs DEMO with ARGS ('|'-separated) and requires exit status EXPECT_EXIT and, if given, a match of
# EXPECT_REGEX in its standard output. Used by the driver's ctests.
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${DEMO} ${args} RESULT_VARIABLE exit OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT "${exit}" STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "expected exit status ${EXPECT_EXIT}, got ${exit}")
endif()
if(EXPECT_REGEX AND NOT "${out}${err}" MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match: ${EXPECT_REGEX}")
endif()
