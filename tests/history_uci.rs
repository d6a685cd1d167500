//! Every historical profile plays a complete game through `kempelen uci`, driven by
//! python-chess: selected with `setoption name Profile`, at a fixed depth or node budget,
//! against the full profile at depth 3, every move legal and reported with depth, score, nodes
//! and pv. Skipped with a message when python3 or python-chess is missing.

mod common;

/// One test a profile (a table in one test would play the games one after another, and the
/// first failure would hide the others): `test: profile, its colour, its limit (depth=N or
/// nodes=N);`.
macro_rules! full_games {
    ($($test:ident: $profile:literal, $colour:literal, $limit:literal;)*) => {
        $(
            #[test]
            fn $test() {
                common::python_game("history_uci_session.py", &[$profile, $colour, $limit], 4);
            }
        )*
    };
}

full_games! {
    turing_plays_a_full_game: "turing", "white", "depth=2";
    shannon_plays_a_full_game: "shannon", "black", "depth=2";
    tartan_plays_a_full_game: "tartan", "white", "depth=2";
    microchess_plays_a_full_game: "microchess", "white", "depth=1";
    micromax_plays_a_full_game: "micromax", "black", "nodes=2000";
}
