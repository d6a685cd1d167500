//! Play: a game against an 8-bit build on the terminal (`play`), and any engine as a UCI engine
//! for a chess GUI (`uci`: the native engine, an 8-bit build, or a console program through an
//! adaptor file).

pub mod game;
pub mod uci;
