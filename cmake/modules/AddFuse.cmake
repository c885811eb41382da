#===- AddFuse.cmake - helpers for fuse libraries and tools ----*- cmake -*-===//
#
# Every fuse library and tool is installed into the FuseTargets export set so
# that another MLIR-based compiler can find_package(Fuse) and link them.
#
#===----------------------------------------------------------------------===//
include_guard()

# Installs `name` into the FuseTargets export set.
function(add_fuse_install name)
  install(TARGETS ${name}
    EXPORT FuseTargets
    COMPONENT ${name}
    LIBRARY DESTINATION lib${LLVM_LIBDIR_SUFFIX}
    ARCHIVE DESTINATION lib${LLVM_LIBDIR_SUFFIX}
    RUNTIME DESTINATION bin)
  set_property(GLOBAL APPEND PROPERTY FUSE_EXPORTS ${name})
endfunction()

# add_fuse_library(name srcs... [DEPENDS ...] [LINK_LIBS ...]
#                  [MLIR_LIBS MLIRx ...])
# Like add_mlir_library, plus: MLIR libraries go through
# mlir_target_link_libraries (libMLIR.so when FUSE_LINK_MLIR_DYLIB is on), and
# the library is installed and exported.
function(add_fuse_library name)
  cmake_parse_arguments(ARG "" "" "MLIR_LIBS" ${ARGN})
  add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS} DISABLE_INSTALL)
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  endif()
  # The MLIR libraries the library declares, kept on the exported target:
  # with libMLIR.so its link line alone does not say which parts of MLIR a
  # stage needs (examples/embed checks the fusion stage's closure).
  set_target_properties(${name} PROPERTIES
    FUSE_MLIR_LIBS "${ARG_MLIR_LIBS}"
    EXPORT_PROPERTIES FUSE_MLIR_LIBS)
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${FUSE_MAIN_SRC_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  set_property(GLOBAL APPEND PROPERTY FUSE_ALL_LIBS ${name})
  add_fuse_install(${name})
endfunction()

# add_fuse_tool(name srcs... LINK_LIBS ... [MLIR_LIBS ...])
function(add_fuse_tool name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS;MLIR_LIBS" ${ARGN})
  add_llvm_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS})
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PRIVATE ${ARG_MLIR_LIBS})
  endif()
  llvm_update_compile_flags(${name})
  # The allocator (FUSE_ALLOCATOR): kept on the link line even though no
  # symbol is taken from it by name, so that its malloc comes before libc's
  # for the whole process.
  if(FUSE_ALLOCATOR_LIB)
    target_link_libraries(${name} PRIVATE "-Wl,--push-state,--no-as-needed"
                          ${FUSE_ALLOCATOR_LIB} "-Wl,--pop-state")
  endif()
  # Installed, a tool finds fuse's libraries beside it and LLVM's and
  # MLIR's shared libraries (libMLIR.so, libLLVM.so) where they are.
  set_target_properties(${name} PROPERTIES
    INSTALL_RPATH "\$ORIGIN/../lib${LLVM_LIBDIR_SUFFIX};${LLVM_LIBRARY_DIR}")
  add_fuse_install(${name})
endfunction()
