#include "apps/gtk/file_dialog.hpp"

#include <filesystem>
#include <memory>

namespace clf::gtk {

namespace {

struct PendingChoice {
  GtkFileChooserNative* dialog;
  FileChosen chosen;
};

// The path of a GFile, "" for one that is not local (a remote location).
std::string local_path(GFile* file) {
  if (file == nullptr) return "";
  char* path = g_file_get_path(file);
  std::string result = path != nullptr ? path : "";
  g_free(path);
  return result;
}

void on_response(GtkNativeDialog* dialog, int response, gpointer data) {
  g_signal_handlers_disconnect_by_data(dialog, data);
  std::unique_ptr<PendingChoice> pending(static_cast<PendingChoice*>(data));
  std::string path;
  if (response == GTK_RESPONSE_ACCEPT) {
    GFile* file = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(dialog));
    path = local_path(file);
    if (file != nullptr) g_object_unref(file);
  }
  gtk_native_dialog_destroy(dialog);
  g_object_unref(pending->dialog);
  if (!path.empty()) pending->chosen(path);
}

GtkFileChooserNative* new_dialog(GtkWindow* parent, const std::string& title,
                                 GtkFileChooserAction action, const char* accept,
                                 const std::vector<FileFilter>& filters) {
  GtkFileChooserNative* dialog =
      gtk_file_chooser_native_new(title.c_str(), parent, action, accept, "_Cancel");
  gtk_native_dialog_set_modal(GTK_NATIVE_DIALOG(dialog), TRUE);
  for (const FileFilter& f : filters) {
    GtkFileFilter* filter = gtk_file_filter_new();
    gtk_file_filter_set_name(filter, f.name.c_str());
    for (const std::string& suffix : f.suffixes) gtk_file_filter_add_suffix(filter, suffix.c_str());
    if (f.suffixes.empty()) gtk_file_filter_add_pattern(filter, "*");
    gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(dialog), filter);
    g_object_unref(filter);
  }
  return dialog;
}

void show(GtkFileChooserNative* dialog, FileChosen chosen) {
  auto* pending = new PendingChoice{dialog, std::move(chosen)};
  g_signal_connect(dialog, "response", G_CALLBACK(on_response), pending);
  gtk_native_dialog_show(GTK_NATIVE_DIALOG(dialog));
}

gboolean on_drop(GtkDropTarget*, const GValue* value, double, double, gpointer data) {
  if (!G_VALUE_HOLDS(value, G_TYPE_FILE)) return FALSE;
  const std::string path = local_path(G_FILE(g_value_get_object(value)));
  if (path.empty()) return FALSE;
  (*static_cast<FileChosen*>(data))(path);
  return TRUE;
}

}  // namespace

void choose_file_to_open(GtkWindow* parent, const std::string& title,
                         const std::vector<FileFilter>& filters, FileChosen chosen) {
  show(new_dialog(parent, title, GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", filters),
       std::move(chosen));
}

void choose_file_to_save(GtkWindow* parent, const std::string& title, const std::string& suggested,
                         const std::vector<FileFilter>& filters, FileChosen chosen) {
  GtkFileChooserNative* dialog =
      new_dialog(parent, title, GTK_FILE_CHOOSER_ACTION_SAVE, "_Save", filters);
  const std::filesystem::path path = std::filesystem::absolute(suggested);
  GFile* folder = g_file_new_for_path(path.parent_path().c_str());
  gtk_file_chooser_set_current_folder(GTK_FILE_CHOOSER(dialog), folder, nullptr);
  g_object_unref(folder);
  gtk_file_chooser_set_current_name(GTK_FILE_CHOOSER(dialog), path.filename().c_str());
  show(dialog, std::move(chosen));
}

void accept_dropped_files(GtkWidget* widget, FileChosen dropped) {
  GtkDropTarget* target = gtk_drop_target_new(G_TYPE_FILE, GDK_ACTION_COPY);
  g_signal_connect_data(
      target, "drop", G_CALLBACK(on_drop), new FileChosen(std::move(dropped)),
      +[](gpointer data, GClosure*) { delete static_cast<FileChosen*>(data); }, GConnectFlags{});
  gtk_widget_add_controller(widget, GTK_EVENT_CONTROLLER(target));
}

}  // namespace clf::gtk
