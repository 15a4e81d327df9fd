//! The canvas and its tools: the map on screen ([`canvas::Canvas`], drawn from a
//! [`tiled_texture::TiledTexture`]), what the pointer does on it ([`input::CanvasInput`] and
//! the [`gesture::Gesture`] under way), and the painting and height tools with the strokes
//! they leave ([`tools`], [`hex_tools`], [`stroke`], [`sculpt`]).

#[expect(
    clippy::module_inception,
    reason = "the canvas is the room's main type, named after it"
)]
pub mod canvas;
pub mod gesture;
pub mod hex_tools;
pub mod input;
pub mod sculpt;
pub mod stroke;
pub mod tiled_texture;
pub mod tools;
