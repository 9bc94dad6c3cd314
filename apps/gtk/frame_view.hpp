// GTK4 pieces every app shares: a view of GPU-rendered RGBA frames scaled to the window with a
// text overlay (fps, per-stage times), a device picker, and saving a window to PNG. Built only
// when GTK4 is found (library clf_gtk).
#pragma once

#include <gtk/gtk.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace clf::gtk {

// Shows RGBA frames (R in the low byte of each uint32) scaled to fit its allocation, aspect
// kept, with an overlay label in the top-left corner. Use from the UI thread only.
class FrameView {
 public:
  FrameView();
  GtkWidget* widget() const { return overlay_; }
  void show_rgba(int width, int height, const std::vector<std::uint32_t>& rgba);
  void set_overlay_text(const std::string& text);
  // The area frames are drawn into, in pixels (0 before the first layout).
  int width() const;
  int height() const;
  GtkWidget* picture() const { return picture_; }

 private:
  GtkWidget* overlay_;
  GtkWidget* picture_;
  GtkWidget* label_;
};

// A drop-down of the OpenCL devices (clf::enumerate_devices()); on_change gets the index into
// that listing.
GtkWidget* device_picker(int selected, std::function<void(int)> on_change);

// Renders `widget` as it is on screen to a PNG. Returns false (with a message in *error).
bool save_widget_png(GtkWidget* widget, const std::string& path, std::string* error);
// The screenshot action: saves the window to "<prefix>-screenshot-<n>.png" in the working
// directory with n = ++*count, and says where on stdout (or why not on stderr).
void save_screenshot(GtkWindow* window, const std::string& prefix, int* count);
// Distinct colours in a PNG (0 when it cannot be read): a blank screenshot has 1.
std::size_t png_distinct_colors(const std::string& path);

}  // namespace clf::gtk
