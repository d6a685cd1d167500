//! Play: a game against an 8-bit build on the terminal (`play`), the same game as a program file
//! for a real computer (`build`), and any engine as a UCI engine for a chess GUI (`uci`: the
//! native engine, an 8-bit build, or a console program through an adaptor file).

pub mod build;
pub mod game;
pub mod uci;
