# ctest driver: install the build into a scratch prefix, then build and run the consumer against
# it three ways: CMake package + shared library, CMake package + static library, pkg-config.
# -D BUILD_DIR=… -D SOURCE_DIR=… -D WORK_DIR=… -D C_COMPILER=… [-D C_FLAGS=… -D LINK_FLAGS=…]
# (the flags carry a sanitizer build's instrumentation into the consumer, which links its library)
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
  message("${out}")
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(kind shared static)
  if(kind STREQUAL "static")
    set(flag ON)
  else()
    set(flag OFF)
  endif()
  set(bdir ${WORK_DIR}/build-${kind})
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${bdir} -DCMAKE_PREFIX_PATH=${prefix}
      -DCMAKE_C_COMPILER=${C_COMPILER} -DCONSUMER_STATIC=${flag}
      "-DCMAKE_C_FLAGS=${C_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINK_FLAGS}")
  run(${CMAKE_COMMAND} --build ${bdir})
  run(${bdir}/consumer)
endforeach()
# pkg-config, as a Makefile-based engine would
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
execute_process(COMMAND pkg-config --cflags --libs tendon OUTPUT_VARIABLE pc
                OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config cannot find tendon in ${prefix}/lib/pkgconfig")
endif()
separate_arguments(pc UNIX_COMMAND "${pc}")
separate_arguments(extra UNIX_COMMAND "${C_FLAGS} ${LINK_FLAGS}")
run(${C_COMPILER} -std=c11 -ffp-contract=off ${extra} ${SOURCE_DIR}/main.c ${pc}
    -Wl,-rpath,${prefix}/lib -o ${WORK_DIR}/consumer-pc)
run(${WORK_DIR}/consumer-pc)
