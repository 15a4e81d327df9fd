//! The canvas and its tools: the map on screen ([`canvas::Canvas`], drawn from a
//! [`tiled_texture::TiledTexture`]), what the pointer does on it ([`input::CanvasInput`] and
//! the [`gesture::Gesture`] under way), and the painting and height tools with the strokes
//! they leave ([`tools`], [`stroke`], [`sculpt`]); the shapes of cells, brushes and lines
//! on squares or hexes are the map's topology's to say.

#[expect(
    clippy::module_inception,
    reason = "the canvas is the room's main type, named after it"
)]
pub mod canvas;
pub mod gesture;
pub mod input;
pub mod sculpt;
pub mod stroke;
pub mod tiled_texture;
pub mod tools;
