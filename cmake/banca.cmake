# Project-wide helpers. Warnings are errors on project code only; generated
# protobuf/gRPC code is compiled without them (see protos/CMakeLists.txt).
set(BANCA_WARNINGS -Wall -Wextra -Werror -Wno-missing-field-initializers)

# banca_library(NAME SRCS ... DEPS ...)
function(banca_library name)
  cmake_parse_arguments(ARG "" "" "SRCS;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SRCS})
  target_compile_options(${name} PRIVATE ${BANCA_WARNINGS})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
endfunction()

# banca_test(NAME SRCS ... DEPS ... [LABELS ...])
# One gtest binary; each test case becomes its own CTest test so suites run in
# parallel under `ctest -j`.
function(banca_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT;RESOURCE_LOCK" "SRCS;DEPS;LABELS"
                        ${ARGN})
  add_executable(${name} ${ARG_SRCS})
  target_compile_options(${name} PRIVATE ${BANCA_WARNINGS})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gmock GTest::gtest_main)
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  # RESOURCE_LOCK: tests of binaries that share one (e.g. the Kafka broker
  # tools/run-tests starts, which a fault test stops and restarts, and its
  # banca.wallet.events topic) never run at the same time under ctest -j.
  set(lock)
  if(ARG_RESOURCE_LOCK)
    set(lock RESOURCE_LOCK ${ARG_RESOURCE_LOCK})
  endif()
  # One label: CMake 3.25's gtest_discover_tests flattens a list value into
  # the generated set_tests_properties, which then reads "LABELS a b
  # TIMEOUT …" as pairs and drops what follows the first label (TIMEOUT and
  # RESOURCE_LOCK were lost that way). The Kafka binaries are known by
  # their RESOURCE_LOCK instead of a second label.
  list(LENGTH ARG_LABELS label_count)
  if(label_count GREATER 1)
    message(FATAL_ERROR "banca_test(${name}): one label, not ${ARG_LABELS}")
  endif()
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST
    PROPERTIES TIMEOUT ${ARG_TIMEOUT} ${lock} LABELS ${ARG_LABELS})
endfunction()
