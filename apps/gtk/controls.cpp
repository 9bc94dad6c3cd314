#include "apps/gtk/controls.hpp"

#include <algorithm>

namespace clf::gtk {

GtkWidget* side_panel(int spacing, int width) {
  GtkWidget* panel = gtk_box_new(GTK_ORIENTATION_VERTICAL, spacing);
  gtk_widget_set_margin_start(panel, 8);
  gtk_widget_set_margin_end(panel, 8);
  gtk_widget_set_margin_top(panel, 8);
  gtk_widget_set_margin_bottom(panel, 8);
  gtk_widget_set_size_request(panel, width, -1);
  return panel;
}

GtkWidget* label(const char* text, const char* css_class, GtkAlign align) {
  GtkWidget* l = gtk_label_new(text);
  if (css_class != nullptr) gtk_widget_add_css_class(l, css_class);
  gtk_widget_set_halign(l, align);
  return l;
}

GtkWidget* button(const char* text, void (*clicked)(GtkButton*, gpointer), gpointer data) {
  GtkWidget* b = gtk_button_new_with_mnemonic(text);
  g_signal_connect(b, "clicked", G_CALLBACK(clicked), data);
  return b;
}

GtkWidget* append_labelled(GtkWidget* box, const char* caption, GtkWidget* control) {
  GtkWidget* label = gtk_label_new(caption);
  gtk_widget_set_halign(label, GTK_ALIGN_START);
  gtk_box_append(GTK_BOX(box), label);
  gtk_box_append(GTK_BOX(box), control);
  return control;
}

GtkWidget* string_dropdown(const std::vector<std::string>& items, int selected) {
  std::vector<const char*> strings;
  for (const std::string& s : items) strings.push_back(s.c_str());
  strings.push_back(nullptr);
  GtkWidget* dropdown = gtk_drop_down_new_from_strings(strings.data());
  gtk_drop_down_set_selected(GTK_DROP_DOWN(dropdown), static_cast<guint>(std::max(selected, 0)));
  return dropdown;
}

}  // namespace clf::gtk
