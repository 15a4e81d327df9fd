//! Everything the user can ask of the editor from a menu, the toolbar or the keyboard, and the
//! one table of keyboard shortcuts: the keyboard handling, the menus and the shortcuts window
//! (F1) all read [`BINDINGS`], so what the help says is what the keys do.

use egui::{Key, KeyboardShortcut, Modifiers};

use super::canvas::tools::Tool;

/// Something the user asks of the editor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Undo the latest edit.
    Undo,
    /// Redo the latest undone edit.
    Redo,
    /// A new map (after the unsaved-changes question).
    New,
    /// Open a map or a level.
    Open,
    /// Save the map as gridpath JSON.
    Save,
    /// Save the map under another name.
    SaveAs,
    /// Import an image or a ROS `map.yaml`.
    ImportImage,
    /// Import a Moving AI map.
    ImportMovingAi,
    /// Import a grayscale image as the map's heights.
    ImportHeights,
    /// Import a Tiled map or an LDtk project.
    ImportLevel,
    /// Export the map as a Moving AI map.
    ExportMovingAi,
    /// Export the map as a Tiled map.
    ExportTiled,
    /// Export the map as a PNG.
    ExportPng,
    /// Export the path.
    ExportPath,
    /// Close the editor (after the unsaved-changes question).
    Quit,
    /// Change the map's size.
    ResizeMap,
    /// Show the whole map.
    Fit,
    /// One cell per screen point.
    OneToOne,
    /// Take a tool.
    Tool(Tool),
    /// The next smaller brush size.
    SmallerBrush,
    /// The next larger brush size.
    LargerBrush,
    /// Make the palette's Nth terrain (from 0) the active one.
    Terrain(usize),
    /// Open or close the shortcuts window.
    Shortcuts,
}

/// A command's keys and its name in menus and help.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    /// The command.
    pub command: Command,
    /// The keys that give it, the one menus show first.
    pub keys: &'static [KeyboardShortcut],
    /// What it is called.
    pub name: &'static str,
    /// Keys without Ctrl that a text field being edited takes instead (a tool's letter).
    pub plain: bool,
}

const fn ctrl(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND, key)
}

const fn ctrl_shift(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), key)
}

const fn key(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::NONE, key)
}

const fn bind(command: Command, keys: &'static [KeyboardShortcut], name: &'static str) -> Binding {
    Binding {
        command,
        keys,
        name,
        plain: false,
    }
}

const fn plain(command: Command, keys: &'static [KeyboardShortcut], name: &'static str) -> Binding {
    Binding {
        command,
        keys,
        name,
        plain: true,
    }
}

/// Every command with keys, in the order the keyboard is read: a shortcut that holds another
/// comes first (Ctrl+Shift+Z before Ctrl+Z), because egui matches Ctrl+Z on Ctrl+Shift+Z too.
pub const BINDINGS: [Binding; 34] = [
    bind(Command::Redo, &[ctrl_shift(Key::Z), ctrl(Key::Y)], "Redo"),
    bind(Command::Undo, &[ctrl(Key::Z)], "Undo"),
    bind(Command::SaveAs, &[ctrl_shift(Key::S)], "Save as…"),
    bind(Command::Save, &[ctrl(Key::S)], "Save"),
    bind(Command::Open, &[ctrl(Key::O)], "Open…"),
    bind(Command::New, &[ctrl(Key::N)], "New…"),
    bind(Command::Fit, &[ctrl(Key::Num0)], "Fit map"),
    bind(Command::OneToOne, &[ctrl(Key::Num1)], "1:1"),
    bind(Command::Shortcuts, &[key(Key::F1)], "Keyboard shortcuts"),
    plain(Command::Tool(Tool::Brush), &[key(Key::B)], "Brush"),
    plain(Command::Tool(Tool::Line), &[key(Key::L)], "Line"),
    plain(Command::Tool(Tool::Rectangle), &[key(Key::R)], "Rectangle"),
    plain(Command::Tool(Tool::Fill), &[key(Key::F)], "Fill"),
    plain(Command::Tool(Tool::Eraser), &[key(Key::E)], "Eraser"),
    plain(
        Command::Tool(Tool::Eyedropper),
        &[key(Key::I)],
        "Eyedropper",
    ),
    plain(Command::Tool(Tool::Start), &[key(Key::S)], "Start"),
    plain(Command::Tool(Tool::Goal), &[key(Key::G)], "Goal"),
    plain(Command::Tool(Tool::Measure), &[key(Key::M)], "Measure"),
    plain(Command::Tool(Tool::Agents), &[key(Key::A)], "Agents"),
    plain(Command::Tool(Tool::Raise), &[key(Key::U)], "Raise"),
    plain(Command::Tool(Tool::Lower), &[key(Key::D)], "Lower"),
    plain(Command::Tool(Tool::Flatten), &[key(Key::H)], "Flatten"),
    plain(
        Command::SmallerBrush,
        &[key(Key::OpenBracket)],
        "Smaller brush",
    ),
    plain(
        Command::LargerBrush,
        &[key(Key::CloseBracket)],
        "Larger brush",
    ),
    plain(
        Command::Shortcuts,
        &[key(Key::Questionmark)],
        "Keyboard shortcuts",
    ),
    plain(Command::Terrain(0), &[key(Key::Num1)], "Choose terrain 1–9"),
    plain(Command::Terrain(1), &[key(Key::Num2)], "Choose terrain 1–9"),
    plain(Command::Terrain(2), &[key(Key::Num3)], "Choose terrain 1–9"),
    plain(Command::Terrain(3), &[key(Key::Num4)], "Choose terrain 1–9"),
    plain(Command::Terrain(4), &[key(Key::Num5)], "Choose terrain 1–9"),
    plain(Command::Terrain(5), &[key(Key::Num6)], "Choose terrain 1–9"),
    plain(Command::Terrain(6), &[key(Key::Num7)], "Choose terrain 1–9"),
    plain(Command::Terrain(7), &[key(Key::Num8)], "Choose terrain 1–9"),
    plain(Command::Terrain(8), &[key(Key::Num9)], "Choose terrain 1–9"),
];

