# One static library per area (a folder of one layer), so an area builds and tests on its own.
#   ascendsim_area(<target> [WHOLE_ARCHIVE] DIRS <dir>... DEPS <target>...)
# Sources are the .cpp files directly in DIRS (not recursive). An area with no sources yet
# becomes an INTERFACE library, so dependents can name it before it has code. WHOLE_ARCHIVE keeps
# every object of the area in the link, for areas whose files only self-register (no caller
# references them, so a plain static library would drop them).
function(ascendsim_area target)
  cmake_parse_arguments(AREA "WHOLE_ARCHIVE" "" "DIRS;DEPS" ${ARGN})
  set(sources "")
  foreach(dir ${AREA_DIRS})
    file(GLOB dir_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${dir}/*.cpp)
    list(APPEND sources ${dir_sources})
  endforeach()
  if(sources AND AREA_WHOLE_ARCHIVE)
    add_library(${target}_archive STATIC ${sources})
    target_link_libraries(${target}_archive PUBLIC ascendsim_options ${AREA_DEPS})
    add_library(${target} INTERFACE)
    target_link_libraries(${target} INTERFACE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${target}_archive>")
  elseif(sources)
    add_library(${target} STATIC ${sources})
    target_link_libraries(${target} PUBLIC ascendsim_options ${AREA_DEPS})
  else()
    add_library(${target} INTERFACE)
    target_link_libraries(${target} INTERFACE ascendsim_options ${AREA_DEPS})
  endif()
endfunction()

# Tests of an area: every *_test.cpp under tests/<dir> (recursive) in one binary, each test run
# in its own process (gtest_discover_tests), linked against the named libraries only.
function(ascendsim_area_tests name)
  cmake_parse_arguments(T "" "LABEL" "DIRS;DEPS" ${ARGN})
  set(sources "")
  foreach(dir ${T_DIRS})
    file(GLOB_RECURSE dir_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/${dir}/*_test.cpp)
    list(APPEND sources ${dir_sources})
  endforeach()
  if(NOT sources)
    return()
  endif()
  add_executable(${name} ${sources} ${CMAKE_SOURCE_DIR}/tests/support/systemc_main.cpp)
  set_source_files_properties(${CMAKE_SOURCE_DIR}/tests/support/systemc_main.cpp
    TARGET_DIRECTORY ${name} PROPERTIES COMPILE_DEFINITIONS "${ASCENDSIM_SOURCE_DIR_DEFINITION}")
  target_link_libraries(${name} PRIVATE ${T_DEPS} GTest::gtest GTest::gmock)
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  set(labels "")
  if(T_LABEL)
    set(labels LABELS ${T_LABEL})
  endif()
  gtest_discover_tests(${name} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
    PROPERTIES ENVIRONMENT "ASCENDSIM_SOURCE_DIR=${CMAKE_SOURCE_DIR}" ${labels} DISCOVERY_TIMEOUT 120)
endfunction()
