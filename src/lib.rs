//! referee: replays records of abstract board games through exact rule engines, finds the first
//! illegal move or confirms the claimed result, and draws any position.
//!
//! Six games: Quadraphages and Hexaphages, recorded in their published notation, and Quarod,
//! Petrify, Vadrantir and Splinter Quad, recorded in the common record format (tag pairs,
//! numbered movetext, a result, optional diagrams; `grammar.md` in the repository has both
//! grammars). Records are found in any text: a blog page, a newsletter, a file of many games.
//!
//! # The data path
//!
//! A record travels one way, one module a step, and nothing upstream knows about anything
//! downstream: each module imports only the layers below it, as `docs/architecture.md` lists them
//! (with what each module deliberately does not know), and `tests/architecture.rs` holds the code
//! to that list.
//!
//! ```text
//! bytes ──record──▶ records (tokens with spans) ──replay──▶ moves resolved against a position
//!       ──games──▶ engine state ──judge / verify──▶ Verdict ──report / render──▶ text, JSON, diagram
//! ```
//!
//! | Module | What it holds |
//! |---|---|
//! | [`geometry`] | Square and hex boards: cells, labels, directions |
//! | [`game`] | The vocabulary every game implements, split by job: the engine ([`Game`]), its [`Notation`], its board view, its search key, what it is ([`game::About`]), the common format's [`Playable`]; position codes ([`game::code`]) |
//! | [`games`] | One folder per game (its rules and its move notation only), and the registry: [`GameKind`], one line per game |
//! | [`record`] | Finding records of either notation in a text; their grammars, tokens and spans |
//! | [`render`] | Text diagrams, SVG, PNG, GIF and an HTML replay page |
//! | [`verdict`] | The verdict on one record, independent of the game |
//! | [`replay`] | Tokens + engine → the first illegal move (or every one, leniently) |
//! | [`search`] | The bounded search that judges claims made before the end |
//! | [`write`](mod@write) | Games played in code written as records |
//! | [`document`] | A whole game as data: tags, moves, notes, position codes |
//! | [`alternatives`] | The legal moves nearest an illegal one, and how far the rest replays with each |
//! | [`format`](mod@format) | The two record formats: [`format::common`] and [`format::published`] (Quadraphages' and Hexaphages' notation) |
//! | [`judge`] | A record's format and game found: its start, its claims and final diagram, its score |
//! | [`random`] | Random legal games, and random records of any game |
//! | [`perft`] | Perft: the leaves of the move tree below a position, per first move too, for checking move generators |
//! | [`verify`] | A text → one [`Verdict`] per record; [`VerifyOptions::of`] for a game of one's own |
//! | [`convert`] | A record in its notation's canonical layout, or as a JSON game document, and back |
//! | [`layout`] | Records laid out again (spacing, line breaks, move numbers), every word of their writers' kept |
//! | [`moves`] | A record replayed move by move as plain data, whatever its game |
//! | [`picture`] | A record's positions as scenes for the renderers, its numbered diagrams ([`picture::numbers`]), and its replay page with its verdict |
//! | [`repair`] | The smallest token edits after which a broken record replays further |
//! | [`stream`] | Verifying a text of any size read in chunks, in parallel when asked |
//! | [`judged`] | A text kept judged as it is edited |
//! | [`report`] | Verdicts for people (miette reports), for programs (JSON lines), one line per problem |
//!
//! A game of the common format is its folder in [`games`] plus one registry line; a game defined
//! outside the crate implements the same traits, and every entry point that takes
//! [`VerifyOptions`] serves it with the options [`VerifyOptions::of`] gives
//! (`examples/own_game.rs` in the repository).
//!
//! # Features
//!
//! - `cli` (default): the `referee` binary and what only it needs (clap, shell completions, the
//!   man page, coloured terminal output, the progress bar, walking folders).
//! - `png` (default): [`render::png`], PNG pictures rasterised from the SVG with resvg (a large
//!   dependency: fonts and text shaping).
//! - `parallel` (default, and implied by `cli`): [`stream`] verifies the records of a window on
//!   all cores with rayon when [`stream::StreamOptions::parallel`] asks for it. Without it (a
//!   WebAssembly build for a browser, which has no threads) they are verified one after another,
//!   with the same verdicts in the same order.
//!
//! A program that only reads, replays, writes and draws records as text or SVG depends on
//! `referee = { version = "0.1", default-features = false }`.
//!
//! # Verify a text
//!
//! [`verify_source`] finds every record in a text and gives one [`Verdict`] per record, in order:
//!
//! ```
//! use referee::{verify_source, Status, VerifyOptions};
//!
//! let text = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 2. b4a4 a3b3 *\n\n\
//!             [Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 c1d1 *\n";
//! let verdicts = verify_source(text, VerifyOptions::default());
//! assert_eq!(verdicts.len(), 2);
//! assert_eq!(verdicts[0].status, Status::Valid);
//! assert_eq!(verdicts[0].moves, 4);
//!
//! // The second record plays on an occupied cell: its problem says where, why, and what was legal.
//! let problem = &verdicts[1].problems[0];
//! assert_eq!(verdicts[1].status, Status::Illegal);
//! assert_eq!(problem.token, "c1d1");
//! assert_eq!(&text[problem.span.clone()], "c1d1");
//! assert!(problem.legal_count > 0);
//! ```
//!
//! [`report::human`] and [`report::json_line`] turn a verdict into the reports the binary prints.
//!
//! # Replay a record move by move
//!
//! [`record_moves`] replays one record of any game up to its first illegal move and keeps every
//! move with the position after it:
//!
//! ```
//! let text = "QUADRAPHAGES\n_xx_ _oo_\n1. .... .... 6 i3i9 a7a1 g9a9 c1i1 6 a9a3 i1i7\n";
//! let replayed = referee::record_moves(text, 1, Default::default()).unwrap();
//! assert_eq!(replayed.game.name, "quadraphages");
//! for m in &replayed.moves {
//!     println!("{}. {} plays {}\n{}", m.ply, m.player, m.written, m.board);
//! }
//! assert_eq!(replayed.moves[0].player, "X");
//! assert!(replayed.illegal.is_none());
//! ```
//!
//! To work with the engine itself at each move, give [`verify::with_record`] a
//! [`verify::WithStart`] and replay with [`replay::replay_observed`].
//!
//! # List the legal moves of a position
//!
//! Every engine implements [`Game`]: its legal moves and checked play; its [`Notation`] writes and
//! reads its moves. The games of the common format also implement [`Playable`], whose
//! [`Playable::start`] sets up a board:
//!
//! ```
//! use referee::games::phages::Phages;
//! use referee::games::quarod::Quarod;
//! use referee::{Game, Notation, Playable};
//!
//! let quarod = Quarod::start(Some(4), None).unwrap();
//! let written: Vec<String> = quarod.legal_moves().into_iter().map(|m| quarod.write_move(m)).collect();
//! assert!(written.iter().any(|w| w == "c1d1"));
//!
//! // Quadraphages on its 9x9 board: X opens by announcing a number.
//! let phages = Phages::quadraphages();
//! assert!(!phages.legal_moves().is_empty());
//! assert!(!phages.is_over());
//! ```
//!
//! # Play a game in code and write its record
//!
//! [`Game::play`] checks a move and plays it; [`write::write_common_record`] writes the game in
//! the common format ([`format::published::notation::write_record`] in the published notation), and
//! the record verifies:
//!
//! ```
//! use referee::games::petrify::Petrify;
//! use referee::{verify_source, Game, Playable, Status};
//!
//! let start = Petrify::start(Some(6), None).unwrap();
//! let mut position = start.clone();
//! let mut moves = Vec::new();
//! while !position.is_over() && moves.len() < 10 {
//!     let m = position.legal_moves()[0];
//!     position.play(m).unwrap();
//!     moves.push(m);
//! }
//! let record = referee::write::write_common_record(&start, &moves, &[("Event", "A test".to_string())]);
//! assert!(record.starts_with("[Game \"Petrify\"]"));
//! assert_eq!(verify_source(&record, Default::default())[0].status, Status::Valid);
//!
//! // A whole random game of Quadraphages, in the published notation.
//! let start = referee::games::phages::Phages::quadraphages();
//! let moves = referee::random::random_game(&start, 1, 10_000);
//! let record = referee::format::published::notation::write_record(&start, &moves);
//! assert_eq!(verify_source(&record, Default::default())[0].status, Status::Valid);
//! ```
//!
//! # Render a position
//!
//! [`render::ascii::diagram`] draws a position as text, as records draw it; a
//! [`render::model::Scene`] of it ([`picture::position_scene`], or every position of a record
//! with [`picture::pictures`]) is drawn as SVG by [`render::svg::svg`], and as PNG by
//! `render::png::png` (feature `png`):
//!
//! ```
//! use referee::games::quarod::Quarod;
//! use referee::render::svg::{svg, SvgOptions};
//! use referee::{Game, Playable};
//!
//! let mut position = Quarod::start(Some(4), None).unwrap();
//! let m = position.legal_moves()[0];
//! position.play(m).unwrap();
//! let text = referee::render::ascii::diagram(&position);
//! assert_eq!(text.lines().count(), 5); // the column letters, then a line per row
//!
//! let scene = referee::picture::position_scene(&position, 1);
//! let picture = svg(&scene, &SvgOptions::default());
//! assert!(picture.starts_with("<svg"));
//! ```
//!
//! # Convert a record, and name a position by its code
//!
//! [`convert::document`] replays a record into a [`convert::GameDocument`], which
//! [`convert::canonical_of`] writes in the notation's canonical layout and [`convert::to_json`] as
//! JSON ([`convert::read_json`] reads it back). Every position has a one-line code
//! ([`game::code::Coded`]) that reads back exactly, and a record may start from one:
//!
//! ```
//! use referee::game::code::Coded;
//! use referee::convert;
//! use referee::games::quarod::Quarod;
//! use referee::{verify_source, Game, Notation, Status};
//!
//! let text = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 2. b4a4 a3b3 *\n";
//! let doc = convert::document(text, 1, Default::default()).unwrap();
//! assert_eq!(doc.moves.len(), 4);
//! let canonical = convert::canonical_of(&doc).unwrap();
//! assert!(canonical.contains("\n1. c1d1 d3c3\n2. b4a4 a3b3 *\n"));
//! assert_eq!(convert::read_json(&convert::to_json(&doc)).unwrap(), [doc.clone()]);
//!
//! // The position after the fourth move, as a code, and back.
//! let code = convert::last_code(&doc);
//! let position = Quarod::from_code(code).unwrap();
//! assert_eq!(position.code(), code);
//! let next = position.write_move(position.legal_moves()[0]);
//! let record = format!("[Game \"Quarod\"]\n[Size \"4\"]\n[Position \"{code}\"]\n\n3. {next} *\n");
//! assert_eq!(verify_source(&record, Default::default())[0].status, Status::Valid);
//! ```

