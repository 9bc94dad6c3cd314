#include "apps/gtk/frame_view.hpp"

#include <cerrno>
#include <iostream>
#include <set>

#include "framework/device.hpp"

namespace clf::gtk {

FrameView::FrameView() {
  overlay_ = gtk_overlay_new();
  picture_ = gtk_picture_new();
  gtk_picture_set_can_shrink(GTK_PICTURE(picture_), TRUE);
  gtk_picture_set_content_fit(GTK_PICTURE(picture_), GTK_CONTENT_FIT_CONTAIN);
  gtk_widget_set_hexpand(picture_, TRUE);
  gtk_widget_set_vexpand(picture_, TRUE);
  gtk_overlay_set_child(GTK_OVERLAY(overlay_), picture_);
  label_ = gtk_label_new("");
  gtk_widget_set_halign(label_, GTK_ALIGN_START);
  gtk_widget_set_valign(label_, GTK_ALIGN_START);
  gtk_widget_add_css_class(label_, "osd");
  gtk_widget_set_margin_start(label_, 6);
  gtk_widget_set_margin_top(label_, 6);
  gtk_overlay_add_overlay(GTK_OVERLAY(overlay_), label_);
}

void FrameView::show_rgba(int width, int height, const std::vector<std::uint32_t>& rgba) {
  if (width <= 0 || height <= 0 || rgba.size() != static_cast<std::size_t>(width) * height) return;
  GBytes* bytes = g_bytes_new(rgba.data(), rgba.size() * sizeof(std::uint32_t));
  GdkTexture* texture = gdk_memory_texture_new(width, height, GDK_MEMORY_R8G8B8A8, bytes,
                                               static_cast<gsize>(width) * 4);
  g_bytes_unref(bytes);
  gtk_picture_set_paintable(GTK_PICTURE(picture_), GDK_PAINTABLE(texture));
  g_object_unref(texture);
}

void FrameView::set_overlay_text(const std::string& text) {
  gtk_label_set_text(GTK_LABEL(label_), text.c_str());
}

int FrameView::width() const { return gtk_widget_get_width(picture_); }
int FrameView::height() const { return gtk_widget_get_height(picture_); }

namespace {

struct PickerData {
  std::function<void(int)> on_change;
};

void picker_changed(GObject* object, GParamSpec*, gpointer data) {
  const guint index = gtk_drop_down_get_selected(GTK_DROP_DOWN(object));
  if (index != GTK_INVALID_LIST_POSITION)
    static_cast<PickerData*>(data)->on_change(static_cast<int>(index));
}

}  // namespace

GtkWidget* device_picker(int selected, std::function<void(int)> on_change) {
  GtkStringList* names = gtk_string_list_new(nullptr);
  try {
    for (const DeviceInfo& device : enumerate_devices()) {
      gtk_string_list_append(names, (device.name + " (" + to_string(device.type) + ")").c_str());
    }
  } catch (const std::exception&) {
    gtk_string_list_append(names, "no OpenCL device");
  }
  GtkWidget* dropdown = gtk_drop_down_new(G_LIST_MODEL(names), nullptr);
  gtk_drop_down_set_selected(GTK_DROP_DOWN(dropdown), static_cast<guint>(selected));
  auto* data = new PickerData{std::move(on_change)};
  g_signal_connect_data(
      dropdown, "notify::selected", G_CALLBACK(picker_changed), data,
      [](gpointer d, GClosure*) { delete static_cast<PickerData*>(d); },
      static_cast<GConnectFlags>(0));
  return dropdown;
}

bool save_widget_png(GtkWidget* widget, const std::string& path, std::string* error) {
  const int width = gtk_widget_get_width(widget);
  const int height = gtk_widget_get_height(widget);
  GtkNative* native = gtk_widget_get_native(widget);
  GskRenderer* renderer = native != nullptr ? gtk_native_get_renderer(native) : nullptr;
  if (width <= 0 || height <= 0 || renderer == nullptr) {
    *error = "the window is not shown yet";
    return false;
  }
  GdkPaintable* paintable = gtk_widget_paintable_new(widget);
  GtkSnapshot* snapshot = gtk_snapshot_new();
  gdk_paintable_snapshot(paintable, snapshot, width, height);
  GskRenderNode* node = gtk_snapshot_free_to_node(snapshot);
  g_object_unref(paintable);
  if (node == nullptr) {
    *error = "nothing drawn";
    return false;
  }
  const graphene_rect_t area{{0.0f, 0.0f}, {static_cast<float>(width), static_cast<float>(height)}};
  GdkTexture* texture = gsk_renderer_render_texture(renderer, node, &area);
  gsk_render_node_unref(node);
  const bool saved = gdk_texture_save_to_png(texture, path.c_str());
  g_object_unref(texture);
  if (!saved) *error = "cannot write " + path;
  return saved;
}

void save_screenshot(GtkWindow* window, const std::string& prefix, int* count) {
  const std::string path = prefix + "-screenshot-" + std::to_string(++*count) + ".png";
  std::string error;
  if (save_widget_png(gtk_window_get_child(window), path, &error)) {
    std::cout << "wrote " << path << std::endl;
  } else {
    std::cerr << program_invocation_short_name << ": screenshot failed: " << error << "\n";
  }
}

std::size_t png_distinct_colors(const std::string& path) {
  GError* error = nullptr;
  GdkTexture* texture = gdk_texture_new_from_filename(path.c_str(), &error);
  if (texture == nullptr) {
    if (error != nullptr) g_error_free(error);
    return 0;
  }
  const int width = gdk_texture_get_width(texture);
  const int height = gdk_texture_get_height(texture);
  std::vector<guchar> pixels(static_cast<std::size_t>(width) * height * 4);
  gdk_texture_download(texture, pixels.data(), static_cast<gsize>(width) * 4);
  g_object_unref(texture);
  std::set<std::uint32_t> colors;
  for (std::size_t i = 0; i + 3 < pixels.size() && colors.size() < 100000; i += 4) {
    colors.insert(pixels[i] | (pixels[i + 1] << 8) | (pixels[i + 2] << 16) |
                  (static_cast<std::uint32_t>(pixels[i + 3]) << 24));
  }
  return colors.size();
}

}  // namespace clf::gtk
