# The StarT-X host software (seed 002 §6): JAM, JAM RPC, the msg::Transport adapters and
# the bridge from the NIU's network port to net::Network. Included from this folder's
# CMakeLists.txt; the StartxModel (model.cpp) joins niclab_system with the registry.
set(_startx_dir ${CMAKE_CURRENT_LIST_DIR})
add_library(niclab_startx_sw STATIC
  ${_startx_dir}/jam.cpp ${_startx_dir}/jam_pio.cpp ${_startx_dir}/jam_rpc.cpp
  ${_startx_dir}/transport_stream.cpp ${_startx_dir}/transport_rdma.cpp ${_startx_dir}/transport_rpc.cpp
  ${_startx_dir}/transport_factory.cpp ${_startx_dir}/arctic_port.cpp)
target_include_directories(niclab_startx_sw PUBLIC ${PROJECT_SOURCE_DIR}/cpp/include)
target_link_libraries(niclab_startx_sw PUBLIC niclab_startx_hw niclab_msg niclab_net PRIVATE niclab_warnings)
# The model joins the registry's library (registry.cpp lists startx::model()).
target_sources(niclab_system PRIVATE ${_startx_dir}/model.cpp ${_startx_dir}/model_params.cpp)
target_link_libraries(niclab_system PUBLIC niclab_startx_sw)
