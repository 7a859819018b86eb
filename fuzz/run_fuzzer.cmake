cmake_minimum_required(VERSION 3.20)
# One bounded, reproducible fuzz run for ctest: fresh scratch corpus, fixed seed, fixed number of runs, time cap.
file(REMOVE_RECURSE "${WORK_CORPUS}")
file(MAKE_DIRECTORY "${WORK_CORPUS}")
if(NOT IS_DIRECTORY "${SEED_CORPUS}")
  message(FATAL_ERROR "seed corpus ${SEED_CORPUS} is missing")
endif()
execute_process(COMMAND "${FUZZER}" -seed=${SEED} -runs=${RUNS} -max_total_time=${MAX_SECONDS} -timeout=20
                        -rss_limit_mb=2048 -max_len=1024 -print_final_stats=1 "-artifact_prefix=${WORK_CORPUS}-"
                        "${WORK_CORPUS}" "${SEED_CORPUS}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${FUZZER} failed (exit ${rc}); the failing input was saved as ${WORK_CORPUS}-crash-*/leak-*/timeout-*")
endif()
