# The StarT-X host software: JAM (PIO, 64-byte, VI, RDMA, status amortization), JAM RPC,
# every transport through msg::Transport on two nodes, the Arctic port on net::Network.
find_package(GTest REQUIRED)
include(GoogleTest)
set(_jam_tests ${CMAKE_CURRENT_LIST_DIR})
niclab_test(startx_jam_tests
  SOURCES ${_jam_tests}/test_jam_pio.cpp
          ${_jam_tests}/test_transport_pair.cpp
  LIBS niclab_startx_sw niclab_startx_hw niclab_msg niclab_net niclab_bus niclab_host niclab_sim)
