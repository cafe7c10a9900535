//! referee: replays published records of abstract board games through exact rule engines.

pub mod code;
pub mod game;
pub mod games;
pub mod geometry;
pub mod picture;
pub mod random;
pub mod record;
pub mod render;
pub mod repair;
pub mod replay;
pub mod report;
pub mod search;
pub mod stream;
pub mod verdict;
pub mod verify;
pub mod write;