/// The binding of a command, when it has keys.
pub fn binding(command: Command) -> Option<&'static Binding> {
    BINDINGS.iter().find(|b| b.command == command)
}

/// The first key of a command, for menus and tooltips.
pub fn shortcut(command: Command) -> Option<&'static KeyboardShortcut> {
    binding(command).and_then(|b| b.keys.first())
}

/// The commands the keys pressed this frame give, consumed from the input in table order.
/// `typing`: a text field has the keyboard, so plain keys are left to it. `undo`: whether
/// undo and redo may run now (not in the middle of a stroke); when not, their keys stay.
pub fn pressed(ctx: &egui::Context, typing: bool, undo: bool) -> Vec<Command> {
    let mut commands = Vec::new();
    for binding in &BINDINGS {
        if (binding.plain && typing)
            || (!undo && matches!(binding.command, Command::Undo | Command::Redo))
        {
            continue;
        }
        for keys in binding.keys {
            if ctx.input_mut(|i| i.consume_shortcut(keys)) {
                commands.push(binding.command);
            }
        }
    }
    commands
}

/// A shortcut as the user reads it: the modifiers by name, the key by its symbol ("?", "[",
/// "]"), not by egui's name for it (`Questionmark`, `OpenBracket`).
pub fn key_text(ctx: &egui::Context, shortcut: &KeyboardShortcut) -> String {
    let text = ctx.format_shortcut(shortcut);
    let key = shortcut.logical_key;
    match text.strip_suffix(key.name()) {
        Some(modifiers) => format!("{modifiers}{}", key.symbol_or_name()),
        None => text,
    }
}

/// Where a command's row comes in the shortcuts window: the edits first (Undo before Redo,
/// Save before Save as), then the files, the view, the tools, the brush and the terrains.
fn help_rank(command: Command) -> u8 {
    match command {
        Command::Undo => 0,
        Command::Redo => 1,
        Command::New => 2,
        Command::Open => 3,
        Command::Save => 4,
        Command::SaveAs => 5,
        Command::Fit => 6,
        Command::OneToOne => 7,
        Command::Tool(_) => 8,
        Command::SmallerBrush => 9,
        Command::LargerBrush => 10,
        Command::Terrain(_) => 11,
        Command::Shortcuts => 12,
        _ => 13,
    }
}

/// The shortcuts window's rows, in the order [`help_rank`] gives: each command's name and its
/// keys, as text.
pub fn help_rows(ctx: &egui::Context) -> Vec<(&'static str, String)> {
    let mut bindings: Vec<&Binding> = BINDINGS.iter().collect();
    bindings.sort_by_key(|b| help_rank(b.command));
    let mut rows: Vec<(&'static str, String)> = Vec::new();
    for binding in bindings {
        let keys: Vec<String> = binding.keys.iter().map(|k| key_text(ctx, k)).collect();
        let keys = keys.join(" or ");
        match rows.iter_mut().find(|(name, _)| *name == binding.name) {
            Some((_, shown)) => {
                shown.push_str(", ");
                shown.push_str(&keys);
            }
            None => rows.push((binding.name, keys)),
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_its_key_and_no_key_gives_two_commands() {
        for tool in Tool::ALL {
            assert_eq!(
                binding(Command::Tool(tool)).map(|b| b.name),
                Some(tool.name()),
                "{tool:?}"
            );
        }
        let mut seen: Vec<&KeyboardShortcut> = Vec::new();
        for binding in &BINDINGS {
            for k in binding.keys {
                assert!(!seen.contains(&k), "{k:?} is bound twice");
                seen.push(k);
            }
        }
    }

    #[test]
    fn a_shortcut_that_holds_another_is_read_first() {
        let keys: Vec<(&str, &KeyboardShortcut)> = BINDINGS
            .iter()
            .flat_map(|b| b.keys.iter().map(move |k| (b.name, k)))
            .collect();
        for (i, (earlier, a)) in keys.iter().enumerate() {
            for (later, b) in &keys[i + 1..] {
                // Pressing `b` would be taken by `a`, read first.
                let taken = a.logical_key == b.logical_key
                    && a.modifiers != b.modifiers
                    && b.modifiers.matches_logically(a.modifiers);
                assert!(!taken, "{later} must be read before {earlier}");
            }
        }
    }
}
