# SPDX-License-Identifier: Apache-2.0
# calibrate_live.cmake: runs fastcrypto-calibrate --quick --dry-run against
# the built module and checks that every family measured prints a decision
# (a table row and a wisdom record). ctest -P script: TOOL, MODULE.
execute_process(COMMAND ${TOOL} --module ${MODULE} --quick --dry-run
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fastcrypto-calibrate exited with ${rc}")
endif()
foreach(fam gcm cbc ctr drbg cbc-hmac rsa2048 rsa3072 rsa4096)
  if(NOT out MATCHES "\n${fam} +[^ ]+ +[^ ]+ +[0-9.]+ +[0-9.]+ +[0-9]+  (offer|no) ")
    message(FATAL_ERROR "no table row with a decision for ${fam}")
  endif()
  if(NOT out MATCHES "\nfamily ${fam} (offer|no) median=[0-9.]+ q1=[0-9.]+ ours=")
    message(FATAL_ERROR "no wisdom record for ${fam}")
  endif()
endforeach()
