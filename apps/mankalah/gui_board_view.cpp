// The Mankalah board in Calvin's orientation (TOP's pits 12..7 above, BOTTOM's 0..5 below, TOP's
// store on the left, BOTTOM's on the right) with the stones drawn and counted, its style sheet,
// and refreshing everything the window shows from the session.
#include <algorithm>
#include <cmath>

#include "apps/mankalah/gui_window.hpp"

namespace mankalah {

namespace {

const char* kCss = R"css(
.mankalah-root { background: #231a13; }
.board {
  background: linear-gradient(180deg, #a86d33, #8a5524 55%, #6f431b);
  border-radius: 36px; padding: 14px 18px;
  box-shadow: 0 8px 24px rgba(0,0,0,0.55), inset 0 2px 0 rgba(255,230,190,0.35);
}
button.pit, .store {
  background: radial-gradient(circle, #4a2b10, #5d3915 70%, #6d4419);
  border: 2px solid rgba(30,15,5,0.35); border-radius: 999px;
  box-shadow: inset 0 5px 12px rgba(0,0,0,0.65);
  padding: 4px; min-width: 78px;
}
button.pit { min-height: 92px; transition: box-shadow 150ms; }
button.pit:hover { background: radial-gradient(circle, #56341a, #674020 70%, #774c20); }
button.pit:disabled { background: radial-gradient(circle, #4a2b10, #5d3915 70%, #6d4419); }
button.pit.playable { border-color: #f1c75b; }
button.pit.last-move, .store.last-move {
  box-shadow: inset 0 5px 12px rgba(0,0,0,0.65), 0 0 0 3px #5ec8f2;
}
button.pit.captured {
  box-shadow: inset 0 5px 12px rgba(0,0,0,0.65), 0 0 0 3px #ff6b5e;
}
button.pit.hint { box-shadow: inset 0 5px 12px rgba(0,0,0,0.65), 0 0 0 4px #8be36a; }
.store { min-width: 92px; }
label.count { color: #fff1d6; font-weight: bold; font-size: 15pt; text-shadow: 0 1px 2px black; }
button.pit:disabled label.count { color: #e9d5b5; }
label.caption { color: #f4dfbd; font-size: 9pt; }
label.side { color: #e8d8c0; font-size: 12pt; }
label.side.to-move { color: #ffd866; font-weight: bold; }
label.message { color: #f0e6d8; font-size: 11pt; }
label.result { color: #ffd866; font-size: 20pt; font-weight: bold; }
label.status { color: #cdbda8; font-family: monospace; font-size: 10pt; }
label.title { color: #ffd866; font-size: 22pt; font-weight: bold; }
label.heading { font-weight: bold; margin-top: 8px; }
.panel { background: #2e241b; border-radius: 12px; padding: 10px; }
)css";

void set_css_class(GtkWidget* widget, const char* name, bool on) {
  if (on)
    gtk_widget_add_css_class(widget, name);
  else
    gtk_widget_remove_css_class(widget, name);
}

// Stones drawn as glass marbles, placed on a sunflower spiral that fills the pit (an ellipse
// for the stores); colours and a little jitter come from a hash of the cell and stone, so a
// pit looks the same from one frame to the next.
void draw_stone(cairo_t* cr, double x, double y, double r, const double rgb[3]) {
  cairo_arc(cr, x + 0.12 * r, y + 0.22 * r, r, 0, 2 * M_PI);
  cairo_set_source_rgba(cr, 0, 0, 0, 0.35);
  cairo_fill(cr);
  cairo_pattern_t* body = cairo_pattern_create_radial(x - 0.35 * r, y - 0.4 * r, 0.1 * r, x, y, r);
  cairo_pattern_add_color_stop_rgb(body, 0, 0.55 + 0.45 * rgb[0], 0.55 + 0.45 * rgb[1],
                                   0.55 + 0.45 * rgb[2]);
  cairo_pattern_add_color_stop_rgb(body, 0.55, rgb[0], rgb[1], rgb[2]);
  cairo_pattern_add_color_stop_rgb(body, 1, 0.45 * rgb[0], 0.45 * rgb[1], 0.45 * rgb[2]);
  cairo_arc(cr, x, y, r, 0, 2 * M_PI);
  cairo_set_source(cr, body);
  cairo_fill(cr);
  cairo_pattern_destroy(body);
  cairo_arc(cr, x - 0.35 * r, y - 0.4 * r, 0.22 * r, 0, 2 * M_PI);
  cairo_set_source_rgba(cr, 1, 1, 1, 0.55);
  cairo_fill(cr);
}

std::uint32_t mix(std::uint32_t a, std::uint32_t b) {
  std::uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u + (a << 6) + (a >> 2));
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return h;
}

void draw_cell(GtkDrawingArea*, cairo_t* cr, int width, int height, gpointer data) {
  static const double palette[][3] = {{0.20, 0.58, 0.88}, {0.90, 0.32, 0.26}, {0.22, 0.78, 0.47},
                                      {0.96, 0.76, 0.14}, {0.62, 0.38, 0.76}, {0.90, 0.88, 0.82}};
  const CellRef* ref = static_cast<const CellRef*>(data);
  if (ref->gui->active_kind != SearchKind::none) ++ref->gui->board_draws_searching;
  const int n = ref->gui->board().cells[ref->cell];
  if (n == 0 || width < 8 || height < 8) return;
  const double rx = width / 2.0 - 2, ry = height / 2.0 - 2;
  const double radius = std::min(rx, ry);
  const double stone =
      std::clamp(radius / (1.05 * std::sqrt(n) + 0.45), radius * 0.12, radius * 0.34);
  double spacing = 1.1 * stone;
  const double outer = spacing * std::sqrt(n - 0.5);
  if (outer + stone > radius) spacing *= (radius - stone) / outer;  // a heap: stones overlap
  for (int i = n - 1; i >= 0; --i) {
    const std::uint32_t h =
        mix(static_cast<std::uint32_t>(ref->cell), static_cast<std::uint32_t>(i));
    const double r = spacing * std::sqrt(i + 0.5);
    const double theta = i * 2.399963 + ref->cell;
    const double jitter = ((h >> 8) & 255) / 255.0 - 0.5;
    const double x = width / 2.0 + (r * std::cos(theta) + 0.15 * stone * jitter) * rx / radius;
    const double y = height / 2.0 + (r * std::sin(theta) - 0.15 * stone * jitter) * ry / radius;
    draw_stone(cr, x, y, stone, palette[h % 6]);
  }
}

void on_pit_clicked(GtkButton*, gpointer data) {
  const CellRef* ref = static_cast<const CellRef*>(data);
  ref->gui->human_play(ref->cell);
}

// A pit (button) or a store (box): the stones above their count.
GtkWidget* make_cell(Gui* g, int cell) {
  const bool store = cell == KALAH_TOP_STORE || cell == KALAH_BOTTOM_STORE;
  g->refs[cell] = CellRef{g, cell};
  GtkWidget* content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
  g->areas[cell] = gtk_drawing_area_new();
  gtk_drawing_area_set_content_width(GTK_DRAWING_AREA(g->areas[cell]), store ? 80 : 66);
  gtk_drawing_area_set_content_height(GTK_DRAWING_AREA(g->areas[cell]), store ? 170 : 62);
  gtk_widget_set_vexpand(g->areas[cell], TRUE);
  gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(g->areas[cell]), draw_cell, &g->refs[cell],
                                 nullptr);
  gtk_box_append(GTK_BOX(content), g->areas[cell]);
  g->counts[cell] = label("0", "count");
  gtk_box_append(GTK_BOX(content), g->counts[cell]);
  if (store) {
    gtk_widget_add_css_class(content, "store");
    g->cells[cell] = content;
  } else {
    g->cells[cell] = gtk_button_new();
    gtk_widget_add_css_class(g->cells[cell], "pit");
    gtk_button_set_child(GTK_BUTTON(g->cells[cell]), content);
    gtk_widget_set_focus_on_click(g->cells[cell], FALSE);
    g_signal_connect(g->cells[cell], "clicked", G_CALLBACK(on_pit_clicked), &g->refs[cell]);
  }
  g->captions[cell] = label("", "caption");
  return g->cells[cell];
}

}  // namespace

GtkWidget* build_board(Gui* g) {
  GtkWidget* grid = gtk_grid_new();
  gtk_widget_add_css_class(grid, "board");
  gtk_grid_set_column_spacing(GTK_GRID(grid), 10);
  gtk_grid_set_row_spacing(GTK_GRID(grid), 8);
  gtk_widget_set_halign(grid, GTK_ALIGN_CENTER);
  // Calvin's orientation: TOP's pits 12..7 left to right above, BOTTOM's 0..5 below, TOP's
  // store on the left, BOTTOM's on the right (sowing runs counter-clockwise).
  for (int i = 0; i < KALAH_PITS; ++i) {
    const int top = 12 - i, bottom = i;
    gtk_grid_attach(GTK_GRID(grid), make_cell(g, top), i + 1, 1, 1, 1);
    gtk_grid_attach(GTK_GRID(grid), g->captions[top], i + 1, 0, 1, 1);
    gtk_grid_attach(GTK_GRID(grid), make_cell(g, bottom), i + 1, 2, 1, 1);
    gtk_grid_attach(GTK_GRID(grid), g->captions[bottom], i + 1, 3, 1, 1);
  }
  gtk_grid_attach(GTK_GRID(grid), make_cell(g, KALAH_TOP_STORE), 0, 1, 1, 2);
  gtk_grid_attach(GTK_GRID(grid), g->captions[KALAH_TOP_STORE], 0, 3, 1, 1);
  gtk_grid_attach(GTK_GRID(grid), make_cell(g, KALAH_BOTTOM_STORE), 7, 1, 1, 2);
  gtk_grid_attach(GTK_GRID(grid), g->captions[KALAH_BOTTOM_STORE], 7, 0, 1, 1);
  return grid;
}

void load_board_css() {
  GtkCssProvider* css = gtk_css_provider_new();
  gtk_css_provider_load_from_data(css, kCss, -1);
  gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(css),
                                             GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_unref(css);
}

std::string Gui::side_title(int side) const {
  const bool human = side == session.human_side();
  std::string text = std::string(side_name(side)) + "  \u00b7  " +
                     (human ? std::string("you") : "AI (" + engine + ")") + "  \u00b7  score " +
                     std::to_string(kalah_score(&board(), side));
  if (!session.over() && board().to_move == side) text = "\u25b6 " + text + "  \u00b7  to move";
  return text;
}

std::string Gui::caption(int cell) const {
  if (cell == KALAH_TOP_STORE || cell == KALAH_BOTTOM_STORE)
    return std::string(side_name(cell == KALAH_TOP_STORE ? KALAH_TOP : KALAH_BOTTOM)) + " store";
  const int side = cell < KALAH_BOTTOM_STORE ? KALAH_BOTTOM : KALAH_TOP;
  std::string text = "c" + std::to_string(cell);
  if (side == session.human_side())
    text += "  \u00b7  key " + std::to_string(cell - kalah_first_pit(side) + 1);
  return text;
}

void Gui::refresh() {
  const TurnMarks marks = session.last_turn();
  const bool searching_move = active_kind == SearchKind::ai_move;
  for (int c = 0; c < KALAH_CELLS; ++c) {
    if (shown_counts[c] != board().cells[c]) {
      shown_counts[c] = board().cells[c];
      gtk_label_set_text(GTK_LABEL(counts[c]), std::to_string(board().cells[c]).c_str());
      gtk_widget_queue_draw(areas[c]);
    }
    gtk_label_set_text(GTK_LABEL(captions[c]), caption(c).c_str());
    const bool played =
        std::find(marks.played.begin(), marks.played.end(), c) != marks.played.end();
    const bool captured =
        std::find(marks.captured.begin(), marks.captured.end(), c) != marks.captured.end();
    set_css_class(cells[c], "last-move", played && !captured);
    if (c == KALAH_TOP_STORE || c == KALAH_BOTTOM_STORE) continue;
    const bool playable = !searching_move && session.human_may_play(c);
    gtk_widget_set_sensitive(cells[c], playable);
    set_css_class(cells[c], "playable", playable);
    set_css_class(cells[c], "captured", captured);
    set_css_class(cells[c], "hint", c == hint_pit);
  }
  // A capture also fills the store: mark it with the played pits.
  set_css_class(cells[KALAH_TOP_STORE], "last-move",
                marks.side == KALAH_TOP && marks.captured_stones > 0);
  set_css_class(cells[KALAH_BOTTOM_STORE], "last-move",
                marks.side == KALAH_BOTTOM && marks.captured_stones > 0);
  gtk_label_set_text(GTK_LABEL(top_side), side_title(KALAH_TOP).c_str());
  gtk_label_set_text(GTK_LABEL(bottom_side), side_title(KALAH_BOTTOM).c_str());
  set_css_class(top_side, "to-move", !session.over() && board().to_move == KALAH_TOP);
  set_css_class(bottom_side, "to-move", !session.over() && board().to_move == KALAH_BOTTOM);

  // The last two turns, at most four lines (chains can be long).
  std::vector<std::string> lines = previous_lines;
  lines.insert(lines.end(), turn_lines.begin(), turn_lines.end());
  std::string text;
  for (std::size_t i = lines.size() > 4 ? lines.size() - 4 : 0; i < lines.size(); ++i)
    text += (text.empty() ? "" : "\n") + lines[i];
  if (text.empty()) text = session.human_to_move() ? "Your move: click a pit or press 1-6." : "";
  gtk_label_set_text(GTK_LABEL(message), text.c_str());

  std::string outcome = session.outcome();
  if (!outcome.empty()) {
    if (session.in_match()) outcome += "\n" + session.match_summary();
    gtk_label_set_text(GTK_LABEL(result), outcome.c_str());
  }
  gtk_widget_set_visible(result, !outcome.empty());
  gtk_widget_set_visible(next_game,
                         session.in_match() && session.match_game() == 0 && session.over());

  gtk_widget_set_sensitive(undo, session.can_undo());
  gtk_widget_set_sensitive(hint, session.human_to_move() && active_kind == SearchKind::none);
  gtk_widget_set_sensitive(move_now, active_kind != SearchKind::none);
  update_status();
  update_match_label();
}

}  // namespace mankalah
