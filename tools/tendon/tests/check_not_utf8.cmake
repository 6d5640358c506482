# Text from outside that is not UTF-8 (a Latin-1 byte, 0xE9, in TENDON_ISA and in the paths of
# the model and the chart): `info --json` keeps its "error" member, the demo's report keeps
# "character.name" and "chart", and the chart stays well-formed XML — each such byte written as
# U+FFFD. (jansson has no string for such bytes: the members were left out of the JSON, and the
# byte went into the SVG as it was.) cmake -P with EXE, MODEL (a .glb), WORK (a scratch directory).
cmake_minimum_required(VERSION 3.25)
string(ASCII 233 e_acute_latin1)
string(ASCII 239 191 189 fffd) # U+FFFD in UTF-8
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

set(ENV{TENDON_ISA} "caf${e_acute_latin1}")
execute_process(COMMAND "${EXE}" info --json OUTPUT_VARIABLE out RESULT_VARIABLE rc)
unset(ENV{TENDON_ISA})
string(JSON error ERROR_VARIABLE json_error GET "${out}" error)
if(NOT rc EQUAL 1 OR json_error OR NOT error MATCHES "^TENDON_ISA=\"caf${fffd}\" is not an ISA name")
  message(FATAL_ERROR "info --json with TENDON_ISA=caf<0xE9>: exit ${rc}, error \"${error}\" "
                      "(${json_error}), expected exit 1 and the message with U+FFFD:\n${out}")
endif()

set(model "${WORK}/model-caf${e_acute_latin1}.glb")
set(chart "${WORK}/chart-caf${e_acute_latin1}.svg")
file(COPY_FILE "${MODEL}" "${model}")
execute_process(COMMAND "${EXE}" demo "${model}" --seconds 0.05 --chart "${chart}"
                        --json "${WORK}/report.json"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "demo: exit ${rc}\n${out}\n${err}")
endif()
file(READ "${WORK}/report.json" report)
string(JSON name ERROR_VARIABLE name_error GET "${report}" character name)
string(JSON chart_member ERROR_VARIABLE chart_error GET "${report}" chart)
if(name_error OR chart_error OR NOT name MATCHES "model-caf${fffd}\\.glb"
   OR NOT chart_member MATCHES "chart-caf${fffd}\\.svg$")
  message(FATAL_ERROR "the report's character.name \"${name}\" (${name_error}) and chart "
                      "\"${chart_member}\" (${chart_error}): expected both, with U+FFFD")
endif()
# the chart names the model: U+FFFD (ef bf bd), never the byte e9 followed by "." (2e)
file(READ "${chart}" svg HEX)
if(svg MATCHES "^(..)*e92e" OR NOT svg MATCHES "^(..)*efbfbd2e676c62")
  message(FATAL_ERROR "the chart holds the byte 0xE9 (not UTF-8: not well-formed XML), or not "
                      "U+FFFD in its place")
endif()
