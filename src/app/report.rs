//! What an action of the editor reports once it is done: a line for the status bar, or an
//! error shown in a dialog. The rooms return it and the window shows it.

/// What an action reports.
#[derive(Clone, Debug, PartialEq)]
pub enum Report {
    /// A line for the status bar.
    Said(String),
    /// A line for the status bar, shown as an error.
    Warned(String),
    /// An error shown in a dialog, under its title.
    Failed {
        /// The dialog's title.
        title: &'static str,
        /// What went wrong.
        text: String,
    },
}

impl Report {
    /// An error shown in a dialog.
    pub fn failed(title: &'static str, text: impl Into<String>) -> Self {
        Self::Failed {
            title,
            text: text.into(),
        }
    }

    /// Whether the action worked (a warning in the status bar included).
    pub fn worked(&self) -> bool {
        !matches!(self, Self::Failed { .. })
    }
}
