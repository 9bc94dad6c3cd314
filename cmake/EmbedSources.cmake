# clf_embed_sources(target PATH...): embeds the device code `target` owns into every program
# that links it, where clf::kernel_source and #include "..." find it (framework/sources.hpp).
# Each PATH, relative to the repository root, is a .cl/.h file or a folder (its .cl and .h files,
# recursively); a folder that does not exist embeds nothing, so a list may name a folder both
# where it is and where it is moving to. An edit to an embedded file regenerates and recompiles only its owner's file.
#
# The generated file registers its files from a static initialiser and defines no symbol, so a
# linker would drop it from a static archive. It is therefore compiled once, as an object library,
# and its object goes straight into each executable: PRIVATE sources of an executable, INTERFACE
# sources (which reach every executable that links the target, directly or not) of a library.
set(CLF_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/embed_sources.cmake")

function(clf_embed_sources target)
  set(files "")
  foreach(entry IN LISTS ARGN)
    set(absolute "${PROJECT_SOURCE_DIR}/${entry}")
    if(entry MATCHES "\\.(cl|h)$")
      if(NOT EXISTS "${absolute}")
        message(FATAL_ERROR "clf_embed_sources(${target}): no file ${entry}")
      endif()
      list(APPEND files "${entry}")
    else()
      # Globbed even when missing: CONFIGURE_DEPENDS notices the folder when it appears.
      file(GLOB_RECURSE found CONFIGURE_DEPENDS RELATIVE "${PROJECT_SOURCE_DIR}"
           "${absolute}/*.cl" "${absolute}/*.h")
      list(APPEND files ${found})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES files)
  list(SORT files)
  list(TRANSFORM files PREPEND "${PROJECT_SOURCE_DIR}/" OUTPUT_VARIABLE paths)

  set(output "${CMAKE_CURRENT_BINARY_DIR}/${target}_embedded_sources.cpp")
  add_custom_command(
    OUTPUT "${output}"
    COMMAND "${CMAKE_COMMAND}" -DROOT=${PROJECT_SOURCE_DIR} -DOUTPUT=${output} -DOWNER=${target}
            "-DFILES=${files}" -P "${CLF_EMBED_SCRIPT}"
    DEPENDS ${paths} "${CLF_EMBED_SCRIPT}"
    COMMENT "Embedding the device code of ${target}"
    VERBATIM)
  add_library(${target}_embedded OBJECT "${output}")
  target_include_directories(${target}_embedded PRIVATE "${PROJECT_SOURCE_DIR}")

  get_target_property(type ${target} TYPE)
  if(type STREQUAL "EXECUTABLE")
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:${target}_embedded>)
  else()
    target_sources(${target} INTERFACE $<TARGET_OBJECTS:${target}_embedded>)
  endif()
endfunction()
