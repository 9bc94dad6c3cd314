// Choosing files in the windows: open and save dialogs, and files dropped onto a widget. GTK 4.8
// (Debian 12) has no GtkFileDialog (4.10), so the dialogs are GtkFileChooserNative: the desktop's
// own chooser through its portal where there is one, else GTK's dialog. Use from the UI thread.
#pragma once

#include <gtk/gtk.h>

#include <functional>
#include <string>
#include <vector>

namespace clf::gtk {

struct FileFilter {
  std::string name;                   // "Scenes and models"
  std::vector<std::string> suffixes;  // "json", "glb": in any case; none: every file
};

using FileChosen = std::function<void(const std::string& path)>;

// Asks for a file to open (modal to `parent`); `chosen` gets its path, and is not called when
// the dialog is cancelled. The first filter is selected.
void choose_file_to_open(GtkWindow* parent, const std::string& title,
                         const std::vector<FileFilter>& filters, FileChosen chosen);

// Asks where to save, starting in the folder of `suggested` with its file name filled in.
void choose_file_to_save(GtkWindow* parent, const std::string& title, const std::string& suggested,
                         const std::vector<FileFilter>& filters, FileChosen chosen);

// Calls `dropped` with the path of each local file dropped onto `widget` (from a file manager);
// anything else dropped there is refused.
void accept_dropped_files(GtkWidget* widget, FileChosen dropped);

}  // namespace clf::gtk