// The steps that start a record (its format's start, its tags, its codes) return the one problem
// that stops it as their `Err`: once per record, never in a loop, so its size (a
// `verdict::Problem`, with the rule an illegal move breaks) costs nothing worth boxing it for.
#![allow(clippy::result_large_err)]
#![deny(missing_docs)]

pub mod alternatives;
#[cfg(feature = "pdf")]
pub mod book;
#[cfg(feature = "cli")]
pub mod cli;
pub mod convert;
pub mod document;
#[cfg(feature = "files")]
pub mod files;
pub mod format;
#[doc(hidden)]
pub mod fuzz_bodies;
pub mod game;
pub mod games;
pub mod geometry;
pub mod judge;
pub mod judged;
pub mod layout;
#[cfg(feature = "lsp")]
pub mod lsp;
pub mod moves;
pub mod perft;
pub mod picture;
pub mod protocol;
pub mod random;
pub mod record;
pub mod render;
pub mod repair;
pub mod replay;
pub mod report;
pub mod search;
pub mod stream;
mod variations;
pub mod verdict;
pub mod verify;
pub mod write;

pub use game::{BoardView, Engine, Game, Notation, Playable};
pub use games::GameKind;
pub use moves::{record_moves, PlayedMove, RecordMoves};
pub use verdict::{Status, Verdict};
pub use verify::{verify_records, verify_source, VerifyOptions};
