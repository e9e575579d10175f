# PHH and text hand histories for poker hands (libs/games/poker/phh.h).
# Kept out of libs/games/poker/CMakeLists.txt (the engine's) to avoid merge
# conflicts: include it from libs/games/CMakeLists.txt with
#   include(poker/phh.cmake)
# Paths are relative to this file, so it works from any includer.
set(BANCA_PHH_DIR ${CMAKE_CURRENT_LIST_DIR})

banca_library(banca_poker_phh
  SRCS ${BANCA_PHH_DIR}/phh.cc
  DEPS banca_cards absl::status absl::statusor absl::strings
       absl::str_format)

banca_test(phh_test
  SRCS ${BANCA_PHH_DIR}/phh_test.cc
  DEPS banca_poker_phh
  LABELS unit)
