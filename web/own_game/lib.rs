//! referee's web page with a game from outside the crate added: In a Row, the game of
//! `examples/own_game/game.rs`, beside the registry's six. This is all a crate that defines a game
//! writes to ship the page with it; `web/build.sh web/own_game` builds the page into
//! `web/own_game/dist/`, and `web/tests/own_game.mjs` judges a record of the game in it.

// The game's sample records (`ILLEGAL`, `DRAWN`) are the example's and its tests', not the page's.
#[allow(dead_code)]
#[path = "../../examples/own_game/game.rs"]
mod game;

referee_web::page!(referee::judge::Registry.and::<game::InRow>());
