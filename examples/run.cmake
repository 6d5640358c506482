# ctest driver (the test examples_installed_package in tests/CMakeLists.txt): install the build
# into a scratch prefix, then build every example against it the two ways an engine would and
# run each on a model of the repository's test assets; each example checks its own results and
# exits nonzero when one is wrong.
#   - CMake: examples/CMakeLists.txt, find_package(tendon COMPONENTS gltf), shared libraries;
#   - pkg-config: `pkg-config --cflags --libs tendon-gltf` (+ -lm, and -pthread for crowd).
# -D BUILD_DIR=… -D SOURCE_DIR=…/examples -D WORK_DIR=… -D C_COMPILER=… -D MODEL=…/Fox.glb
# [-D C_FLAGS=… -D LINK_FLAGS=…] (a sanitizer build's instrumentation, carried into the examples)
set(examples play_and_skin walk_aim state_machine tail_springs crowd)
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
  message("${out}")
endfunction()
function(run_quiet)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
endfunction()

run_quiet(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# CMake package
set(bdir ${WORK_DIR}/build-cmake)
run_quiet(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${bdir} -DCMAKE_PREFIX_PATH=${prefix}
          -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_BUILD_TYPE=Release
          "-DCMAKE_C_FLAGS=${C_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINK_FLAGS}")
run_quiet(${CMAKE_COMMAND} --build ${bdir})
foreach(example ${examples})
  message("-- ${example} (CMake package)")
  run(${bdir}/${example} ${MODEL})
endforeach()

# pkg-config, as a Makefile-based engine would
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
execute_process(COMMAND pkg-config --cflags --libs tendon-gltf OUTPUT_VARIABLE pc
                OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config --cflags --libs tendon-gltf fails with ${prefix}/lib/pkgconfig: ${err}")
endif()
separate_arguments(pc UNIX_COMMAND "${pc}")
separate_arguments(extra UNIX_COMMAND "${C_FLAGS} ${LINK_FLAGS}")
foreach(example ${examples})
  set(threads "")
  if(example STREQUAL "crowd")
    set(threads -pthread)
  endif()
  run_quiet(${C_COMPILER} -std=c11 -O2 ${extra} ${SOURCE_DIR}/${example}.c ${pc} ${threads} -lm
            -Wl,-rpath,${prefix}/lib -o ${WORK_DIR}/${example}-pc)
  message("-- ${example} (pkg-config)")
  run(${WORK_DIR}/${example}-pc ${MODEL})
endforeach()
