// Small control helpers the windows' side panels share.
#pragma once

#include <gtk/gtk.h>

#include <string>
#include <vector>

namespace clf::gtk {

// A vertical box for a window's side panel: `spacing` between controls, 8-pixel margins, at least
// `width` pixels wide.
GtkWidget* side_panel(int spacing, int width);

// A label with an optional CSS class ("heading", "dim-label", or the app's own).
GtkWidget* label(const char* text, const char* css_class, GtkAlign align = GTK_ALIGN_CENTER);
// A button whose text may carry a mnemonic ("_Open"), calling `clicked` with `data`.
GtkWidget* button(const char* text, void (*clicked)(GtkButton*, gpointer), gpointer data);

// Appends a start-aligned caption and `control` below it to the vertical box; returns control.
GtkWidget* append_labelled(GtkWidget* box, const char* caption, GtkWidget* control);

// A drop-down of `items` showing item `selected` (the first when negative).
GtkWidget* string_dropdown(const std::vector<std::string>& items, int selected);

}  // namespace clf::gtk
